// Open points of the pools spec's quote creation: its success status, the fields beyond those shown, and how a
// request with several invalid fields is answered (Resources and their fields > Quote creation response; Endpoints).
import { defineOpenPoints } from '../define.js';

const area = defineOpenPoints({
  spec: 'pools',
  section: 'Resources and their fields > Quote creation response',
  entries: {
    'pools.quote.firmStatus': {
      kind: 'success-status',
      passage: 'Firm: `quoteId`, `expiresAt` (about 15 seconds ahead), `rate`, `spreadBps`, `feeBps`, `available` true, `executable` true.',
      what: 'the success status of a firm quote (an unavailable one is fixed at HTTP 200)',
      choices: ['201', '200'],
      readBy: ['support/pools/pools.ts', 'conformance/pools/quotes.ts'],
    },
    'pools.quote.fields': {
      kind: 'fields',
      passage: 'Firm: `quoteId`, `expiresAt` (about 15 seconds ahead), `rate`, `spreadBps`, `feeBps`, `available` true, `executable` true.',
      what: "the fields a quote creation answer carries beyond those shown: the quote's amounts, pool, side, network and type, or only the shown ones",
      choices: ['with-amounts', 'shown-only'],
      readBy: ['conformance/pools/quotes.ts', 'conformance/pools/quoteArithmetic.ts', 'support/pools/pools.ts'],
    },
    'pools.quote.validationJoin': {
      kind: 'message-join',
      passage: 'validation: missing `destAddress` on on_ramp, non-EUR funding currency',
      what: 'whether a quote body with several invalid fields is answered with every problem at once (messages joined with "; ") or with the first one found',
      choices: ['all-at-once', 'first-only'],
      readBy: ['conformance/pools/quotes.ts'],
    },
  },
});

export default area;

declare module '../define.js' {
  interface OpenPointAreas {
    'pools/quotes': typeof area.entries;
  }
}
