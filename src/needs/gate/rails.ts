// A Gate partner with rail entitlement (rails: true).
import { defineNeed, type GateActor } from '../define.js';
import { leaseGate } from '../support/lease.js';

declare module '../../model/needs.js' {
  interface NeedRegistry {
    gateRails: GateActor;
  }
}

export default defineNeed({
  name: 'gateRails',
  description: 'a Gate partner with rail entitlement',
  missing: (profile) => (profile.gate.partners.some((p) => p.rails === true) ? null : 'no gate partner has rails: true (rail entitlement)'),
  setup: (env) => leaseGate(env, 'rail-entitled', (p) => p.rails === true),
});
