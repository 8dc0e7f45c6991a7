// A pools secret key the target has revoked (an invalid key: 401).
import type { PoolsPartner } from '../../profile/schema.js';
import { defineNeed } from '../define.js';

export interface PoolsRevokedKey {
  partner: PoolsPartner;
  key: string;
}

declare module '../../model/needs.js' {
  interface NeedRegistry {
    poolsRevokedKey: PoolsRevokedKey;
  }
}

export default defineNeed({
  name: 'poolsRevokedKey',
  description: 'a revoked pools secret key',
  missing: (profile) => (profile.pools?.partners.some((p) => p.revokedSecretKey) ? null : 'no pools partner declares revokedSecretKey'),
  setup: (env) => {
    const p = env.profile.pools!.partners.find((x) => x.revokedSecretKey)!;
    return { partner: p, key: p.revokedSecretKey! };
  },
});
