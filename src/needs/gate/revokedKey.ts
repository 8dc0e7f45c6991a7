// A Gate secret key the target has revoked (403 forbidden).
import type { GatePartner } from '../../profile/schema.js';
import { defineNeed } from '../define.js';

export interface RevokedKey {
  partner: GatePartner;
  key: string;
}

declare module '../../model/needs.js' {
  interface NeedRegistry {
    gateRevokedKey: RevokedKey;
  }
}

export default defineNeed({
  name: 'gateRevokedKey',
  description: 'a revoked Gate secret key',
  missing: (profile) => (profile.gate.partners.some((p) => p.revokedSecretKey) ? null : 'no gate partner declares revokedSecretKey'),
  setup: (env) => {
    const p = env.profile.gate.partners.find((x) => x.revokedSecretKey)!;
    return { partner: p, key: p.revokedSecretKey! };
  },
});
