// A Gate partner known not to have rail entitlement (rails: false).
import { defineNeed, type GateActor } from '../define.js';
import { leaseGate } from '../support/lease.js';

declare module '../../model/needs.js' {
  interface NeedRegistry {
    gateNoRails: GateActor;
  }
}

export default defineNeed({
  name: 'gateNoRails',
  description: 'a Gate partner known not to have rail entitlement',
  missing: (profile) => (profile.gate.partners.some((p) => p.rails === false) ? null : 'no gate partner has rails: false (known not rail-entitled)'),
  setup: (env) => leaseGate(env, 'non-rail', (p) => p.rails === false),
});
