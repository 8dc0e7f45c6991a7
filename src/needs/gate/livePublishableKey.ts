// A live Gate publishable key, with an allowed origin of its partner: a sandbox
// bootstrap with it is refused for the mode alone (403).
import type { GatePartner } from '../../profile/schema.js';
import { defineNeed } from '../define.js';

export interface LivePublishableKey {
  partner: GatePartner;
  key: string;
  /** An allowed origin of the partner, so the refusal is about the mode, never the origin. */
  origin: string;
}

declare module '../../model/needs.js' {
  interface NeedRegistry {
    gateLivePublishableKey: LivePublishableKey;
  }
}

const fits = (p: GatePartner) => !!p.livePublishableKey && !!p.allowedOrigins?.length;

export default defineNeed({
  name: 'gateLivePublishableKey',
  description: 'a live Gate publishable key of a partner with allowed origins (presented to the sandbox bootstrap)',
  missing: (profile) => (profile.gate.partners.some(fits) ? null : 'no gate partner declares livePublishableKey (with allowedOrigins)'),
  setup: (env) => {
    const p = env.profile.gate.partners.find(fits)!;
    return { partner: p, key: p.livePublishableKey!, origin: p.allowedOrigins![0]! };
  },
});
