// A Gate partner that can bootstrap the embed: a publishable key and the exact
// allowed origins (scheme://host[:port]) of its domains.
import { defineNeed, type GateActor } from '../define.js';
import { leaseGate } from '../support/lease.js';

export interface EmbedActor extends GateActor {
  publishableKey: string;
  /** The first allowed origin. */
  origin: string;
}

declare module '../../model/needs.js' {
  interface NeedRegistry {
    gateEmbed: EmbedActor;
  }
}

export const embedCapable = (p: { publishableKey?: string; allowedOrigins?: string[] }) => !!p.publishableKey && !!p.allowedOrigins?.length;

export default defineNeed({
  name: 'gateEmbed',
  description: 'a Gate partner with a publishable key and allowed origins',
  missing: (profile) =>
    profile.gate.partners.some((p) => embedCapable(p)) ? null : 'no gate partner has publishableKey and allowedOrigins (exact origins of its embed domains)',
  setup: async (env) => {
    const a = await leaseGate(env, 'embed-capable (publishableKey + allowedOrigins)', embedCapable);
    return { ...a, publishableKey: a.partner.publishableKey!, origin: a.partner.allowedOrigins![0]! };
  },
});
