// The sandbox trigger that credits a partner's pre-funded balance as a bank
// pay-in would (a payin_credit in the ledger): only a bank transfer could
// cause it otherwise.
import { defineNeed, type PoolsActor, type TriggerResult } from '../define.js';
import { runTrigger } from '../support/triggers.js';

export type CreditBalance = (amount: string, actor: PoolsActor) => Promise<TriggerResult>;

declare module '../../model/needs.js' {
  interface NeedRegistry {
    poolsBalanceCredit: CreditBalance;
  }
}

export default defineNeed({
  name: 'poolsBalanceCredit',
  description: 'a sandbox trigger that credits a partner balance as a pay-in (payin_credit)',
  missing: (profile) =>
    profile.pools?.triggers.balanceCredit
      ? null
      : 'pools.triggers.balanceCredit is missing (a sandbox control crediting the partner balance as a pay-in: {{amount}}, {{currency}})',
  setup: (env) => (amount, actor) =>
    runTrigger(env, 'pools', 'balanceCredit', env.profile.pools!.triggers.balanceCredit!, actor, { amount, currency: 'EUR', partner: actor.partner.name }),
});
