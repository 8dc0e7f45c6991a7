// A Gate partner known not to be KYC-trusted (kycTrusted: false): its kyc_package is not accepted.
import { defineNeed, type GateActor } from '../define.js';
import { leaseGate } from '../support/lease.js';

declare module '../../model/needs.js' {
  interface NeedRegistry {
    gateKycUntrusted: GateActor;
  }
}

export default defineNeed({
  name: 'gateKycUntrusted',
  description: 'a Gate partner known not to be KYC-trusted',
  missing: (profile) => (profile.gate.partners.some((p) => p.kycTrusted === false) ? null : 'no gate partner has kycTrusted: false'),
  setup: (env) => leaseGate(env, 'KYC-untrusted', (p) => p.kycTrusted === false),
});
