// A live pools secret key (the key mode must match the environment: refused on the sandbox).
import type { PoolsPartner } from '../../profile/schema.js';
import { defineNeed } from '../define.js';

export interface PoolsLiveKey {
  partner: PoolsPartner;
  key: string;
}

declare module '../../model/needs.js' {
  interface NeedRegistry {
    poolsLiveKey: PoolsLiveKey;
  }
}

export default defineNeed({
  name: 'poolsLiveKey',
  description: 'a live pools secret key (presented to the sandbox for the mode-mismatch check)',
  missing: (profile) => (profile.pools?.partners.some((p) => p.liveSecretKey) ? null : 'no pools partner declares liveSecretKey'),
  setup: (env) => {
    const p = env.profile.pools!.partners.find((x) => x.liveSecretKey)!;
    return { partner: p, key: p.liveSecretKey! };
  },
});
