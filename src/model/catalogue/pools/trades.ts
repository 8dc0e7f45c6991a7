// Pools trades: the Trade resource and the trades list query.
import { defineArea } from '../define.js';

const area = defineArea({
  service: 'pools',
  section: 'Endpoints > Trades list query',
  entries: {
    'POOLS-TRADES-SHAPE': { title: 'A trade carries its documented fields and types', kind: 'field', section: 'Resources and their fields > Trade' },
    'POOLS-TRADES-TOTAL-BPS': { title: 'totalBps = spreadBps + feeBps', kind: 'field', section: 'Resources and their fields > Trade' },
    'POOLS-TRADES-RATE-OUTPUT-PER-INPUT': { title: 'quotedRate is all-in output per input: for on_ramp, cryptoAmount = fiatAmount × quotedRate (exactly, up to rounding to cryptoAmount\'s places)', kind: 'field', section: 'Resources and their fields > Trade' },
    'POOLS-TRADES-LIST-SHAPE': { title: 'GET /pools/trades returns { data: [Trade], nextCursor: string or null, hasMore: boolean }', kind: 'pagination', section: 'Endpoints' },
    'POOLS-TRADES-LIMIT-DEFAULT': { title: 'limit defaults to 50', kind: 'pagination' },
    'POOLS-TRADES-LIMIT-EDGES': { title: 'limit 1 and 100 are accepted and bound the page', kind: 'pagination' },
    'POOLS-TRADES-LIMIT-INVALID-400': { title: 'limit outside 1–100 gives 400 invalid_limit', kind: 'pagination' },
    'POOLS-TRADES-NEWEST-FIRST': { title: 'Trades are listed newest first', kind: 'pagination' },
    'POOLS-TRADES-CURSOR-WALK': { title: 'Following nextCursor yields no duplicate and no gap', kind: 'pagination' },
    'POOLS-TRADES-NEXTCURSOR-NULL': { title: 'When hasMore is false, nextCursor is null', kind: 'pagination' },
    'POOLS-TRADES-UNKNOWN-CURSOR': { title: 'An unknown cursor yields an empty page', kind: 'pagination' },
    'POOLS-TRADES-MALFORMED-CURSOR': { title: 'A malformed cursor gives 400 (a target whose cursors have no format treats it as unknown: empty page)', kind: 'pagination', section: 'Errors' },
    'POOLS-TRADES-DATE-INCLUSIVE': { title: 'created_after and created_before are inclusive bounds on createdAt', kind: 'pagination' },
    'POOLS-TRADES-DATE-INVALID-400': { title: 'An unparseable date filter gives 400', kind: 'pagination' },
    'POOLS-TRADES-FILTERS': { title: 'side and status filters return only matching trades, and hold across pages', kind: 'pagination' },
    'POOLS-TRADES-PARTNER-SCOPED': { title: 'The trades list never shows another partner\'s trades', kind: 'pagination', section: 'What the service does' },
  },
});

export default area;

declare module '../define.js' {
  interface CatalogueAreas {
    'pools/trades': typeof area.entries;
  }
}
