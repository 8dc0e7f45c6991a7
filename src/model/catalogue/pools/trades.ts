// Pools trades: the Trade resource and the trades list query.
import type { Requirement } from '../types.js';

type Entry = Omit<Requirement, 'service' | 'suite'> & { suite?: Requirement['suite'] };
const entry = (e: Entry): Requirement => ({ service: 'pools', suite: 'conformance', ...e });

const TRADE = 'Resources and their fields > Trade';
const Q = 'Endpoints > Trades list query';

export const requirements: Requirement[] = [
  entry({ id: 'POOLS-TRADES-SHAPE', section: TRADE, title: 'A trade carries its documented fields and types', kind: 'field', roles: ['pools.partner'] }),
  entry({ id: 'POOLS-TRADES-TOTAL-BPS', section: TRADE, title: 'totalBps = spreadBps + feeBps', kind: 'field', roles: ['pools.partner'] }),
  entry({ id: 'POOLS-TRADES-RATE-OUTPUT-PER-INPUT', section: TRADE, title: 'quotedRate is all-in output per input: for on_ramp, cryptoAmount = fiatAmount × quotedRate', kind: 'field', roles: ['pools.partner'] }),
  entry({ id: 'POOLS-TRADES-LIST-SHAPE', section: 'Endpoints', title: 'GET /pools/trades returns { data: [Trade], nextCursor: string or null, hasMore: boolean }', kind: 'pagination', roles: ['pools.partner'] }),
  entry({ id: 'POOLS-TRADES-LIMIT-DEFAULT', section: Q, title: 'limit defaults to 50', kind: 'pagination', roles: ['pools.partner'] }),
  entry({ id: 'POOLS-TRADES-LIMIT-EDGES', section: Q, title: 'limit 1 and 100 are accepted and bound the page', kind: 'pagination', roles: ['pools.partner'] }),
  entry({ id: 'POOLS-TRADES-LIMIT-INVALID-400', section: Q, title: 'limit outside 1–100 gives 400 invalid_limit', kind: 'pagination', roles: ['pools.partner'] }),
  entry({ id: 'POOLS-TRADES-NEWEST-FIRST', section: Q, title: 'Trades are listed newest first', kind: 'pagination', roles: ['pools.partner'] }),
  entry({ id: 'POOLS-TRADES-CURSOR-WALK', section: Q, title: 'Following nextCursor yields no duplicate and no gap', kind: 'pagination', roles: ['pools.partner'] }),
  entry({ id: 'POOLS-TRADES-NEXTCURSOR-NULL', section: Q, title: 'When hasMore is false, nextCursor is null', kind: 'pagination', roles: ['pools.partner'] }),
  entry({ id: 'POOLS-TRADES-UNKNOWN-CURSOR', section: Q, title: 'An unknown cursor yields an empty page', kind: 'pagination', roles: ['pools.partner'] }),
  entry({ id: 'POOLS-TRADES-MALFORMED-CURSOR', section: 'Errors', title: 'A malformed cursor gives 400 (a target whose cursors have no format treats it as unknown: empty page)', kind: 'pagination', roles: ['pools.partner'] }),
  entry({ id: 'POOLS-TRADES-DATE-INCLUSIVE', section: Q, title: 'created_after and created_before are inclusive bounds on createdAt', kind: 'pagination', roles: ['pools.partner'] }),
  entry({ id: 'POOLS-TRADES-DATE-INVALID-400', section: Q, title: 'An unparseable date filter gives 400', kind: 'pagination', roles: ['pools.partner'] }),
  entry({ id: 'POOLS-TRADES-FILTERS', section: Q, title: 'side and status filters return only matching trades, and hold across pages', kind: 'pagination', roles: ['pools.partner'] }),
  entry({ id: 'POOLS-TRADES-PARTNER-SCOPED', section: 'What the service does', title: "The trades list never shows another partner's trades", kind: 'pagination', roles: ['pools.partner', 'pools.secondPartner'] }),
];
