// Pools transact (one-time, idempotent) and the status poll that advances settlement.
import { defineArea } from '../define.js';

const TX_ROW =
  '| POST | /pools/{id}/transact | SK + entitlement + `Idempotency-Key` (required) | Body `{ quoteId }` only. Response: reserved trade with `transactId`, `quoteId`, `status` = `reserved`.';
const POLL_ROW = '| GET | /pools/transactions/{quoteId} | SK | Trade status by quote id; advances settlement.';
const RULE_3 = '`transact` is idempotent on `quoteId`: a safe retry returns the existing trade.';
const OFF_RAMP = 'Off-ramp (sell) is account-gated and denied with 501 unless enabled for the partner, pool and environment.';
const RETURNED_ROW = '| settled | receiving bank returns payout, or crypto delivery fails downstream | discovered by poll | returned |';

const area = defineArea({
  service: 'pools',
  section: 'Endpoints > Quote body',
  entries: {
    'POOLS-TX-IDEMPOTENCY-KEY-REQUIRED': {
      title: 'POST /pools/{id}/transact requires an Idempotency-Key; without one it is refused and no trade is made',
      kind: 'idempotency',
      section: 'Endpoints',
      anchor: TX_ROW,
    },
    'POOLS-TX-RESERVED': {
      title: 'Transact returns the trade with transactId, quoteId and status reserved',
      kind: 'transition',
      section: 'Endpoints',
      anchor: [TX_ROW, '| quoted | transact | quote accepted and balance reserved | reserved |', 'On-ramp (buy crypto with fiat) is the supported flow.'],
    },
    'POOLS-TX-QUOTE-CONSUMED': {
      title: 'Transact moves the quote to consumed (consumedAt set)',
      kind: 'transition',
      section: 'States and transitions > Quote',
      anchor: ['| active | POST transact | firm quote, before expiry, not consumed | consumed |', '| 409 | quote expired, consumed or rejected'],
    },
    'POOLS-TX-FIRM-PRICE': {
      title: "A trade executes at its firm quote: fiatAmount, cryptoAmount, quotedRate, spreadBps and feeBps are the stored quote's",
      kind: 'field',
      section: 'What the service does',
      anchor: 'request a firm (executable) or indicative (price-only) quote; transact once against a firm quote',
    },
    'POOLS-TX-REPLAY-SAME-TRADE': { title: 'A retry with the same Idempotency-Key and body returns the existing trade', kind: 'idempotency', anchor: RULE_3 },
    'POOLS-TX-KEY-CONFLICT-409': {
      title: 'The same Idempotency-Key with a different body gives 409 idempotency-conflict',
      kind: 'idempotency',
      anchor: ['The same `Idempotency-Key` with a different body gives 409.', 'idempotency conflict (code `idempotency-conflict`)'],
    },
    'POOLS-TX-OTHER-KEY-SAME-QUOTE': {
      title: 'Transact on an already-consumed quote with another key returns the existing trade (rule 3) or 409 (state table)',
      kind: 'idempotency',
      anchor: [RULE_3, '| consumed, rejected, expired | POST reject or POST transact | quote already terminal | unchanged | 409 conflict |'],
    },
    'POOLS-TX-RETRY-ONE-DEBIT': {
      title: 'A transact retried with the same Idempotency-Key after a lost response returns the same trade; the balance and ledger show one debit',
      kind: 'idempotency',
      section: 'Errors',
      suite: 'chaos',
      anchor: '| 5xx | server or upstream failure; retry with bounded backoff, same idempotency key for writes |',
    },
    'POOLS-TX-CONCURRENT-SINGLE-USE': {
      title: 'A firm quote is single use: concurrent transacts with different keys create one trade',
      kind: 'idempotency',
      section: 'Limits',
      anchor: ['Firm quote lifetime: about 15 seconds; single use.', 'transact once against a firm quote'],
    },
    'POOLS-TX-INSUFFICIENT-402': {
      title: 'Insufficient pre-funded balance to reserve gives 402',
      kind: 'error',
      section: 'Errors',
      anchor: '| 402 | insufficient pre-funded balance to reserve |',
    },
    'POOLS-TX-OFF-RAMP-501': {
      title: 'off_ramp transact gives 501 unless enabled for the partner, pool and environment',
      kind: 'status',
      anchor: [OFF_RAMP, '`off_ramp` transact gives 501 unless enabled.', '| 501 | off_ramp not enabled for partner, pool or environment |'],
    },
    'POOLS-TX-OFF-RAMP-ENABLED': {
      title:
        'An off_ramp transact of a partner with off_ramp enabled (for the partner, pool and environment) is not refused with 501: it reserves a sell, or is refused for a prerequisite (a 4xx) — crypto deposited and credited, a payout destination',
      kind: 'status',
      anchor: [
        OFF_RAMP,
        'When enabled, it needs crypto sent to `cryptoDepositAddress`, credited to the partner crypto balance, an approved payout destination, and then a sell trade debits that balance.',
      ],
      needs: ['poolsOffRamp'],
    },
    'POOLS-POLL-ADVANCES': {
      title: 'GET /pools/transactions/{quoteId} advances a reserved trade to a terminal state',
      kind: 'transition',
      section: 'States and transitions > Trade',
      anchor: ['| reserved | GET /pools/transactions/{quoteId} | settlement progresses | a terminal state | the poll advances settlement |', POLL_ROW],
    },
    'POOLS-POLL-STATUS': {
      title: 'The poll answers the trade status, one of the documented trade states',
      kind: 'enum',
      section: 'Endpoints',
      anchor: [POLL_ROW, 'Values: `quoted`, `reserved`, `settled`, `released`, `failed`, `returned`.'],
    },
    'POOLS-POLL-TERMINAL-FINAL': {
      title:
        'settled, failed and released are terminal: later polls keep failed and released, and a settled trade stays settled (or moves on to returned, a bank return)',
      kind: 'transition',
      section: 'States and transitions > Trade',
      anchor: '`settled`, `failed`, `released` are terminal outcomes',
      needs: ['poolsTradeOutcome'],
    },
    'POOLS-POLL-PURE-READS': {
      title: 'GET /pools/trades and GET /pools/trades/{transactId} never advance settlement',
      kind: 'transition',
      section: 'States and transitions > Trade',
      anchor: ['Pure reads (GET /pools/trades, GET /pools/trades/{transactId}) never advance settlement.', 'One Trade, pure read.'],
    },
    'POOLS-POLL-RETURNED': {
      title: 'A settled trade whose payout is returned becomes returned, discovered by the poll',
      kind: 'transition',
      section: 'States and transitions > Trade',
      anchor: [
        RETURNED_ROW,
        'Observe them through the status poll, the trade reads, the ledger and the quote read.',
        'The `returned` state must be reconciled via polling or the ledger.',
      ],
    },
  },
});

export default area;

declare module '../define.js' {
  interface CatalogueAreas {
    'pools/transact': typeof area.entries;
  }
}
