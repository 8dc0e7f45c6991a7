// A Gate publishable key the target has revoked, with an allowed origin of its
// partner: a bootstrap with it from that origin is refused for the key alone (403).
import type { GatePartner } from '../../profile/schema.js';
import { defineNeed } from '../define.js';

export interface RevokedPublishableKey {
  partner: GatePartner;
  key: string;
  /** An allowed origin of the partner, so the refusal is about the key, never the origin. */
  origin: string;
}

declare module '../../model/needs.js' {
  interface NeedRegistry {
    gateRevokedPublishableKey: RevokedPublishableKey;
  }
}

const fits = (p: GatePartner) => !!p.revokedPublishableKey && !!p.allowedOrigins?.length;

export default defineNeed({
  name: 'gateRevokedPublishableKey',
  description: 'a revoked Gate publishable key of a partner with allowed origins',
  missing: (profile) =>
    profile.gate.partners.some(fits)
      ? null
      : 'no gate partner declares revokedPublishableKey (with allowedOrigins, so the bootstrap refusal is about the key alone)',
  setup: (env) => {
    const p = env.profile.gate.partners.find(fits)!;
    return { partner: p, key: p.revokedPublishableKey!, origin: p.allowedOrigins![0]! };
  },
});
