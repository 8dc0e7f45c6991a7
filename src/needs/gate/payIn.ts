// The body of a pay-in redeeming a signed quote (POST /rails/pay_ins): not shown
// in the spec, so the profile gives it with {{quoteId}} (and {{sessionId}}).
import { defineNeed } from '../define.js';
import { fillDeep } from '../support/triggers.js';

export type PayInBody = (vars: { quoteId: string; sessionId?: string }) => Record<string, unknown>;

declare module '../../model/needs.js' {
  interface NeedRegistry {
    gatePayIn: PayInBody;
  }
}

export default defineNeed({
  name: 'gatePayIn',
  description: 'a pay-in body for redeeming a signed quote',
  missing: (profile) => (profile.gate.triggers.payInBody ? null : 'gate.triggers.payInBody is missing (the pay-in request shape is not shown in the spec)'),
  setup: (env) => (vars) => {
    const v: Record<string, string> = { quoteId: vars.quoteId };
    if (vars.sessionId) v.sessionId = vars.sessionId;
    return fillDeep(env.profile.gate.triggers.payInBody, v) as Record<string, unknown>;
  },
});
