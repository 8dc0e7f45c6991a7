// A funded pools partner with a rolling 24 h notional velocity cap, held exclusively (its cap is spent by the check).
import { defineNeed, type PoolsActor } from '../define.js';
import { leasePools } from '../support/lease.js';

declare module '../../model/needs.js' {
  interface NeedRegistry {
    poolsVelocityCapped: PoolsActor;
  }
}

export default defineNeed({
  name: 'poolsVelocityCapped',
  exclusive: true,
  description: 'a funded pools partner with a velocity cap',
  missing: (profile) => (profile.pools?.partners.some((p) => p.state === 'funded' && !!p.velocityCap) ? null : 'no funded pools partner declares velocityCap'),
  setup: (env) => leasePools(env, 'velocity-capped', (p) => p.state === 'funded' && !!p.velocityCap, { exclusive: true }),
});
