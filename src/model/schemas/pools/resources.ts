// Pools resources as the spec documents them. Loose objects: unknown fields
// are tolerated (additive changes); documented fields are strict on type,
// pattern and enum; "or null" fields are nullable.
import { z } from 'zod';
import { Decimal, IsoTimestamp } from '../common.js';
import { POOLS_LIMITS } from '../../limits.js';
import { ref, same, stable, type ResourceRelations } from '../../relations.js';

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

/**
 * Two answers about one stored quote after the same sequence (rampart explore): its pool, side and network as
 * quoted, its status by the precedence rejected > consumed > expired > active, whether it was consumed or
 * rejected; the id by the quote it names. Prices, amounts and times are each side's own (related within a side).
 */
export const STORED_QUOTE_RELATIONS: ResourceRelations = {
  requirement: 'POOLS-SQ-SHAPE',
  fields: {
    quoteId: ref('POOLS-SQ-SHAPE'),
    poolId: same('POOLS-SQ-SHAPE'),
    // The pair's spelling is open (pools.pool.pair: EUR-USDT, EUR/USDT, EURUSDT): each side writes it its one way.
    pair: stable('POOLS-SQ-SHAPE'),
    side: same('POOLS-SQ-SHAPE'),
    cryptoNetwork: same('POOLS-SQ-SHAPE'),
    status: same('POOLS-SQ-PRECEDENCE'),
  },
};

/**
 * Two answers about one trade after the same sequence: the quote it came from, its pool, side, legs and network,
 * its status as the transitions (transact, polls, a chosen outcome) moved it; the id by the trade it names.
 */
export const TRADE_RELATIONS: ResourceRelations = {
  requirement: 'POOLS-TRADES-SHAPE',
  fields: {
    transactId: ref('POOLS-TRADES-SHAPE'),
    quoteId: ref('POOLS-TRADES-SHAPE'),
    poolId: same('POOLS-TRADES-SHAPE'),
    // The pair's spelling is open (pools.pool.pair): each side writes it its one way in every answer.
    pair: stable('POOLS-TRADES-SHAPE'),
    side: same('POOLS-TRADES-SHAPE'),
    fiatCurrency: same('POOLS-TRADES-SHAPE'),
    cryptoCurrency: same('POOLS-TRADES-SHAPE'),
    cryptoNetwork: same('POOLS-TRADES-SHAPE'),
    status: same('POOLS-POLL-STATUS'),
  },
};

/** The transact answer: the trade and the quote it names, reserved (fields beyond these three are not shown). */
export const TRANSACT_RELATIONS: ResourceRelations = {
  requirement: 'POOLS-TX-RESERVED',
  fields: { transactId: ref('POOLS-TX-REPLAY-SAME-TRADE'), quoteId: ref('POOLS-TX-RESERVED'), status: same('POOLS-TX-RESERVED') },
};
