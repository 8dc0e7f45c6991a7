// The sandbox trigger that blocks a session pending KYC (as a real user's KYC
// hold would), so the target fires kyc.required.
import { defineNeed } from '../define.js';
import { sessionTrigger, sessionTriggerMissing, type SessionTrigger } from '../support/sessionTrigger.js';

declare module '../../model/needs.js' {
  interface NeedRegistry {
    gateRequireKyc: SessionTrigger;
  }
}

export default defineNeed({
  name: 'gateRequireKyc',
  description: 'a sandbox trigger that blocks a session pending KYC (kyc.required)',
  missing: (profile) => sessionTriggerMissing(profile, 'requireKyc', 'blocks a session pending KYC, so the target fires kyc.required'),
  setup: (env) => sessionTrigger(env, 'requireKyc'),
});
