// A funded pools partner with off_ramp enabled for the partner, pool and environment.
import { defineNeed, type PoolsActor } from '../define.js';
import { leasePools } from '../support/lease.js';

declare module '../../model/needs.js' {
  interface NeedRegistry {
    poolsOffRamp: PoolsActor;
  }
}

export default defineNeed({
  name: 'poolsOffRamp',
  description: 'a funded pools partner with off_ramp enabled',
  missing: (profile) => (profile.pools?.partners.some((p) => p.state === 'funded' && p.offRamp) ? null : 'no funded pools partner has offRamp: true'),
  setup: (env) => leasePools(env, 'off_ramp-enabled', (p) => p.state === 'funded' && p.offRamp),
});
