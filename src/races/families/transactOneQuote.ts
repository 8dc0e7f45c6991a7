// Pools: one firm quote transacted at once under two Idempotency-Keys, or the same transact three times under one
// key and body. A quote is single use and transact idempotent on quoteId: in a serial order the first makes the
// trade, and the others answer it (the same transactId) — or, under another key, the state table's 409: both
// readings are tried. After the burst the quote has one trade.
import type { RequirementId } from '../../model/catalogue/index.js';
import { TRANSACT_RELATIONS } from '../../model/schemas/pools/resources.js';
import { defineFamily, familyFile, type AnswerRule, type BurstRequest, type RaceFamily, type RaceObjects, type RoundContext } from '../family.js';
import { mainPool, makeQuote, quoteAndItsTrades, transactRequest } from './poolsSteps.js';

type Objects = RaceObjects & { pool: string; quote: string };

function oneQuote(sameKey: boolean, requirement: RequirementId): RaceFamily {
  const rule: AnswerRule = {
    outcome: { requirement: { '2xx': requirement, 409: requirement }, documentedCodes: ['idempotency-conflict'] },
    relations: TRANSACT_RELATIONS,
    requirementOf: { transactId: requirement },
  };
  const n = sameKey ? 3 : 2;
  const burstOf = (o: Objects, round: RoundContext): BurstRequest[] =>
    Array.from({ length: n }, (_, i) => ({
      service: 'pools' as const,
      label: `POST /pools/{id}/transact (${sameKey ? `the one key, send ${i + 1}` : `key ${i + 1}`})`,
      request: transactRequest(o.pool, o.quote, round.keys[sameKey ? 0 : i]!),
    }));
  return defineFamily<Objects>({
    id: sameKey ? 'transact-same-key' : 'transact-one-quote',
    file: familyFile(import.meta.url),
    name: sameKey
      ? 'races, pools: one transact key and body sent three times at once makes one trade, each answer that trade'
      : 'races, pools: two transacts of one firm quote at once (two keys) make one trade',
    service: 'pools',
    requirements: [requirement],
    partner: { pools: 'poolsPartner' },
    cost: { pools: 3 + n },
    // Another key on a consumed quote: the existing trade (endpoint rule 3) or 409 (the state table); a replay: the
    // original answer or the trade as it is now.
    readings: sameKey ? ['pools.transact.replay'] : ['pools.transact.consumedNewKey'],
    async setup(side) {
      const quote = await makeQuote(side);
      return { refs: { quote }, pool: mainPool(side), quote };
    },
    burst: burstOf,
    rule: () => rule,
    after: (side, o) => quoteAndItsTrades(side, o.quote, 'POOLS-TX-QUOTE-CONSUMED', requirement),
  });
}

export const transactOneQuote = oneQuote(false, 'POOLS-TX-CONCURRENT-SINGLE-USE');
export const transactSameKey = oneQuote(true, 'POOLS-TX-REPLAY-SAME-TRADE');
