// A live Gate secret key (mode must match the environment: refused on the sandbox).
import type { GatePartner } from '../../profile/schema.js';
import { defineNeed } from '../define.js';

export interface LiveKey {
  partner: GatePartner;
  key: string;
}

declare module '../../model/needs.js' {
  interface NeedRegistry {
    gateLiveKey: LiveKey;
  }
}

export default defineNeed({
  name: 'gateLiveKey',
  description: 'a live Gate secret key (presented to the sandbox for the mode-mismatch check)',
  missing: (profile) => (profile.gate.partners.some((p) => p.liveSecretKey) ? null : 'no gate partner declares liveSecretKey'),
  setup: (env) => {
    const p = env.profile.gate.partners.find((x) => x.liveSecretKey)!;
    return { partner: p, key: p.liveSecretKey! };
  },
});
