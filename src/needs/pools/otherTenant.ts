// Another funded pools tenant, distinct from the partner the check holds.
import { defineNeed, type PoolsActor } from '../define.js';
import { fundedPools, leasePools } from '../support/lease.js';

declare module '../../model/needs.js' {
  interface NeedRegistry {
    poolsOtherTenant: PoolsActor;
  }
}

export default defineNeed({
  name: 'poolsOtherTenant',
  description: 'a second funded pools partner (another tenant)',
  missing: (profile) =>
    (profile.pools?.partners.filter(fundedPools).length ?? 0) > 1
      ? null
      : 'the profile has fewer than two funded pools partners: cross-tenant checks need a second',
  setup: async (env) => {
    if (env.poolsActors.size === 0) await env.get('poolsPartner');
    return leasePools(env, 'second funded', fundedPools, { distinct: true });
  },
});
