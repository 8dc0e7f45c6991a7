// Open points of the pools spec's ledger: its entries' fields and how it pages (Resources and their fields > Ledger
// entry; Endpoints).
import { defineOpenPoints } from '../define.js';

const area = defineOpenPoints({
  spec: 'pools',
  section: 'Resources and their fields > Ledger entry',
  entries: {
    'pools.ledger.fields': {
      kind: 'not-shown',
      passage: 'Ledger entry fields beyond the entry type names: not shown.',
      what: "a ledger entry's fields: id, type, currency, signed amount, balanceAfter, transactId, quoteId and createdAt, or fewer (no currency or balanceAfter, the trade named by transactId only)",
      choices: ['full', 'lean'],
      readBy: ['support/pools/pools.ts', 'support/pools/ledger.ts', 'conformance/pools/ledger.ts'],
    },
    'pools.ledger.paging': {
      kind: 'not-shown',
      passage: 'Partner-scoped balance movements, cursor-paginated. Query parameters and response shape: not shown.',
      what: "how GET /pools/ledger pages: the trades list's words (?cursor=, { data, nextCursor, hasMore }) or others (?after=, { entries, next }); the profile declares them",
      choices: ['cursor', 'after'],
      readBy: ['support/pools/ledger.ts', 'conformance/pools/ledger.ts'],
    },
  },
});

export default area;

declare module '../define.js' {
  interface OpenPointAreas {
    'pools/ledger': typeof area.entries;
  }
}
