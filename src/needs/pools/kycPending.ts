// A pools partner in the operator-provisioned state kyc_pending.
import { defineNeed, type PoolsActor } from '../define.js';
import { leasePools } from '../support/lease.js';

declare module '../../model/needs.js' {
  interface NeedRegistry {
    poolsKycPending: PoolsActor;
  }
}

export default defineNeed({
  name: 'poolsKycPending',
  description: 'a pools partner whose KYC is not approved (403 kyc_not_approved)',
  missing: (profile) => (profile.pools?.partners.some((p) => p.state === 'kyc_pending') ? null : 'no pools partner has state kyc_pending'),
  setup: (env) => leasePools(env, 'kyc_pending', (p) => p.state === 'kyc_pending'),
});
