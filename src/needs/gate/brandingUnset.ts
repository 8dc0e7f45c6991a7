// A Gate partner that has never set its branding (profile brandingUnset): its GET /branding is the default
// branding, every token null. No other need leases it (src/needs/support/lease.ts), so nothing rampart sends
// ever sets one of its tokens.
import { defineNeed, type GateActor } from '../define.js';
import { leaseGate } from '../support/lease.js';

declare module '../../model/needs.js' {
  interface NeedRegistry {
    gateBrandingUnset: GateActor;
  }
}

export default defineNeed({
  name: 'gateBrandingUnset',
  description: 'a Gate partner that has never set its branding (brandingUnset), kept out of every other check',
  missing: (profile) =>
    profile.gate.partners.some((p) => p.brandingUnset)
      ? null
      : 'no gate partner declares brandingUnset: true (a partner that has never set its branding, whose GET /branding must read all five tokens null)',
  setup: (env) => leaseGate(env, 'never-branded (brandingUnset)', (p) => p.brandingUnset === true, { brandingUnset: true }),
});
