// A pools partner in the operator-provisioned state not_enabled.
import { defineNeed, type PoolsActor } from '../define.js';
import { leasePools } from '../support/lease.js';

declare module '../../model/needs.js' {
  interface NeedRegistry {
    poolsNotEnabled: PoolsActor;
  }
}

export default defineNeed({
  name: 'poolsNotEnabled',
  description: 'a pools partner for whom pools are not enabled (403 pools_not_enabled)',
  missing: (profile) => (profile.pools?.partners.some((p) => p.state === 'not_enabled') ? null : 'no pools partner has state not_enabled'),
  setup: (env) => leasePools(env, 'not_enabled', (p) => p.state === 'not_enabled'),
});
