// Another Gate tenant: a partner other than the one the check already holds, for cross-tenant checks (404, never 403).
import { defineNeed, type GateActor } from '../define.js';
import { leaseGate } from '../support/lease.js';
import { isWired } from '../support/webhooks.js';

declare module '../../model/needs.js' {
  interface NeedRegistry {
    gateOtherTenant: GateActor;
  }
}

export default defineNeed({
  name: 'gateOtherTenant',
  description: 'a second Gate partner (another tenant) for cross-tenant checks',
  missing: (profile) =>
    profile.gate.partners.filter(() => true).length > 1
      ? null
      : 'the profile has only one gate partner: cross-tenant checks need a second one under gate.partners',
  setup: async (env) => {
    if (env.gateActors.size === 0) await env.get('gatePartner');
    return leaseGate(env, 'second (another tenant)', () => true, { distinct: true, prefer: (p) => !isWired(env, 'gate', p) });
  },
});
