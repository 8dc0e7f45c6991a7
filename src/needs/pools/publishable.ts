// A pools partner with a publishable key (usable only on GET /pools).
import { defineNeed, type PoolsActor } from '../define.js';
import { leasePools } from '../support/lease.js';

declare module '../../model/needs.js' {
  interface NeedRegistry {
    poolsPublishable: PoolsActor;
  }
}

export default defineNeed({
  name: 'poolsPublishable',
  description: 'a pools partner with a publishable key',
  missing: (profile) => (profile.pools?.partners.some((p) => !!p.publishableKey) ? null : 'no pools partner has publishableKey'),
  setup: (env) => leasePools(env, 'publishable-key', (p) => !!p.publishableKey),
});
