// A funded pools partner without off_ramp (transact of a sell gives 501).
import { defineNeed, type PoolsActor } from '../define.js';
import { leasePools } from '../support/lease.js';

declare module '../../model/needs.js' {
  interface NeedRegistry {
    poolsNoOffRamp: PoolsActor;
  }
}

export default defineNeed({
  name: 'poolsNoOffRamp',
  description: 'a funded pools partner without off_ramp',
  missing: (profile) =>
    profile.pools?.partners.some((p) => p.state === 'funded' && !p.offRamp && !p.velocityCap) ? null : 'no funded pools partner has offRamp: false',
  setup: (env) => leasePools(env, 'funded without off_ramp', (p) => p.state === 'funded' && !p.offRamp && !p.velocityCap),
});
