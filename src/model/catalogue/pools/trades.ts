// Pools trades: the Trade resource and the trades list query.
import { defineArea } from '../define.js';

const LIMIT_ROW = '| limit | integer | 50 | 1–100; outside gives 400 |';
const LIMIT_LINE = 'Trades list `limit`: 1–100, default 50.';
const CURSOR_ROW = 'a `transactId` from the prior `nextCursor`; omit on page one; an unknown cursor yields an empty page';

const area = defineArea({
  service: 'pools',
  section: 'Endpoints > Trades list query',
  entries: {
    'POOLS-TRADES-SHAPE': {
      title: "A trade carries its documented fields and types; its pair and legs are the quoted pool's and its network the one locked at quote time",
      kind: 'field',
      section: 'Resources and their fields > Trade',
      anchor: [
        '| quoteId | string |',
        '| poolId, pair | string |',
        '| side | string | `on_ramp` or `off_ramp` |',
        '| status | string | see states |',
        '| fiatCurrency, cryptoCurrency | string |',
        '| cryptoNetwork | string | locked at quote time |',
        '| fiatAmount, cryptoAmount | decimal string |',
        '| spreadBps, feeBps | integer |',
        '| engineFillTxId | string or null | opaque support reference |',
        '| createdAt | string | ISO 8601, list ordering key |',
        '| settledAt | string or null |',
        '| GET | /pools/trades/{transactId} | SK | One Trade, pure read. |',
        'Values: `quoted`, `reserved`, `settled`, `released`, `failed`, `returned`.',
      ],
    },
    'POOLS-TRADES-TOTAL-BPS': {
      title: 'totalBps = spreadBps + feeBps',
      kind: 'field',
      section: 'Resources and their fields > Trade',
      anchor: '| totalBps | integer | spreadBps + feeBps |',
    },
    'POOLS-TRADES-RATE-OUTPUT-PER-INPUT': {
      title: "quotedRate is all-in output per input: for on_ramp, cryptoAmount = fiatAmount × quotedRate (exactly, up to rounding to cryptoAmount's places)",
      kind: 'field',
      section: 'Resources and their fields > Trade',
      anchor: ['| quotedRate | decimal string | all-in, output per input |', '`rate` is always output-per-input.'],
    },
    'POOLS-TRADES-LIST-SHAPE': {
      title: 'GET /pools/trades returns { data: [Trade], nextCursor: string or null, hasMore: boolean }',
      kind: 'pagination',
      section: 'Endpoints',
      anchor: '| GET | /pools/trades | SK | Query below. Response `{ data: [Trade], nextCursor: string or null, hasMore: boolean }`. |',
    },
    'POOLS-TRADES-LIMIT-DEFAULT': { title: 'limit defaults to 50', kind: 'pagination', anchor: [LIMIT_ROW, LIMIT_LINE] },
    'POOLS-TRADES-LIMIT-EDGES': { title: 'limit 1 and 100 are accepted and bound the page', kind: 'pagination', anchor: [LIMIT_ROW, LIMIT_LINE] },
    'POOLS-TRADES-LIMIT-INVALID-400': {
      title: 'limit outside 1–100 gives 400 invalid_limit',
      kind: 'pagination',
      anchor: [LIMIT_ROW, '`limit` outside 1–100 (code `invalid_limit`)'],
    },
    'POOLS-TRADES-NEWEST-FIRST': {
      title: 'Trades are listed newest first',
      kind: 'pagination',
      anchor: ['Order: newest first.', '| createdAt | string | ISO 8601, list ordering key |'],
    },
    'POOLS-TRADES-CURSOR-WALK': { title: 'Following nextCursor yields no duplicate and no gap', kind: 'pagination', anchor: CURSOR_ROW },
    'POOLS-TRADES-CURSOR-IS-TRANSACT-ID': {
      title: 'nextCursor is a transactId (of a trade on the page it ends or on the page it opens)',
      kind: 'pagination',
      section: 'Resources and their fields > Trade',
      anchor: ['| transactId | string | also the list cursor |', CURSOR_ROW],
    },
    'POOLS-TRADES-NEXTCURSOR-NULL': {
      title: 'When hasMore is false, nextCursor is null',
      kind: 'pagination',
      anchor: 'When `hasMore` is false, `nextCursor` is null.',
    },
    'POOLS-TRADES-UNKNOWN-CURSOR': { title: 'An unknown cursor yields an empty page', kind: 'pagination', anchor: CURSOR_ROW },
    'POOLS-TRADES-MALFORMED-CURSOR': {
      title: 'A malformed cursor gives 400 (a target whose cursors have no format treats it as unknown: empty page)',
      kind: 'pagination',
      section: 'Errors',
      anchor: '| 400 | validation: missing `destAddress` on on_ramp, non-EUR funding currency, `limit` outside 1–100 (code `invalid_limit`), malformed cursor',
    },
    'POOLS-TRADES-DATE-INCLUSIVE': {
      title: 'created_after and created_before are inclusive bounds on createdAt',
      kind: 'pagination',
      anchor: ['inclusive lower bound on `createdAt`, ISO 8601', 'inclusive upper bound on `createdAt`, ISO 8601'],
    },
    'POOLS-TRADES-DATE-INVALID-400': { title: 'An unparseable date filter gives 400', kind: 'pagination', anchor: 'malformed cursor, unparseable date filter' },
    'POOLS-TRADES-FILTERS': {
      title: 'side and status filters return only matching trades, and hold across pages',
      kind: 'pagination',
      anchor: ['| side | string |  | `on_ramp` or `off_ramp` |', '| status | string |  | trade status |', 'Keep the same filters across pages.'],
    },
    'POOLS-TRADES-PARTNER-SCOPED': {
      title: "The trades list never shows another partner's trades",
      kind: 'pagination',
      section: 'What the service does',
      anchor: 'All responses are partner-scoped.',
    },
  },
});

export default area;

declare module '../define.js' {
  interface CatalogueAreas {
    'pools/trades': typeof area.entries;
  }
}
