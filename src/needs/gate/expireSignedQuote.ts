// Getting a signed quote expired: the profile's expireSignedQuote trigger, or
// else the target's declared signed-quote lifetime waited out in real time
// (timing.signedQuoteLifetimeSeconds; the lifetime itself is not shown in the spec).
import { defineNeed, type GateActor } from '../define.js';
import { lifetimeUsable, QUICK_MAX_LIFETIME_WAIT_S } from '../support/lifetimes.js';
import { runTrigger } from '../support/triggers.js';

export type ExpireSignedQuote = ((quote: { id: string; lockedAt: number }, owner: GateActor) => Promise<void>) & { how: 'trigger' | 'lifetime' };

declare module '../../model/needs.js' {
  interface NeedRegistry {
    gateExpireSignedQuote: ExpireSignedQuote;
  }
}

export default defineNeed({
  name: 'gateExpireSignedQuote',
  description: 'a way to get a signed quote expired: a trigger, or a declared signed-quote lifetime',
  missing: (profile, at) => {
    if (profile.gate.triggers.expireSignedQuote) return null;
    if (lifetimeUsable(profile.timing.signedQuoteLifetimeSeconds, at.depth)) return null;
    if (profile.timing.signedQuoteLifetimeSeconds !== undefined)
      return `timing.signedQuoteLifetimeSeconds is ${profile.timing.signedQuoteLifetimeSeconds} s, above the ${QUICK_MAX_LIFETIME_WAIT_S} s a quick run waits: run --depth full, or add gate.triggers.expireSignedQuote`;
    return 'gate.triggers.expireSignedQuote is missing and timing.signedQuoteLifetimeSeconds is not declared';
  },
  setup: (env) => {
    const tpl = env.profile.gate.triggers.expireSignedQuote;
    if (tpl) {
      const f = async (quote: { id: string }, owner: GateActor) => {
        await runTrigger(env, 'gate', 'expireSignedQuote', tpl, owner, { quoteId: quote.id, partner: owner.partner.name });
      };
      return Object.assign(f, { how: 'trigger' as const });
    }
    const lifetimeMs = env.profile.timing.signedQuoteLifetimeSeconds! * 1000;
    env.budget.extend(lifetimeMs);
    // Counted from the lock's answer: the target made the quote before answering (never from when the lock was queued).
    const f = async (quote: { lockedAt: number }) => {
      const ms = quote.lockedAt + lifetimeMs + 1000 - Date.now();
      if (ms > 0) await env.documentedWait(`the signed quote lifetime to pass (${Math.round(ms / 1000)} s)`, new Promise((r) => setTimeout(r, ms)));
    };
    return Object.assign(f, { how: 'lifetime' as const });
  },
});
