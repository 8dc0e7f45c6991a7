// A funded pools partner with a rolling 24 h notional velocity cap, held exclusively (its cap is spent by the
// check). Never one whose velocity window rampart moves (velocityClock): its trades' real age would mislead.
import { defineNeed, type PoolsActor } from '../define.js';
import type { PoolsPartner } from '../../profile/schema.js';
import { leasePools } from '../support/lease.js';

declare module '../../model/needs.js' {
  interface NeedRegistry {
    poolsVelocityCapped: PoolsActor;
  }
}

const capped = (p: PoolsPartner) => p.state === 'funded' && !!p.velocityCap && !p.velocityClock;

export default defineNeed({
  name: 'poolsVelocityCapped',
  exclusive: true,
  description: 'a funded pools partner with a velocity cap',
  missing: (profile) => (profile.pools?.partners.some(capped) ? null : 'no funded pools partner declares velocityCap (without velocityClock)'),
  setup: (env) => leasePools(env, 'velocity-capped', capped, { exclusive: true }),
});
