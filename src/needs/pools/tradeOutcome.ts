// The sandbox trigger that chooses the outcome the next settlement poll
// discovers ({{quoteId}}, {{outcome}} = settled | failed | released | returned).
import { defineNeed, type PoolsActor, type TriggerResult } from '../define.js';
import { runTrigger } from '../support/triggers.js';

export type TradeOutcome = (quoteId: string, outcome: 'settled' | 'failed' | 'released' | 'returned', owner: PoolsActor) => Promise<TriggerResult>;

declare module '../../model/needs.js' {
  interface NeedRegistry {
    poolsTradeOutcome: TradeOutcome;
  }
}

export default defineNeed({
  name: 'poolsTradeOutcome',
  description: 'a sandbox trigger that chooses the settlement outcome of a trade',
  missing: (profile) =>
    profile.pools?.triggers.tradeOutcome ? null : 'pools.triggers.tradeOutcome is missing (a sandbox control choosing the next poll outcome)',
  setup: (env) => (quoteId, outcome, owner) =>
    runTrigger(env, 'pools', 'tradeOutcome', env.profile.pools!.triggers.tradeOutcome!, owner, { quoteId, outcome, partner: owner.partner.name }),
});
