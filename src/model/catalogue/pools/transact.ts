// Pools transact (one-time, idempotent) and the status poll that advances settlement.
import { defineArea } from '../define.js';

const area = defineArea({
  service: 'pools',
  section: 'Endpoints > Quote body',
  entries: {
    'POOLS-TX-IDEMPOTENCY-KEY-REQUIRED': { title: 'POST /pools/{id}/transact requires an Idempotency-Key; without one it is refused and no trade is made', kind: 'idempotency', section: 'Endpoints' },
    'POOLS-TX-RESERVED': { title: 'Transact returns the trade with transactId, quoteId and status reserved', kind: 'transition', section: 'Endpoints' },
    'POOLS-TX-QUOTE-CONSUMED': { title: 'Transact moves the quote to consumed (consumedAt set)', kind: 'transition', section: 'States and transitions > Quote' },
    'POOLS-TX-REPLAY-SAME-TRADE': { title: 'A retry with the same Idempotency-Key and body returns the existing trade', kind: 'idempotency' },
    'POOLS-TX-KEY-CONFLICT-409': { title: 'The same Idempotency-Key with a different body gives 409 idempotency-conflict', kind: 'idempotency' },
    'POOLS-TX-OTHER-KEY-SAME-QUOTE': { title: 'Transact on an already-consumed quote with another key returns the existing trade (rule 3) or 409 (state table)', kind: 'idempotency' },
    'POOLS-TX-RETRY-ONE-DEBIT': { title: 'A transact retried with the same Idempotency-Key after a lost response returns the same trade; the balance and ledger show one debit', kind: 'idempotency', section: 'Errors', suite: 'chaos' },
    'POOLS-TX-CONCURRENT-SINGLE-USE': { title: 'A firm quote is single use: concurrent transacts with different keys create one trade', kind: 'idempotency', section: 'Limits' },
    'POOLS-TX-INSUFFICIENT-402': { title: 'Insufficient pre-funded balance to reserve gives 402', kind: 'error', section: 'Errors' },
    'POOLS-TX-OFF-RAMP-501': { title: 'off_ramp transact gives 501 unless enabled for the partner, pool and environment', kind: 'status' },
    'POOLS-POLL-ADVANCES': { title: 'GET /pools/transactions/{quoteId} advances a reserved trade to a terminal state', kind: 'transition', section: 'States and transitions > Trade' },
    'POOLS-POLL-STATUS': { title: 'The poll answers the trade status, one of the documented trade states', kind: 'enum', section: 'Endpoints' },
    'POOLS-POLL-PURE-READS': { title: 'GET /pools/trades and GET /pools/trades/{transactId} never advance settlement', kind: 'transition', section: 'States and transitions > Trade' },
    'POOLS-POLL-RETURNED': { title: 'A settled trade whose payout is returned becomes returned, discovered by the poll', kind: 'transition', section: 'States and transitions > Trade' },
  },
});

export default area;

declare module '../define.js' {
  interface CatalogueAreas {
    'pools/transact': typeof area.entries;
  }
}
