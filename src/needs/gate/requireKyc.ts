// The sandbox trigger that blocks a session pending KYC (kyc.required): no
// documented request does it, so the profile gives the control ({{sessionId}}).
import { defineNeed, type GateActor, type TriggerResult } from '../define.js';
import { runTrigger } from '../support/triggers.js';

export type RequireKyc = (sessionId: string, owner: GateActor) => Promise<TriggerResult>;

declare module '../../model/needs.js' {
  interface NeedRegistry {
    gateRequireKyc: RequireKyc;
  }
}

export default defineNeed({
  name: 'gateRequireKyc',
  description: 'a sandbox trigger that blocks a session pending KYC',
  missing: (profile) => (profile.gate.triggers.requireKyc ? null : 'gate.triggers.requireKyc is missing (a sandbox control that blocks a session pending KYC; {{sessionId}} is filled in)'),
  setup: (env) => (sessionId, owner) => runTrigger(env, 'gate', 'requireKyc', env.profile.gate.triggers.requireKyc!, owner, { sessionId, partner: owner.partner.name }),
});
