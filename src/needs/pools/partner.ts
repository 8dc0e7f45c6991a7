// A funded pools partner (no velocity cap, balance gate on): the one most checks trade with.
import { defineNeed, type PoolsActor } from '../define.js';
import { fundedPools, leasePools } from '../support/lease.js';

declare module '../../model/needs.js' {
  interface NeedRegistry {
    poolsPartner: PoolsActor;
  }
}

export default defineNeed({
  name: 'poolsPartner',
  description: 'a funded pools partner without a velocity cap and with the balance gate on',
  missing: (profile) =>
    profile.pools?.partners.some(fundedPools)
      ? null
      : profile.pools
        ? 'no pools partner is funded without a velocity cap and with the balance gate on (state: funded)'
        : 'the profile has no pools section',
  setup: (env) => leasePools(env, 'funded', fundedPools),
});
