// Pools stored quotes: read, reject, terminal 409s and the status precedence.
import { defineArea } from '../define.js';

const area = defineArea({
  service: 'pools',
  section: 'States and transitions > Quote',
  entries: {
    'POOLS-SQ-SHAPE': { title: 'A stored quote carries its documented fields; consumedAt and rejectedAt are null while active', kind: 'field', section: 'Resources and their fields > Stored quote' },
    'POOLS-SQ-READ-NO-CONSUME': { title: 'GET /pools/quotes/{quoteId} does not consume the quote', kind: 'transition', section: 'Endpoints' },
    'POOLS-SQ-READ-NO-EXTEND': { title: 'GET /pools/quotes/{quoteId} does not extend expiresAt', kind: 'transition', section: 'Endpoints' },
    'POOLS-SQ-REJECT': { title: 'Reject of an active quote returns the stored quote with status rejected and rejectedAt set', kind: 'transition' },
    'POOLS-SQ-REJECT-TERMINAL-409': { title: 'Reject of a consumed, rejected or expired quote gives 409 conflict', kind: 'transition' },
    'POOLS-SQ-TRANSACT-REJECTED-409': { title: 'Transact on a rejected quote gives 409 conflict', kind: 'transition' },
    'POOLS-SQ-PRECEDENCE': { title: 'Status precedence rejected > consumed > expired > active', kind: 'transition', section: 'Resources and their fields > Stored quote' },
  },
});

export default area;

declare module '../define.js' {
  interface CatalogueAreas {
    'pools/storedQuotes': typeof area.entries;
  }
}
