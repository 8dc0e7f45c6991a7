// Open points of the pools spec's trades: what the status poll answers and when it advances a trade to which
// outcome, whether a failed trade unwinds its reservation, and the list's order between equal createdAt and its
// malformed cursors (States and transitions > Trade; Endpoints; Trades list query; Errors).
import { defineOpenPoints } from '../define.js';

const area = defineOpenPoints({
  spec: 'pools',
  section: 'States and transitions > Trade',
  entries: {
    'pools.poll.fields': {
      kind: 'not-shown',
      passage: 'Trade status by quote id; advances settlement. Response fields beyond `status`: not shown.',
      what: "the status poll's answer: the whole trade, or its status only",
      choices: ['whole-trade', 'status-only'],
      readBy: ['support/pools/pools.ts', 'conformance/pools/trades.ts', 'relation:TRADE_RELATIONS'],
    },
    'pools.poll.advance': {
      kind: 'not-shown',
      passage: 'Which terminal state results from each poll outcome, and transitions out of `quoted` other than transact: not shown.',
      what: 'when a poll advances a reserved trade: the first poll settles it (or ends it in the outcome chosen), or the first poll keeps it reserved and a later one ends it',
      choices: ['first-poll', 'second-poll'],
      readBy: ['support/pools/pools.ts', 'conformance/pools/trades.ts', 'chaos/pools/settlementWebhooks.ts', 'relation:TRADE_RELATIONS'],
    },
    'pools.poll.returnedPath': {
      kind: 'when',
      passage: '| settled | receiving bank returns payout, or crypto delivery fails downstream | discovered by poll | returned |',
      what: 'how a returned outcome shows: a poll reads settled first and a later one returned, or the poll reads returned at once',
      choices: ['settled-first', 'at-once'],
      readBy: ['support/pools/pools.ts', 'conformance/pools/trades.ts', 'conformance/pools/events.ts'],
    },
    'pools.trade.failedUnwinds': {
      kind: 'reading',
      passage: '`settled`, `failed`, `released` are terminal outcomes; `released` means the reservation was unwound without settling.',
      what: 'whether a failed trade gives its reservation back to the balance (only released is said to be unwound)',
      choices: ['unwinds', 'keeps'],
      readBy: ['conformance/pools/trades.ts', 'conformance/pools/balanceFunding.ts'],
    },
    'pools.trades.tieOrder': {
      kind: 'list-order',
      passage: 'Order: newest first.',
      what: 'the order of trades with equal createdAt: the later created first, or by transactId',
      choices: ['created-later-first', 'transact-id-desc'],
      readBy: ['conformance/pools/trades.ts'],
    },
    'pools.trades.malformedCursor': {
      kind: 'reading',
      passage:
        '| 400 | validation: missing `destAddress` on on_ramp, non-EUR funding currency, `limit` outside 1–100 (code `invalid_limit`), malformed cursor, unparseable date filter |',
      what: 'what makes a trades cursor malformed (400) rather than unknown (an empty page): only bytes that are no text, or any cursor not shaped like a transactId',
      choices: ['not-text', 'not-id-shaped'],
      readBy: ['conformance/pools/trades.ts'],
    },
  },
});

export default area;

declare module '../define.js' {
  interface OpenPointAreas {
    'pools/trades': typeof area.entries;
  }
}
