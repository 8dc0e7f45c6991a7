// Open points of the pools spec's transact: its answer's fields and status, what an idempotent retry returns, and a
// consumed quote transacted again under a new key (Endpoints; Quote body rules; States and transitions > Quote).
import { defineOpenPoints } from '../define.js';

const area = defineOpenPoints({
  spec: 'pools',
  section: 'Endpoints',
  entries: {
    'pools.transact.fields': {
      kind: 'not-shown',
      passage: 'Response: reserved trade with `transactId`, `quoteId`, `status` = `reserved`. Fields beyond these three: not shown.',
      what: "transact's answer: the whole trade, or only transactId, quoteId and status",
      choices: ['whole-trade', 'three-fields'],
      readBy: ['support/pools/pools.ts', 'conformance/pools/transact.ts', 'chaos/pools/transactRetry.ts'],
    },
    'pools.transact.status': {
      kind: 'success-status',
      passage: 'Response: reserved trade with `transactId`, `quoteId`, `status` = `reserved`.',
      what: 'the success status of a transact that reserves a trade',
      choices: ['201', '200'],
      readBy: ['support/pools/pools.ts', 'conformance/pools/transact.ts'],
    },
    'pools.transact.replay': {
      kind: 'reading',
      passage: '`transact` is idempotent on `quoteId`: a safe retry returns the existing trade.',
      what: 'what a retry with the same Idempotency-Key and body returns: the original response as it was, or the existing trade as it is now',
      choices: ['original-response', 'trade-now'],
      readBy: ['conformance/pools/transact.ts', 'chaos/pools/transactRetry.ts'],
    },
    'pools.transact.consumedNewKey': {
      kind: 'reading',
      passage: '| consumed, rejected, expired | POST reject or POST transact | quote already terminal | unchanged | 409 conflict |',
      what: 'transact of a consumed quote under a new Idempotency-Key: the existing trade (rule 3, "a safe retry returns the existing trade") or 409 (the state table)',
      choices: ['existing-trade', '409'],
      readBy: ['conformance/pools/transact.ts'],
    },
  },
});

export default area;

declare module '../define.js' {
  interface OpenPointAreas {
    'pools/transact': typeof area.entries;
  }
}
