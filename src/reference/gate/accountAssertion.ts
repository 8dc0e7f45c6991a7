// The account assertion of the Authentication table ("short-lived RS256 token … /dashboard/* and POST /webhooks/test"):
// its header or transport is not shown (gate.auth.accountAssertion). This sandbox trusts no issuer, so an assertion
// never stands in for a secret key; what the world's choice changes is where it looks for one.
import { choiceOf } from '../kit/dialect.js';
import { HttpError, type Req } from '../kit/http.js';
import type { GateWorld } from './world.js';

/**
 * Where an account assertion rides (gate.auth.accountAssertion): in its own header, the world reads it on the routes
 * it is for and refuses it (this sandbox trusts no issuer) unless a secret key comes with it; in the bearer, the key
 * check refuses it as it refuses any bearer that is no key.
 */
export function refuseAccountAssertion(world: GateWorld, req: Req): void {
  if (choiceOf(world.profile, 'gate.auth.accountAssertion') !== 'x-account-assertion') return;
  const assertion = req.headers['x-account-assertion'];
  if (typeof assertion === 'string' && assertion !== '' && req.headers.authorization === undefined)
    throw new HttpError(401, 'The account assertion is not accepted: this sandbox trusts no issuer. Use a secret key.', 'invalid_account_assertion');
}
