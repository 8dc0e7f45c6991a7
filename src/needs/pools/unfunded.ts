// A pools partner in the operator-provisioned state unfunded.
import { defineNeed, type PoolsActor } from '../define.js';
import { leasePools } from '../support/lease.js';

declare module '../../model/needs.js' {
  interface NeedRegistry {
    poolsUnfunded: PoolsActor;
  }
}

export default defineNeed({
  name: 'poolsUnfunded',
  description: 'a pools partner whose balance cannot reserve a trade (402)',
  missing: (profile) => (profile.pools?.partners.some((p) => p.state === 'unfunded') ? null : 'no pools partner has state unfunded'),
  setup: (env) => leasePools(env, 'unfunded', (p) => p.state === 'unfunded'),
});
