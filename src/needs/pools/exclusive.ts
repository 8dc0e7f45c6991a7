// A funded pools partner no other check uses while this one runs (exact balance and ledger accounting).
import { defineNeed, type PoolsActor } from '../define.js';
import { fundedPools, leasePools } from '../support/lease.js';

declare module '../../model/needs.js' {
  interface NeedRegistry {
    poolsExclusive: PoolsActor;
  }
}

export default defineNeed({
  name: 'poolsExclusive',
  exclusive: true,
  description: 'a funded pools partner held exclusively by the check',
  missing: (profile) => (profile.pools?.partners.some(fundedPools) ? null : 'no funded pools partner (state: funded, no velocityCap, balanceGate on)'),
  setup: (env) => leasePools(env, 'funded', fundedPools, { exclusive: true }),
});
