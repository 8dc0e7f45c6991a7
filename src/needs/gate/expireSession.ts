// Getting a session past expires_at without reading it: the profile's
// expireSession trigger, or else the target's declared session lifetime waited
// out in real time (timing.sessionLifetimeSeconds).
import { defineNeed, type GateActor } from '../define.js';
import { lifetimeUsable, QUICK_MAX_LIFETIME_WAIT_S } from '../support/lifetimes.js';
import { runTrigger } from '../support/triggers.js';

/** Make the session expire; resolves once expires_at is in the past. `how` tells the report which way was used. */
export type ExpireSession = ((session: { id: string; expires_at: string }, owner: GateActor) => Promise<void>) & { how: 'trigger' | 'lifetime' };

declare module '../../model/needs.js' {
  interface NeedRegistry {
    gateExpireSession: ExpireSession;
  }
}

export default defineNeed({
  name: 'gateExpireSession',
  description: 'a way to get a session past expires_at: a trigger, or a declared session lifetime',
  missing: (profile, at) => {
    if (profile.gate.triggers.expireSession) return null;
    if (lifetimeUsable(profile.timing.sessionLifetimeSeconds, at.depth)) return null;
    if (profile.timing.sessionLifetimeSeconds !== undefined)
      return `timing.sessionLifetimeSeconds is ${profile.timing.sessionLifetimeSeconds} s, above the ${QUICK_MAX_LIFETIME_WAIT_S} s a quick run waits: run --depth full, or add gate.triggers.expireSession`;
    return 'gate.triggers.expireSession is missing and timing.sessionLifetimeSeconds is not declared';
  },
  setup: (env) => {
    const tpl = env.profile.gate.triggers.expireSession;
    if (tpl) {
      const f = async (session: { id: string }, owner: GateActor) => {
        await runTrigger(env, 'gate', 'expireSession', tpl, owner, { sessionId: session.id, partner: owner.partner.name });
      };
      return Object.assign(f, { how: 'trigger' as const });
    }
    const lifetimeMs = env.profile.timing.sessionLifetimeSeconds! * 1000;
    env.budget.extend(lifetimeMs);
    const f = async (session: { id: string; expires_at: string }, owner: GateActor) => {
      // Past the session's own expires_at on the target's clock (a second of margin), never longer than the declared
      // lifetime from now (the session was made before now; the budget grants that much): a session whose expires_at
      // lies further ahead is judged as it stands. With the target's clock unknown, the whole lifetime.
      const exp = Date.parse(session.expires_at);
      const local = Number.isFinite(exp) ? owner.client.clock.localWhenPast(exp + 1000) : undefined;
      const whole = lifetimeMs + 1000;
      const ms = typeof local === 'number' ? Math.min(local - Date.now(), whole) : whole;
      if (ms > 0) await env.documentedWait(`the session lifetime to pass (${Math.round(ms / 1000)} s)`, new Promise((r) => setTimeout(r, ms)));
    };
    return Object.assign(f, { how: 'lifetime' as const });
  },
});
