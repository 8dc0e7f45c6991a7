// A pools partner with the balance gate off (balance null, funding 404).
import { defineNeed, type PoolsActor } from '../define.js';
import { leasePools } from '../support/lease.js';

declare module '../../model/needs.js' {
  interface NeedRegistry {
    poolsBalanceGateOff: PoolsActor;
  }
}

export default defineNeed({
  name: 'poolsBalanceGateOff',
  description: 'a pools partner with the balance gate off',
  missing: (profile) => (profile.pools?.partners.some((p) => p.balanceGate === false) ? null : 'no pools partner has balanceGate: false'),
  setup: (env) => leasePools(env, 'balance-gate-off', (p) => p.balanceGate === false),
});
