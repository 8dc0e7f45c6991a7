// A partner's live secret key rampart may create objects with on the production base: only where the profile
// allows live writes (gate.liveWrites, off by default), since on a real production target that is a live object.
import type { ApiClient } from '../../client/types.js';
import type { GatePartner } from '../../profile/schema.js';
import { defineNeed } from '../define.js';

export interface LiveWrites {
  partner: GatePartner;
  /** A client on the production base whose secret key is the partner's live key. */
  client: ApiClient;
}

declare module '../../model/needs.js' {
  interface NeedRegistry {
    gateLiveWrites: LiveWrites;
  }
}

export default defineNeed({
  name: 'gateLiveWrites',
  description: "a partner's live secret key rampart may create a session with on the production base (gate.liveWrites)",
  missing: (profile) => {
    if (!profile.gate.liveWrites)
      return 'gate.liveWrites is off (the default): rampart creates nothing with a live key unless the profile says live writes are allowed on this target';
    if (!profile.gate.baseUrls.production) return 'the profile has no gate.baseUrls.production';
    return profile.gate.partners.some((p) => p.liveSecretKey) ? null : 'no gate partner declares liveSecretKey';
  },
  setup: (env) => {
    const partner = env.profile.gate.partners.find((p) => p.liveSecretKey)!;
    return { partner, client: env.client('gate', env.profile.gate.baseUrls.production!, `${partner.name} (live)`, partner.liveSecretKey) };
  },
});
