// Locking a signed one-time quote for a session (POST /quotes): its request and
// response are not shown in the spec, so the profile's createSignedQuote
// template says how, and which fields hold the id and fiat_pay_or_receive.
import type { Exchange } from '../../client/types.js';
import { defineNeed, type GateActor } from '../define.js';
import { runTrigger } from '../support/triggers.js';
import { CheckUnverified } from '../../runner/expect.js';

export interface SignedQuote {
  id: string;
  /** The fee-inclusive amount the customer pays or receives, when the template extracts it. */
  fiatPayOrReceive?: string;
  exchange: Exchange;
}

export type LockSignedQuote = (
  vars: { sessionId: string; side?: 'on_ramp' | 'off_ramp'; [k: string]: string | undefined },
  owner: GateActor,
) => Promise<SignedQuote>;

declare module '../../model/needs.js' {
  interface NeedRegistry {
    gateSignedQuote: LockSignedQuote;
  }
}

export default defineNeed({
  name: 'gateSignedQuote',
  description: 'a way to lock a signed quote for a session (gate.triggers.createSignedQuote)',
  missing: (profile) =>
    profile.gate.triggers.createSignedQuote
      ? null
      : 'gate.triggers.createSignedQuote is missing (POST /quotes: the body is not shown in the spec; give the template and extract id and fiat_pay_or_receive)',
  setup: (env) => async (vars, owner) => {
    const tpl = env.profile.gate.triggers.createSignedQuote!;
    const filled: Record<string, string> = { side: 'off_ramp', partner: owner.partner.name };
    for (const [k, v] of Object.entries(vars)) if (v !== undefined) filled[k] = v;
    const res = await runTrigger(env, 'gate', 'createSignedQuote', tpl, owner, filled);
    const id = res.values.id;
    if (typeof id !== 'string' || !id)
      throw new CheckUnverified(
        `gate.triggers.createSignedQuote answered ${res.exchange.status} but its extract.id found no quote id — fix the template's extract`,
        res.exchange,
      );
    const fpr = res.values.fiat_pay_or_receive;
    return { id, ...(typeof fpr === 'string' ? { fiatPayOrReceive: fpr } : {}), exchange: res.exchange };
  },
});
