// Another rail-entitled Gate tenant: a cross-tenant rail read must be refused
// for tenancy (404), and a second partner without rails could be refused for
// rail access (403) before tenancy is ever judged.
import { defineNeed, type GateActor } from '../define.js';
import { leaseGate } from '../support/lease.js';

declare module '../../model/needs.js' {
  interface NeedRegistry {
    gateOtherRailsTenant: GateActor;
  }
}

export default defineNeed({
  name: 'gateOtherRailsTenant',
  description: 'a second rail-entitled Gate partner (another tenant) for cross-tenant rail checks',
  requires: ['gateRails'],
  missing: (profile) =>
    profile.gate.partners.filter((p) => p.rails === true).length > 1
      ? null
      : 'cross-tenant rail checks need two gate partners with rails: true (the second one shows tenancy, not rail access, decides the answer)',
  setup: (env) => leaseGate(env, 'second rail-entitled (another tenant)', (p) => p.rails === true, { distinct: true }),
});
