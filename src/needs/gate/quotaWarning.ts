// The sandbox trigger that brings a partner near a usage quota (partner.quota.warning):
// quotas and their values are not documented, so only a control reaches the event.
import { defineNeed, type GateActor, type TriggerResult } from '../define.js';
import { runTrigger } from '../support/triggers.js';

export type QuotaWarning = (owner: GateActor) => Promise<TriggerResult>;

declare module '../../model/needs.js' {
  interface NeedRegistry {
    gateQuotaWarning: QuotaWarning;
  }
}

export default defineNeed({
  name: 'gateQuotaWarning',
  description: 'a sandbox trigger that brings the partner near a usage quota',
  missing: (profile) =>
    profile.gate.triggers.quotaWarning
      ? null
      : 'gate.triggers.quotaWarning is missing (a sandbox control that brings the partner near a usage quota; {{partner}} is filled in)',
  setup: (env) => (owner) => runTrigger(env, 'gate', 'quotaWarning', env.profile.gate.triggers.quotaWarning!, owner, { partner: owner.partner.name }),
});
