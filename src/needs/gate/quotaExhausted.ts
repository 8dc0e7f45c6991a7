// The sandbox trigger that exhausts a usage quota of a partner (partner.quota.exhausted):
// quotas and their values are not documented, so only a control reaches the event.
import { defineNeed, type GateActor, type TriggerResult } from '../define.js';
import { runTrigger } from '../support/triggers.js';

export type QuotaExhausted = (owner: GateActor) => Promise<TriggerResult>;

declare module '../../model/needs.js' {
  interface NeedRegistry {
    gateQuotaExhausted: QuotaExhausted;
  }
}

export default defineNeed({
  name: 'gateQuotaExhausted',
  description: 'a sandbox trigger that exhausts a usage quota of the partner',
  missing: (profile) =>
    profile.gate.triggers.quotaExhausted
      ? null
      : 'gate.triggers.quotaExhausted is missing (a sandbox control that exhausts a usage quota of the partner; {{partner}} is filled in)',
  setup: (env) => (owner) => runTrigger(env, 'gate', 'quotaExhausted', env.profile.gate.triggers.quotaExhausted!, owner, { partner: owner.partner.name }),
});
