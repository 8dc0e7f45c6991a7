// A pools partner in the operator-provisioned state suspended.
import { defineNeed, type PoolsActor } from '../define.js';
import { leasePools } from '../support/lease.js';

declare module '../../model/needs.js' {
  interface NeedRegistry {
    poolsSuspended: PoolsActor;
  }
}

export default defineNeed({
  name: 'poolsSuspended',
  description: 'a pools partner whose access is suspended (403 pool_access_suspended)',
  missing: (profile) => (profile.pools?.partners.some((p) => p.state === 'suspended') ? null : 'no pools partner has state suspended'),
  setup: (env) => leasePools(env, 'suspended', (p) => p.state === 'suspended'),
});
