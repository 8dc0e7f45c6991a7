// Pools resources as the spec documents them. Loose objects: unknown fields
// are tolerated (additive changes); documented fields are strict on type,
// pattern and enum; "or null" fields are nullable.
import { z } from 'zod';
import { Decimal, IsoTimestamp } from '../common.js';
import { POOLS_LIMITS } from '../../limits.js';

/** A documented field whose type the spec leaves "not shown": present, any value. */
const present = (name: string) => z.custom<unknown>((v) => v !== undefined, `${name} is required`);
const Bps = z.number().int();
const NonEmpty = z.string().min(1);

export const POOLS_SIDES = ['on_ramp', 'off_ramp'] as const;
export const TRADE_STATUSES = ['quoted', 'reserved', 'settled', 'released', 'failed', 'returned'] as const;
export const TERMINAL_TRADE_STATUSES = ['settled', 'failed', 'released', 'returned'] as const;
export const QUOTE_STATUSES = ['active', 'consumed', 'expired', 'rejected'] as const;
export const UNAVAILABLE_REASONS = ['pool_dry', 'engine_unavailable', 'rate_unavailable'] as const;
export const POOLS_EVENT_TYPES = ['pool.transaction.settled', 'pool.transaction.failed', 'pool.transaction.released'] as const;
export const LEDGER_ENTRY_TYPES = ['payin_credit', 'buy_debit', 'buy_refund'] as const;

export const PoolsSide = z.enum(POOLS_SIDES);
export const TradeStatus = z.enum(TRADE_STATUSES);
export const CryptoNetwork = z.enum(POOLS_LIMITS.cryptoNetworks);

/** List item of GET /pools. */
export const Pool = z.looseObject({
  id: z.string().regex(/^[^-\s]+-[^-\s]+$/, 'pair-shaped <fiat>-<crypto>'),
  pair: NonEmpty,
  fiatCurrency: NonEmpty,
  cryptoCurrency: NonEmpty,
  available: z.boolean(),
});
export type Pool = z.infer<typeof Pool>;

export const PoolsList = z.looseObject({ pools: z.array(Pool) });

export const Capabilities = z.looseObject({
  poolId: NonEmpty,
  pair: NonEmpty,
  fiatCurrency: NonEmpty,
  cryptoCurrency: NonEmpty,
  supportedNetworks: z.array(NonEmpty),
  sides: z.array(PoolsSide),
  // The tier's type is not stated for capabilities (balance says string).
  tier: z.union([z.string(), z.number()]),
  drawFeeBps: Bps,
  spreadCapBps: Bps,
  minOrderUsdt: Decimal,
  maxOrderUsdt: Decimal,
  cryptoDepositAddress: z.string(),
});
export type Capabilities = z.infer<typeof Capabilities>;

/** "no quoteId": absent (null tolerated as absence). */
const NoQuoteId = z.null().optional();

export const FirmQuote = z.looseObject({
  quoteId: NonEmpty,
  expiresAt: IsoTimestamp,
  rate: Decimal,
  spreadBps: Bps,
  feeBps: Bps,
  available: z.literal(true),
  executable: z.literal(true),
});
export type FirmQuote = z.infer<typeof FirmQuote>;

export const IndicativeQuote = z.looseObject({
  available: z.literal(true),
  executable: z.literal(false),
  quoteId: NoQuoteId,
});

export const UnavailableQuote = z.looseObject({
  available: z.literal(false),
  unavailableReason: z.enum(UNAVAILABLE_REASONS),
  quoteId: NoQuoteId,
});

export const StoredQuote = z.looseObject({
  quoteId: NonEmpty,
  poolId: NonEmpty,
  pair: NonEmpty,
  side: PoolsSide,
  cryptoNetwork: CryptoNetwork,
  fiatAmount: Decimal,
  cryptoAmount: Decimal,
  rate: Decimal,
  spreadBps: Bps,
  feeBps: Bps,
  status: z.enum(QUOTE_STATUSES),
  expiresAt: IsoTimestamp,
  consumedAt: IsoTimestamp.nullable(),
  rejectedAt: IsoTimestamp.nullable(),
  createdAt: IsoTimestamp,
});
export type StoredQuote = z.infer<typeof StoredQuote>;

/** POST /pools/{id}/transact: fields beyond these three are not shown. */
export const TransactResponse = z.looseObject({
  transactId: NonEmpty,
  quoteId: NonEmpty,
  status: z.literal('reserved'),
});

/**
 * Any answer of POST /pools/{id}/transact: the first is the reserved trade (TransactResponse); a safe retry
 * returns the existing trade, in whatever state it has reached by then (endpoint rule 3).
 */
export const TransactAnswer = TransactResponse.extend({ status: TradeStatus });

/** GET /pools/transactions/{quoteId}: fields beyond status are not shown. */
export const PollResponse = z.looseObject({ status: TradeStatus });

export const Trade = z.looseObject({
  transactId: NonEmpty,
  quoteId: NonEmpty,
  poolId: NonEmpty,
  pair: NonEmpty,
  side: PoolsSide,
  status: TradeStatus,
  fiatCurrency: NonEmpty,
  cryptoCurrency: NonEmpty,
  cryptoNetwork: CryptoNetwork,
  fiatAmount: Decimal,
  cryptoAmount: Decimal,
  quotedRate: Decimal,
  spreadBps: Bps,
  feeBps: Bps,
  totalBps: Bps,
  engineFillTxId: z.string().nullable(),
  createdAt: IsoTimestamp,
  settledAt: IsoTimestamp.nullable(),
});
export type Trade = z.infer<typeof Trade>;

export const TradesPage = z.looseObject({
  data: z.array(Trade),
  nextCursor: z.string().nullable(),
  hasMore: z.boolean(),
});
export type TradesPage = z.infer<typeof TradesPage>;

export const Balance = z.looseObject({
  poolId: NonEmpty,
  pair: NonEmpty,
  tier: z.string(),
  available: z.boolean(),
  allowedPools: z.array(z.string()),
  balance: Decimal.nullable(),
});
export type Balance = z.infer<typeof Balance>;

export const Funding = z.looseObject({
  currency: z.literal('EUR'),
  iban: z.string().nullable(),
  reference: z.string(),
  // The type of instructions is not shown.
  instructions: present('instructions'),
});
export type Funding = z.infer<typeof Funding>;

/**
 * A pools webhook body. Payload shape and envelope fields are not shown; only
 * the event names and dedupe on eventId are documented, so everything else is
 * optional here and observed by the checks.
 */
export const PoolsEventEnvelope = z.looseObject({
  eventId: NonEmpty.optional(),
  type: z.enum(POOLS_EVENT_TYPES).optional(),
});
