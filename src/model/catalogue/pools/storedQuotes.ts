// Pools stored quotes: read, reject, terminal 409s and the status precedence.
import { defineArea } from '../define.js';

const TERMINAL_ROW = '| consumed, rejected, expired | POST reject or POST transact | quote already terminal | unchanged | 409 conflict |';
const READ_ROW = '| GET | /pools/quotes/{quoteId} | SK | Stored quote; does not consume or extend. |';

const area = defineArea({
  service: 'pools',
  section: 'States and transitions > Quote',
  entries: {
    'POOLS-SQ-SHAPE': {
      title: 'A stored quote carries its documented fields; consumedAt and rejectedAt are null while active',
      kind: 'field',
      section: 'Resources and their fields > Stored quote',
      anchor: ['`quoteId`, `poolId`, `pair`, `side`, `cryptoNetwork`, `fiatAmount`, `cryptoAmount`, `rate`, `spreadBps`, `feeBps`, `status`', READ_ROW],
    },
    'POOLS-SQ-READ-NO-CONSUME': { title: 'GET /pools/quotes/{quoteId} does not consume the quote', kind: 'transition', section: 'Endpoints', anchor: READ_ROW },
    'POOLS-SQ-READ-NO-EXTEND': { title: 'GET /pools/quotes/{quoteId} does not extend expiresAt', kind: 'transition', section: 'Endpoints', anchor: READ_ROW },
    'POOLS-SQ-REJECT': {
      title: 'Reject of an active quote returns the stored quote with status rejected and rejectedAt set',
      kind: 'transition',
      anchor: [
        '| active | POST reject | quote active | rejected | `rejectedAt` set; no money moved |',
        '| POST | /pools/quotes/{quoteId}/reject | SK | No body, no idempotency key. Response: stored quote with status `rejected`. |',
        'Observe them through the status poll, the trade reads, the ledger and the quote read.',
      ],
    },
    'POOLS-SQ-REJECT-TERMINAL-409': {
      title: 'Reject of a consumed, rejected or expired quote gives 409 conflict',
      kind: 'transition',
      anchor: [TERMINAL_ROW, 'reject of a terminal quote'],
    },
    'POOLS-SQ-TRANSACT-REJECTED-409': {
      title: 'Transact on a rejected quote gives 409 conflict',
      kind: 'transition',
      anchor: [TERMINAL_ROW, '| 409 | quote expired, consumed or rejected'],
    },
    'POOLS-SQ-PRECEDENCE': {
      title: 'Status precedence rejected > consumed > expired > active',
      kind: 'transition',
      section: 'Resources and their fields > Stored quote',
      anchor: 'Status is derived with precedence rejected > consumed > expired > active.',
    },
  },
});

export default area;

declare module '../define.js' {
  interface CatalogueAreas {
    'pools/storedQuotes': typeof area.entries;
  }
}
