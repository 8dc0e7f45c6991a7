// A pools partner whose funding IBAN the operator has not provisioned yet
// (ibanProvisioned: false), with the balance gate on so funding answers at all.
import { defineNeed, type PoolsActor } from '../define.js';
import { leasePools } from '../support/lease.js';

declare module '../../model/needs.js' {
  interface NeedRegistry {
    poolsIbanUnprovisioned: PoolsActor;
  }
}

const fits = (p: { ibanProvisioned?: boolean; balanceGate: boolean }) => p.ibanProvisioned === false && p.balanceGate;

export default defineNeed({
  name: 'poolsIbanUnprovisioned',
  description: 'a pools partner whose funding IBAN is not provisioned (funding iban null)',
  missing: (profile) =>
    profile.pools?.partners.some(fits)
      ? null
      : 'no pools partner declares ibanProvisioned: false (a partner whose funding IBAN is not provisioned yet, with the balance gate on)',
  setup: (env) => leasePools(env, 'IBAN-unprovisioned', fits),
});
