// A sandbox Gate partner held by this check alone: for checks that change a
// partner-wide setting (branding) and judge it, so no other check's change to
// the same partner can race with theirs.
import { defineNeed, type GateActor } from '../define.js';
import { leaseGate } from '../support/lease.js';
import { isWired } from '../support/webhooks.js';

declare module '../../model/needs.js' {
  interface NeedRegistry {
    gateExclusive: GateActor;
  }
}

export default defineNeed({
  name: 'gateExclusive',
  description: 'a sandbox Gate partner held by this check alone',
  exclusive: true,
  missing: (profile) => (profile.gate.partners.length > 0 ? null : 'no gate partner is left for this suite: every one is reserved (reservedFor) for another'),
  setup: (env) => leaseGate(env, 'sandbox (held alone)', () => true, { exclusive: true, prefer: (p) => !isWired(env, 'gate', p) }),
});
