// A KYC-trusted Gate partner and a kyc_package the target accepts from it (the
// package's shape is not shown in the spec, so the profile supplies one).
import { defineNeed, type GateActor } from '../define.js';
import { leaseGate } from '../support/lease.js';

export interface KycTrustedActor extends GateActor {
  kycPackage: unknown;
}

declare module '../../model/needs.js' {
  interface NeedRegistry {
    gateKycTrusted: KycTrustedActor;
  }
}

export default defineNeed({
  name: 'gateKycTrusted',
  description: 'a KYC-trusted Gate partner and a kyc_package it may send',
  missing: (profile) => {
    if (!profile.gate.partners.some((p) => p.kycTrusted === true)) return 'no gate partner has kycTrusted: true';
    if (profile.gate.kycPackage === undefined) return 'gate.kycPackage is missing (a package the target accepts from a KYC-trusted partner)';
    return null;
  },
  setup: async (env) => ({ ...(await leaseGate(env, 'KYC-trusted', (p) => p.kycTrusted === true)), kycPackage: env.profile.gate.kycPackage }),
});
