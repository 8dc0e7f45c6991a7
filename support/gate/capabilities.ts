// Capability helpers shared by the capabilities and eligibility suites.
import { randomInt } from 'node:crypto';
import type { Exchange } from '../../src/client/types.js';
import type { GateActor } from '../../src/needs/define.js';
import type { CheckTools, RequirementId } from '../../src/runner/check.js';
import { expect2xx } from '../expect.js';

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/**
 * GET /capabilities/assets as the run's checks share it: the list is the target's configuration, the same for
 * every check that reads it, so it is fetched once per partner and each check judges that one answer.
 */
export function sharedAssets(t: CheckTools, actor: GateActor): Promise<Exchange> {
  return t.shared(`GET /capabilities/assets of gate partner ${actor.partner.name}`, () => actor.client.get('/capabilities/assets'));
}
const TRIES = 5;

/**
 * An asset symbol in the usual form (five capital letters) that the target's
 * assets list does not name: an unknown symbol, not a malformed one.
 */
export async function unlistedSymbol(t: CheckTools, actor: GateActor, requirement: RequirementId): Promise<string> {
  const ex = expect2xx(t, await sharedAssets(t, actor), requirement, 'GET /capabilities/assets (to pick a symbol it does not name)');
  const listed = new Set(((ex.json?.data ?? []) as { symbol?: unknown }[]).map((a) => String(a?.symbol ?? '').toUpperCase()));
  for (let i = 0; i < TRIES; i++) {
    const s = Array.from({ length: 5 }, () => LETTERS[randomInt(LETTERS.length)]).join('');
    if (!listed.has(s)) return s;
  }
  return t.unverified(`no five-letter symbol outside the assets list was found in ${TRIES} tries`);
}
