// Every operation of the pools spec's "Endpoints" table, with the statuses of
// its Errors table that apply to each route. Request-rate limits of the pools
// routes are not shown, so no route group.
import { z } from 'zod';
import { POOLS_LIMITS } from '../limits.js';
import {
  Balance,
  Capabilities,
  FirmQuote,
  Funding,
  IndicativeQuote,
  PollResponse,
  POOLS_SIDES,
  PoolsList,
  QuoteBody,
  StoredQuote,
  Trade,
  TRADE_STATUSES,
  TradesPage,
  TransactBody,
  TransactAnswer,
  UnavailableQuote,
} from '../schemas/pools/index.js';
import type { Endpoint, ErrorSpec, NamedSchema, Param } from './types.js';

const n = (name: string, schema: z.ZodType): NamedSchema => ({ name, schema });
const pathParam = (name: string, description: string): Param => ({ name, in: 'path', required: true, schema: z.string().min(1), description });
const query = (name: string, schema: z.ZodType, description: string): Param => ({ name, in: 'query', required: false, schema, description });
const NONE = { kind: 'none' as const };
/** An ISO 8601 date-time (JSON Schema format date-time, RFC 3339). */
const DATE_TIME = z.string().meta({ format: 'date-time' });
const SECTION = 'Endpoints';

/** Firm, indicative or unavailable (the last one is HTTP 200 with available false). */
export const QuoteResponse = z.union([FirmQuote, IndicativeQuote, UnavailableQuote]);

const E401: ErrorSpec = { status: 401, when: 'missing or invalid key' };
const E403_MODE: ErrorSpec = { status: 403, when: 'key_mode_mismatch (the only 403 code of secret-only routes)' };
const E403_ENTITLED: ErrorSpec = { status: 403, when: 'pools_not_enabled, pool_access_suspended, kyc_not_approved, pool_not_allowed, key_mode_mismatch' };
const E404: ErrorSpec = { status: 404, when: 'unknown or cross-tenant id' };
const E429: ErrorSpec = { status: 429, when: 'throttle (request-rate limits of the pools routes: not shown)' };
const SECRET_ONLY = [E401, E403_MODE, E429];
const ENTITLED = [E401, E403_ENTITLED, E429];

export const POOLS_ENDPOINTS: readonly Endpoint[] = [
  {
    id: 'listPools',
    service: 'pools',
    method: 'GET',
    path: '/pools',
    summary: 'Discover entitled pools',
    section: SECTION,
    auth: 'PK|SK',
    params: [],
    request: NONE,
    success: { status: '2XX', body: n('PoolsList', PoolsList), description: '{ pools: [...] }' },
    errors: [E401, { status: 403, when: 'key_mode_mismatch' }, E429],
  },
  {
    id: 'getPoolCapabilities',
    service: 'pools',
    method: 'GET',
    path: '/pools/{id}/capabilities',
    summary: 'Capabilities of one pool',
    section: SECTION,
    auth: 'SK+entitlement',
    params: [pathParam('id', 'pool id (<fiat>-<crypto>)')],
    request: NONE,
    success: { status: '2XX', body: n('PoolCapabilities', Capabilities), description: 'Capabilities object' },
    errors: [...ENTITLED, E404],
  },
  {
    id: 'createPoolQuote',
    service: 'pools',
    method: 'POST',
    path: '/pools/{id}/quote',
    summary: 'Firm or indicative quote',
    section: SECTION,
    auth: 'SK+entitlement',
    params: [pathParam('id', 'pool id (<fiat>-<crypto>)')],
    request: { kind: 'json', body: n('QuoteBody', QuoteBody) },
    success: {
      status: '2XX',
      body: n('QuoteResponse', QuoteResponse),
      description:
        'firm (quoteId, expiresAt about 15 s ahead), indicative (no quoteId) or unavailable (HTTP 200, available false, unavailableReason); no idempotency key needed',
    },
    errors: [{ status: 400, when: 'validation, e.g. missing destAddress on on_ramp' }, ...ENTITLED, E404],
    notes: ['rate is output per input. Unavailable routes return 200 with available false, never a lock.'],
  },
  {
    id: 'transactPoolQuote',
    service: 'pools',
    method: 'POST',
    path: '/pools/{id}/transact',
    summary: 'Transact once against a firm quote',
    section: SECTION,
    auth: 'SK+entitlement',
    idempotencyKey: { use: 'required', uuid: false },
    params: [pathParam('id', 'pool id (<fiat>-<crypto>)')],
    request: { kind: 'json', body: n('TransactBody', TransactBody) },
    success: {
      status: '2XX',
      body: n('TransactAnswer', TransactAnswer),
      description:
        'the trade: transactId, quoteId, status (reserved on the first transact; a safe retry returns the existing trade in its current state); further fields not shown',
    },
    errors: [
      { status: 400, when: 'validation' },
      ...ENTITLED,
      { status: 402, when: 'insufficient pre-funded balance to reserve' },
      E404,
      { status: 409, when: 'quote expired, consumed or rejected; reservation failed; idempotency-conflict (same key, different body)' },
      { status: 429, when: 'partner rolling 24-hour notional velocity cap exceeded' },
      { status: 501, when: 'off_ramp not enabled for partner, pool or environment' },
    ],
    notes: ['Idempotent on quoteId: a safe retry returns the existing trade.'],
  },
  {
    id: 'getStoredQuote',
    service: 'pools',
    method: 'GET',
    path: '/pools/quotes/{quoteId}',
    summary: 'Stored quote (does not consume or extend)',
    section: SECTION,
    auth: 'SK',
    params: [pathParam('quoteId', 'quote id')],
    request: NONE,
    success: { status: '2XX', body: n('StoredQuote', StoredQuote), description: 'stored quote' },
    errors: [...SECRET_ONLY, E404],
  },
  {
    id: 'rejectStoredQuote',
    service: 'pools',
    method: 'POST',
    path: '/pools/quotes/{quoteId}/reject',
    summary: 'Reject an active quote',
    section: SECTION,
    auth: 'SK',
    params: [pathParam('quoteId', 'quote id')],
    request: NONE,
    success: { status: '2XX', body: n('StoredQuote', StoredQuote), description: 'stored quote with status rejected; no body, no idempotency key' },
    errors: [...SECRET_ONLY, E404, { status: 409, when: 'reject of a terminal quote' }],
  },
  {
    id: 'getTransactionStatus',
    service: 'pools',
    method: 'GET',
    path: '/pools/transactions/{quoteId}',
    summary: 'Trade status by quote id (advances settlement)',
    section: SECTION,
    auth: 'SK',
    params: [pathParam('quoteId', 'quote id')],
    request: NONE,
    success: { status: '2XX', body: n('PollResponse', PollResponse), description: 'status; further fields not shown' },
    errors: [...SECRET_ONLY, E404],
  },
  {
    id: 'listTrades',
    service: 'pools',
    method: 'GET',
    path: '/pools/trades',
    summary: 'Trades, newest first',
    section: SECTION,
    auth: 'SK',
    params: [
      query(
        'limit',
        z.number().int().min(POOLS_LIMITS.trades.limitMin).max(POOLS_LIMITS.trades.limitMax).default(POOLS_LIMITS.trades.limitDefault),
        'page size; outside gives 400 invalid_limit',
      ),
      query('cursor', z.string(), 'a transactId from the prior nextCursor; omit on page one; an unknown cursor yields an empty page'),
      query('side', z.enum(POOLS_SIDES), 'trade side'),
      query('status', z.enum(TRADE_STATUSES), 'trade status'),
      query('created_after', DATE_TIME, 'inclusive lower bound on createdAt, ISO 8601'),
      query('created_before', DATE_TIME, 'inclusive upper bound on createdAt, ISO 8601'),
    ],
    request: NONE,
    success: { status: '2XX', body: n('TradesPage', TradesPage), description: '{ data: [Trade], nextCursor, hasMore }; nextCursor null when hasMore is false' },
    errors: [{ status: 400, when: 'limit outside 1–100 (invalid_limit), malformed cursor, unparseable date filter' }, ...SECRET_ONLY],
    notes: ['Keep the same filters across pages. A pure read: never advances settlement.'],
  },
  {
    id: 'getTrade',
    service: 'pools',
    method: 'GET',
    path: '/pools/trades/{transactId}',
    summary: 'One trade (pure read)',
    section: SECTION,
    auth: 'SK',
    params: [pathParam('transactId', 'trade transactId')],
    request: NONE,
    success: { status: '2XX', body: n('Trade', Trade), description: 'Trade' },
    errors: [...SECRET_ONLY, E404],
  },
  {
    id: 'getPoolBalance',
    service: 'pools',
    method: 'GET',
    path: '/pools/{id}/balance',
    summary: 'Partner balance for a pool',
    section: SECTION,
    auth: 'SK+entitlement',
    params: [pathParam('id', 'pool id (<fiat>-<crypto>)')],
    request: NONE,
    success: { status: '2XX', body: n('Balance', Balance), description: 'Balance object; balance null when the balance gate is off' },
    errors: [...ENTITLED, E404],
  },
  {
    id: 'getFunding',
    service: 'pools',
    method: 'GET',
    path: '/pools/funding',
    summary: 'Funding instructions',
    section: SECTION,
    auth: 'SK',
    params: [query('currency', z.enum([POOLS_LIMITS.fundingCurrency]).default(POOLS_LIMITS.fundingCurrency), 'EUR only; any other gives 400')],
    request: NONE,
    success: { status: '2XX', body: n('Funding', Funding), description: 'Funding object; iban null when not provisioned' },
    errors: [{ status: 400, when: 'non-EUR funding currency' }, ...SECRET_ONLY, { status: 404, when: 'the balance gate is off' }],
  },
  {
    id: 'listLedger',
    service: 'pools',
    method: 'GET',
    path: '/pools/ledger',
    summary: 'Partner-scoped balance movements, cursor-paginated',
    section: SECTION,
    auth: 'SK',
    params: [],
    request: NONE,
    success: { status: '2XX', description: 'query parameters and response shape: not shown (entry types payin_credit, buy_debit, buy_refund)' },
    errors: SECRET_ONLY,
  },
];
