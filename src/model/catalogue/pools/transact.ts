// Pools transact (one-time, idempotent) and the status poll that advances settlement.
import type { Requirement } from '../types.js';

type Entry = Omit<Requirement, 'service' | 'suite'> & { suite?: Requirement['suite'] };
const entry = (e: Entry): Requirement => ({ service: 'pools', suite: 'conformance', ...e });

const EP = 'Endpoints';
const RULES = 'Endpoints > Quote body';
const TRADE = 'States and transitions > Trade';

export const requirements: Requirement[] = [
  entry({ id: 'POOLS-TX-IDEMPOTENCY-KEY-REQUIRED', section: EP, title: 'POST /pools/{id}/transact requires an Idempotency-Key; without one it is refused and no trade is made', kind: 'idempotency', roles: ['pools.partner'] }),
  entry({ id: 'POOLS-TX-RESERVED', section: EP, title: 'Transact returns the trade with transactId, quoteId and status reserved', kind: 'transition', roles: ['pools.partner'] }),
  entry({ id: 'POOLS-TX-QUOTE-CONSUMED', section: 'States and transitions > Quote', title: 'Transact moves the quote to consumed (consumedAt set)', kind: 'transition', roles: ['pools.partner'] }),
  entry({ id: 'POOLS-TX-REPLAY-SAME-TRADE', section: RULES, title: 'A retry with the same Idempotency-Key and body returns the existing trade', kind: 'idempotency', roles: ['pools.partner'] }),
  entry({ id: 'POOLS-TX-KEY-CONFLICT-409', section: RULES, title: 'The same Idempotency-Key with a different body gives 409 idempotency-conflict', kind: 'idempotency', roles: ['pools.partner'] }),
  entry({ id: 'POOLS-TX-OTHER-KEY-SAME-QUOTE', section: RULES, title: 'Transact on an already-consumed quote with another key returns the existing trade (rule 3) or 409 (state table)', kind: 'idempotency', roles: ['pools.partner'] }),
  entry({ id: 'POOLS-TX-RETRY-ONE-DEBIT', section: 'Errors', title: 'A transact retried with the same Idempotency-Key after a lost response returns the same trade; the balance and ledger show one debit', kind: 'idempotency', roles: ['pools.partner'], suite: 'chaos' }),
  entry({ id: 'POOLS-TX-CONCURRENT-SINGLE-USE', section: 'Limits', title: 'A firm quote is single use: concurrent transacts with different keys create one trade', kind: 'idempotency', roles: ['pools.partner'] }),
  entry({ id: 'POOLS-TX-INSUFFICIENT-402', section: 'Errors', title: 'Insufficient pre-funded balance to reserve gives 402', kind: 'error', roles: ['pools.partner'] }),
  entry({ id: 'POOLS-TX-OFF-RAMP-501', section: RULES, title: 'off_ramp transact gives 501 unless enabled for the partner, pool and environment', kind: 'status', roles: ['pools.noOffRamp'] }),
  entry({ id: 'POOLS-POLL-ADVANCES', section: TRADE, title: 'GET /pools/transactions/{quoteId} advances a reserved trade to a terminal state', kind: 'transition', roles: ['pools.partner', 'pools.trigger.outcome'] }),
  entry({ id: 'POOLS-POLL-STATUS', section: EP, title: 'The poll answers the trade status, one of the documented trade states', kind: 'enum', roles: ['pools.partner'] }),
  entry({ id: 'POOLS-POLL-PURE-READS', section: TRADE, title: 'GET /pools/trades and GET /pools/trades/{transactId} never advance settlement', kind: 'transition', roles: ['pools.partner', 'pools.trigger.outcome'] }),
  entry({ id: 'POOLS-POLL-RETURNED', section: TRADE, title: 'A settled trade whose payout is returned becomes returned, discovered by the poll', kind: 'transition', roles: ['pools.partner', 'pools.trigger.outcome'] }),
];
