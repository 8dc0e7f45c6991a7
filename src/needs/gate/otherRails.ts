// A second rail-entitled Gate tenant: cross-tenant rail checks (another
// partner's pay-out or signed quote) need one, or rail access (403) could be
// why the other partner is refused instead of tenancy (404).
import { defineNeed, type GateActor } from '../define.js';
import { leaseGate } from '../support/lease.js';

declare module '../../model/needs.js' {
  interface NeedRegistry {
    gateOtherRails: GateActor;
  }
}

const railEntitled = (p: { rails?: boolean }) => p.rails === true;

export default defineNeed({
  name: 'gateOtherRails',
  description: 'a second rail-entitled Gate partner (another tenant) for cross-tenant rail checks',
  missing: (profile) =>
    profile.gate.partners.filter(railEntitled).length > 1
      ? null
      : 'cross-tenant rail checks need two gate partners with rails: true (another rail-entitled tenant, so tenancy and not rail access is judged)',
  setup: async (env) => {
    // The owner first, so this lease is distinct from it.
    if (env.gateActors.size === 0) await env.get('gateRails');
    return leaseGate(env, 'second rail-entitled (another tenant)', railEntitled, { distinct: true });
  },
});
