// A sandbox Gate partner: the least busy one, preferring partners whose webhooks are not wired to the receiver.
import { defineNeed, type GateActor } from '../define.js';
import { leaseGate } from '../support/lease.js';
import { isWired } from '../support/webhooks.js';

declare module '../../model/needs.js' {
  interface NeedRegistry {
    gatePartner: GateActor;
  }
}

export default defineNeed({
  name: 'gatePartner',
  description: 'a sandbox Gate partner with a test secret key',
  missing: (profile) => (profile.gate.partners.length > 0 ? null : 'no gate partner is left for this suite: every one is reserved (reservedFor) for another'),
  setup: (env) => leaseGate(env, 'sandbox', () => true, { prefer: (p) => !isWired(env, 'gate', p) }),
});
