// A pool that exists but is outside the partner's allowed set (403
// pool_not_allowed), with a funded partner for whom it is outside: the
// partner's own allowedPools are honoured, never one global assumption.
import { defineNeed, type PoolsActor } from '../define.js';
import { fundedPools, leasePools } from '../support/lease.js';
import type { PoolsPartner, Profile } from '../../profile/schema.js';

export interface NotAllowedPool {
  actor: PoolsActor;
  pool: string;
}

declare module '../../model/needs.js' {
  interface NeedRegistry {
    poolsNotAllowedPool: NotAllowedPool;
  }
}

/** A partner to whom the pool is not allowed: its allowedPools (when declared) must not list it. */
const outside = (profile: Profile) => (p: PoolsPartner) => fundedPools(p) && !(p.allowedPools ?? []).includes(profile.pools!.pools.notAllowed!);

export default defineNeed({
  name: 'poolsNotAllowedPool',
  description: 'a pool outside a funded partner’s allowed set',
  missing: (profile) => {
    const p = profile.pools;
    if (!p?.pools.notAllowed) return 'pools.pools.notAllowed is missing (a pool that exists but is outside the partners’ allowed set)';
    if (!p.partners.some(outside(profile))) return `every funded pools partner lists ${p.pools.notAllowed} in allowedPools`;
    return null;
  },
  setup: async (env) => ({
    actor: await leasePools(env, `funded (not allowed ${env.profile.pools!.pools.notAllowed})`, outside(env.profile)),
    pool: env.profile.pools!.pools.notAllowed!,
  }),
});
