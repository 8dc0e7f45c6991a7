// Pools sequence faults written blind (issue 43): each a second copy of some state — a balance cache, a cursor's
// offset, a trade's read copy, an idempotency record, a list index, a quote's consumption — that one path writes and
// another forgets. No single request shows one; each parts from the spec only after a short order of documented
// operations on one object or one key. The copies live in the blind*.ts modules beside this file.
import type { FaultDef } from '../kit/faults.js';

export const BLIND_POOLS_FAULTS: FaultDef[] = [
  {
    name: 'seq-blind-pools-release-reopens-quote',
    service: 'pools',
    requirements: ['POOLS-TX-QUOTE-CONSUMED', 'POOLS-TX-OTHER-KEY-SAME-QUOTE'],
    description:
      "Sequence: the poll that unwinds a reservation (released or failed) rolls the transact back whole, the quote's consumption included; settling keeps it — transact, the poll releases the trade, then the stored quote reads active again with consumedAt null (while unexpired), and a transact under another key makes a second trade on the single-use quote.",
    suite: 'explore',
  },
  {
    name: 'seq-blind-pools-balance-cached-per-pool',
    service: 'pools',
    requirements: ['POOLS-BAL-RESERVE-DEBIT'],
    description:
      "Sequence: GET /pools/{id}/balance answers from a cache keyed by the pool in the path; a move of one pool's trade (its transact, its unwinding or refund) drops only that pool's entry, a pay-in drops all — the balance read through one pool, then a transact in another, still reads the balance from before the reservation through the first pool (the partner has one EUR balance).",
    suite: 'explore',
  },
  {
    name: 'seq-blind-pools-ledger-cursor-misses-payins',
    service: 'pools',
    requirements: ['POOLS-LEDGER-CURSOR'],
    description:
      'Sequence: GET /pools/ledger resolves its next cursor through a cursor index built from the whole ledger at the first read and then fed by the trade postings (reservation, release, refund); a pay-in, which the funding side writes to the ledger alone, never joins it — after a ledger read, a pay-in, then a page ending at that pay-in hands out a next cursor that leads to an empty page (hasMore was true).',
    suite: 'explore',
  },
  {
    name: 'seq-blind-pools-trade-read-refires-settled',
    service: 'pools',
    requirements: ['POOLS-EVT-EVENT-ID'],
    description:
      'Sequence: GET /pools/trades/{transactId} reloads a settled trade from the read copy, which lacks the row\'s "settled event published" mark; the next settlement poll, finding it unmarked, publishes pool.transaction.settled again under a new eventId — settle, read the trade, poll: a second settled event (polls without the read between send none).',
    suite: 'explore',
  },
  {
    name: 'seq-blind-pools-trade-read-cache-misses-return',
    service: 'pools',
    requirements: ['POOLS-POLL-RETURNED'],
    description:
      'Sequence: GET /pools/trades/{transactId} answers from a per-trade cache refreshed whenever the trade leaves reserved, but not when a later poll discovers the bank return (settled → returned, the refund credited) — a trade read while settled still reads settled after the poll moved it to returned (the poll, the list and the ledger show the return).',
    suite: 'explore',
  },
  {
    name: 'seq-blind-pools-key-freed-at-settlement',
    service: 'pools',
    requirements: ['POOLS-TX-KEY-CONFLICT-409'],
    description:
      "Sequence: transact keeps its Idempotency-Key records with the reservation, and the poll that ends the reservation (any terminal outcome) archives them — after the poll, the same key with another quote's body makes a new trade (201) instead of 409 idempotency-conflict; before it, the conflict is caught.",
    suite: 'explore',
  },
  {
    name: 'seq-blind-pools-trades-date-touched-by-poll',
    service: 'pools',
    requirements: ['POOLS-TRADES-DATE-INCLUSIVE'],
    description:
      'Sequence: the trades list filters created_after and created_before on an index column the poll re-stamps when it moves a trade (an updated-at written back on save), while the trade still shows its createdAt — after the poll settles a trade, created_before its own createdAt leaves it out and a created_after later than its createdAt takes it in.',
    suite: 'explore',
  },
];
