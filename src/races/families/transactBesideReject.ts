// Pools: a transact beside a reject of one firm quote. In a serial order one of them finds the quote active — a
// trade reserved, or the quote rejected — and the other finds it terminal: 409 (a transact of a rejected quote, a
// reject of a consumed one). A reject that checks the quote active and marks it rejected a round trip later lets a
// transact reserve a trade on it in between: both succeed.
import { STORED_QUOTE_RELATIONS, TRANSACT_RELATIONS } from '../../model/schemas/pools/resources.js';
import { defineFamily, familyFile, type AnswerRule, type RaceObjects } from '../family.js';
import { mainPool, makeQuote, quoteAndItsTrades, quotePath, transactRequest } from './poolsSteps.js';

type Objects = RaceObjects & { pool: string; quote: string };

const RULES: AnswerRule[] = [
  { outcome: { requirement: { '2xx': 'POOLS-TX-RESERVED', 409: 'POOLS-SQ-TRANSACT-REJECTED-409' } }, relations: TRANSACT_RELATIONS },
  {
    outcome: { requirement: { '2xx': 'POOLS-SQ-REJECT', 409: 'POOLS-SQ-REJECT-TERMINAL-409' } },
    relations: STORED_QUOTE_RELATIONS,
    requirementOf: { status: 'POOLS-SQ-REJECT' },
  },
];

export default defineFamily<Objects>({
  id: 'transact-beside-reject',
  file: familyFile(import.meta.url),
  name: 'races, pools: a transact beside a reject of one firm quote — one of them takes the quote, the other is refused 409',
  service: 'pools',
  requirements: ['POOLS-SQ-REJECT-TERMINAL-409', 'POOLS-SQ-TRANSACT-REJECTED-409'],
  partner: { pools: 'poolsPartner' },
  cost: { pools: 5 },
  async setup(side) {
    const quote = await makeQuote(side);
    return { refs: { quote }, pool: mainPool(side), quote };
  },
  burst(o, round) {
    return [
      { service: 'pools', label: 'POST /pools/{id}/transact', request: transactRequest(o.pool, o.quote, round.keys[0]!) },
      { service: 'pools', label: 'POST /pools/quotes/{quoteId}/reject', request: { method: 'POST', path: quotePath(o.quote, '/reject') } },
    ];
  },
  rule: (i) => RULES[i]!,
  after: (side, o) => quoteAndItsTrades(side, o.quote, 'POOLS-SQ-PRECEDENCE', 'POOLS-SQ-TRANSACT-REJECTED-409'),
});
