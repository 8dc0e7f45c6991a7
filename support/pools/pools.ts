// Helpers shared by the pools conformance suites: quote bodies from the
// profile, firm quote + transact, exact decimal arithmetic, settlement polling
// and shape-agnostic ledger and webhook matching (their shapes are not shown).
// Lives in a subfolder so the suite loader does not take it for a suite.
import type { ApiClient, Exchange } from '../../src/client/types.js';
import type { PoolsActor } from '../../src/needs/define.js';
import type { TradeOutcome } from '../../src/needs/pools/tradeOutcome.js';
import type { CheckTools, RequirementId } from '../../src/runner/check.js';
import {
  FirmQuote,
  LEDGER_ENTRY_TYPES,
  PollResponse,
  TERMINAL_TRADE_STATUSES,
  Trade,
  TransactResponse,
  type Balance,
  Capabilities,
} from '../../src/model/schemas/pools/index.js';
import { Balance as BalanceSchema } from '../../src/model/schemas/pools/index.js';
import type { ReceivedEvent } from '../../src/webhooks/types.js';
import { verifyGateSignature } from '../../src/webhooks/verify.js';
import { CLOCK_BOUNDS, POOLS_LIMITS } from '../../src/model/limits.js';
import { expect2xx } from '../expect.js';
import { clockNote, expectOnTargetClock, spanOf, stampCreated, type TimeRule } from '../targetTime.js';
import { expectPoolsError } from './errors.js';
import { entryKey, ledgerPaging } from './ledger.js';

export function poolsProfile(t: Pick<CheckTools, 'profile' | 'skip'>) {
  const p = t.profile.pools;
  if (!p) t.skip('the profile has no pools section');
  return p;
}

export function mainPool(t: Pick<CheckTools, 'profile' | 'skip'>): string {
  return poolsProfile(t).pools.main;
}

/** A valid on_ramp quote body for the main pool, with single fields overridden (undefined removes one). */
export function quoteBody(t: Pick<CheckTools, 'profile' | 'skip'>, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const base: Record<string, unknown> = { side: 'on_ramp', ...poolsProfile(t).quote };
  delete base.$comment;
  for (const [k, v] of Object.entries(overrides)) {
    if (v === undefined) delete base[k];
    else base[k] = v;
  }
  return base;
}

export const poolPath = (pool: string, rest: string) => `/pools/${encodeURIComponent(pool)}${rest}`;
export const quotePath = (quoteId: string, rest = '') => `/pools/quotes/${encodeURIComponent(quoteId)}${rest}`;
export const pollPath = (quoteId: string) => `/pools/transactions/${encodeURIComponent(quoteId)}`;
export const tradePath = (transactId: string) => `/pools/trades/${encodeURIComponent(transactId)}`;

export interface FirmQuoteResult {
  exchange: Exchange;
  quote: FirmQuote;
  /** rampart's clock (ms) when the request left (after any pacing): the quote was made after it. */
  sentAt: number;
  /** rampart's clock (ms) when its answer came: the quote was made before it. */
  answeredAt: number;
}

/** Create a firm quote on the main pool; fails the check unless a firm quote comes back (success status not shown: any 2xx). */
export async function createFirmQuote(
  t: CheckTools,
  actor: PoolsActor,
  requirement: RequirementId,
  overrides: Record<string, unknown> = {},
): Promise<FirmQuoteResult> {
  const exchange = await actor.client.post(poolPath(mainPool(t), '/quote'), quoteBody(t, { type: 'firm', ...overrides }));
  expect2xx(t, exchange, requirement, 'a firm quote');
  const quote = t.expect.schema(exchange, FirmQuote, requirement);
  return { exchange, quote, sentAt: exchange.startedAt, answeredAt: exchange.startedAt + exchange.durationMs };
}

export interface Reserved {
  exchange: Exchange;
  transactId: string;
  quoteId: string;
  idempotencyKey: string;
}

/** Transact a quote with a fresh (or the given) Idempotency-Key; fails the check unless a reserved trade comes back. */
export async function transact(
  t: CheckTools,
  actor: PoolsActor,
  quoteId: string,
  requirement: RequirementId,
  idempotencyKey: string | true = true,
): Promise<Reserved> {
  const exchange = await actor.client.post(poolPath(mainPool(t), '/transact'), { quoteId }, { idempotencyKey });
  expect2xx(t, exchange, requirement, 'transact');
  const r = t.expect.schema(exchange, TransactResponse, requirement);
  t.expect.equal(r.quoteId, quoteId, 'transact response quoteId is the quote transacted', { requirement, exchange });
  return { exchange, transactId: r.transactId, quoteId, idempotencyKey: exchange.request.idempotencyKey ?? String(idempotencyKey) };
}

/** Firm quote (the profile's body with `overrides`) then transact: a reserved trade. */
export async function reservedTrade(
  t: CheckTools,
  actor: PoolsActor,
  requirement: RequirementId,
  overrides: Record<string, unknown> = {},
): Promise<Reserved & { quote: FirmQuote }> {
  const { quote } = await createFirmQuote(t, actor, requirement, overrides);
  const r = await transact(t, actor, quote.quoteId, requirement);
  return { ...r, quote };
}

export async function readTrade(t: CheckTools, actor: PoolsActor, transactId: string, requirement: RequirementId): Promise<Trade> {
  const ex = expect2xx(t, await actor.client.get(tradePath(transactId)), requirement);
  return t.expect.schema(ex, Trade, requirement);
}

export async function poll(t: CheckTools, actor: PoolsActor, quoteId: string, requirement: RequirementId): Promise<string> {
  const ex = expect2xx(t, await actor.client.get(pollPath(quoteId)), requirement);
  return t.expect.schema(ex, PollResponse, requirement).status;
}

/**
 * Poll without a trigger until the trade is terminal (bounded: 8 polls, 250 ms
 * apart): the poll alone advances settlement. Returns the statuses seen.
 */
export async function pollToTerminal(t: CheckTools, actor: PoolsActor, quoteId: string, requirement: RequirementId): Promise<string[]> {
  const seen: string[] = [];
  for (let i = 0; i < 8; i++) {
    seen.push(await poll(t, actor, quoteId, requirement));
    if (isTerminal(seen.at(-1)!)) break;
    await t.sleep(250, 'pools settlement poll', 'target');
  }
  return seen;
}

export const isTerminal = (s: string) => (TERMINAL_TRADE_STATUSES as readonly string[]).includes(s);

/**
 * Choose the outcome with the profile trigger, then poll until the wanted
 * status shows (bounded: 8 polls, 250 ms apart). Returns the statuses seen.
 */
export async function settleTo(
  t: CheckTools,
  choose: TradeOutcome,
  actor: PoolsActor,
  quoteId: string,
  outcome: 'settled' | 'failed' | 'released' | 'returned',
  requirement: RequirementId,
): Promise<string[]> {
  await choose(quoteId, outcome, actor);
  const seen: string[] = [];
  for (let i = 0; i < 8; i++) {
    const s = await poll(t, actor, quoteId, requirement);
    seen.push(s);
    if (s === outcome) return seen;
    // Only settled may still move on (to returned); any other terminal state is final.
    if (isTerminal(s) && !(outcome === 'returned' && s === 'settled')) break;
    await t.sleep(250, 'pools settlement poll', 'target');
  }
  t.expect.that(false, `polling GET /pools/transactions/{quoteId} reaches ${outcome} after the trigger chose it`, {
    requirement,
    expected: outcome,
    actual: seen.join(' → '),
  });
  return seen;
}

// Exact decimal arithmetic on decimal strings (money never goes through floats).
function scaled(s: string, scale: number): bigint {
  const neg = s.startsWith('-');
  const [i, f = ''] = (neg ? s.slice(1) : s).split('.');
  const v = BigInt(i! + f.padEnd(scale, '0').slice(0, scale));
  return neg ? -v : v;
}
const scaleOf = (s: string) => (s.split('.')[1] ?? '').length;

/** a − b as a canonical decimal string. */
export function decSub(a: string, b: string): string {
  const scale = Math.max(scaleOf(a), scaleOf(b));
  return fromScaled(scaled(a, scale) - scaled(b, scale), scale);
}
export function decAdd(a: string, b: string): string {
  const scale = Math.max(scaleOf(a), scaleOf(b));
  return fromScaled(scaled(a, scale) + scaled(b, scale), scale);
}
/** Numeric equality of two decimal strings ("100" equals "100.00"). */
export function decEq(a: string, b: string): boolean {
  const scale = Math.max(scaleOf(a), scaleOf(b));
  return scaled(a, scale) === scaled(b, scale);
}
/** −1, 0 or 1 as a is below, equal to or above b. */
export function decCmp(a: string, b: string): -1 | 0 | 1 {
  const scale = Math.max(scaleOf(a), scaleOf(b));
  const d = scaled(a, scale) - scaled(b, scale);
  return d < 0n ? -1 : d > 0n ? 1 : 0;
}
/** a × b, exact (the scale of the product is the sum of the scales). */
export function decMul(a: string, b: string): string {
  const sa = scaleOf(a);
  const sb = scaleOf(b);
  return fromScaled(scaled(a, sa) * scaled(b, sb), sa + sb);
}
/** A non-negative decimal rounded to `places` decimals, toward zero ('down') or away from it ('up'). */
export function decRound(a: string, places: number, mode: 'down' | 'up'): string {
  const s = scaleOf(a);
  if (s <= places) return fromScaled(scaled(a, places), places);
  const unit = 10n ** BigInt(s - places);
  const v = scaled(a, s);
  const q = v / unit;
  return fromScaled(mode === 'up' && q * unit !== v ? q + 1n : q, places);
}
/** How many whole times b goes into a (both non-negative, b > 0). */
export function decQuot(a: string, b: string): bigint {
  const scale = Math.max(scaleOf(a), scaleOf(b));
  return scaled(a, scale) / scaled(b, scale);
}
/** a ÷ b (both non-negative, b > 0) to `places` decimals, rounded toward zero ('down') or away from it ('up'). */
export function decDiv(a: string, b: string, places: number, mode: 'down' | 'up'): string {
  const scale = Math.max(scaleOf(a), scaleOf(b));
  const num = scaled(a, scale) * 10n ** BigInt(places);
  const den = scaled(b, scale);
  const q = num / den;
  return fromScaled(mode === 'up' && q * den !== num ? q + 1n : q, places);
}
/** a ÷ n (a positive integer), rounded toward zero to `places` decimals. */
export function decDivInt(a: string, n: number, places: number): string {
  return fromScaled(scaled(a, places) / BigInt(n), places);
}

/**
 * The all-in rate rule for on_ramp (output per input): cryptoAmount equals
 * fiatAmount × quotedRate computed exactly and rounded to cryptoAmount's own
 * decimal places. The spec fixes no rounding mode, so rounding either way
 * (toward zero or away from it: truncation, half-up and half-even all land on
 * one of the two) passes; nothing looser does. A spread-only rate misses by
 * the whole fee, thousands of units in the last place.
 */
export function allInRateHolds(fiatAmount: string, quotedRate: string, cryptoAmount: string): { ok: boolean; product: string; accepted: string[] } {
  const product = decMul(fiatAmount, quotedRate);
  const places = scaleOf(cryptoAmount);
  const accepted = [...new Set([decRound(product, places, 'down'), decRound(product, places, 'up')])];
  return { ok: accepted.some((x) => decEq(x, cryptoAmount)), product, accepted };
}
function fromScaled(v: bigint, scale: number): string {
  const neg = v < 0n;
  const digits = (neg ? -v : v).toString().padStart(scale + 1, '0');
  const out = scale ? `${digits.slice(0, -scale)}.${digits.slice(-scale)}` : digits;
  return neg ? `-${out}` : out;
}

/** GET capabilities of the profile's main pool: any 2xx (the success status is not shown), shaped as Capabilities. */
export async function readCapabilities(t: CheckTools, actor: PoolsActor, requirement: RequirementId): Promise<{ cap: Capabilities; exchange: Exchange }> {
  const exchange = expect2xx(t, await actor.client.get(poolPath(mainPool(t), '/capabilities')), requirement);
  return { cap: t.expect.schema(exchange, Capabilities, requirement), exchange };
}

export async function readBalance(t: CheckTools, actor: PoolsActor, requirement: RequirementId): Promise<Balance> {
  const ex = expect2xx(t, await actor.client.get(poolPath(mainPool(t), '/balance')), requirement);
  return t.expect.schema(ex, BalanceSchema, requirement);
}

/**
 * How the pools spec states a balance movement: by its direction, never by its amount. A reject moves "no money"
 * ('none'); a reservation draws on the pre-funded balance ('down'); a refund, an unwound reservation or a pay-in
 * credits it ('up'). How much a move is (a draw fee, a bank fee, a refund net of either) is not stated: it is
 * observed beside the amount of the trade or pay-in it concerns, never judged against it.
 */
export type BalanceDirection = 'none' | 'down' | 'up';

/** Judge a measured move (`after` − `before`) by its stated direction and observe how much it was. */
export function expectMoveDirection(
  t: CheckTools,
  requirement: RequirementId,
  what: string,
  move: { before: string; after: string; direction: BalanceDirection; amount?: string },
): string {
  const moved = decSub(move.after, move.before);
  const sign = decCmp(moved, '0');
  const wanted = { none: 0, down: -1, up: 1 }[move.direction];
  t.expect.that(sign === wanted, `${what}: the balance ${move.direction === 'none' ? 'does not move' : `goes ${move.direction}`}`, {
    requirement,
    expected: move.direction === 'none' ? 'no move' : `a move ${move.direction}`,
    actual: `${move.before} → ${move.after} (moved ${moved})`,
  });
  if (move.direction !== 'none')
    t.observe(
      'pools-balance-move',
      { what, moved, ...(move.amount !== undefined ? { amount: move.amount, exactlyTheAmount: decEq(moved.replace(/^-/, ''), move.amount) } : {}) },
      'the spec states the direction of a balance move, not its amount',
    );
  return moved;
}

/**
 * Measure how the balance moves around `action` and judge it by the direction the action returns (expectMoveDirection).
 * Partners are shared between concurrent checks, so a move that should be none and is not is measured again (at most
 * `attempts` times, each with a fresh action) before it fails the check. The signed move measured, and what the action gave.
 */
export async function expectBalanceMove<T = undefined>(
  t: CheckTools,
  actor: PoolsActor,
  requirement: RequirementId,
  what: string,
  attempts: number,
  action: () => Promise<{ direction: BalanceDirection; amount?: string; result: T }>,
): Promise<{ moved: string; result: T }> {
  for (let i = 0; ; i++) {
    const before = await readBalance(t, actor, requirement);
    t.expect.that(before.balance !== null, 'a funded partner with the balance gate on has a decimal balance', { requirement, actual: before.balance });
    const { direction, amount, result } = await action();
    const after = await readBalance(t, actor, requirement);
    const moved = decSub(after.balance!, before.balance!);
    if (direction !== 'none' || decEq(moved, '0') || i + 1 >= attempts)
      return { moved: expectMoveDirection(t, requirement, what, { before: before.balance!, after: after.balance!, direction, amount }), result };
    t.observe('pools-balance-remeasure', { attempt: i + 1, what, moved }, 'a concurrent check may share this partner');
    // Back off so a burst of another check's trades on this partner passes first.
    await t.sleep(100 * 2 ** i, 'balance re-measure after concurrent activity', 'harness');
  }
}

/** Every object inside a JSON value (depth first), for shape-agnostic searches. */
function* objectsIn(v: unknown): Generator<Record<string, unknown>> {
  if (Array.isArray(v)) for (const x of v) yield* objectsIn(x);
  else if (v && typeof v === 'object') {
    yield v as Record<string, unknown>;
    for (const x of Object.values(v)) yield* objectsIn(x);
  }
}

export interface LedgerMatch {
  entry: Record<string, unknown>;
  /** Documented entry type names among the entry's string values. */
  typeNames: string[];
}

/** How many ledger pages a search follows (the ledger is cursor-paginated; its query is not shown). */
const LEDGER_MAX_PAGES = 5;

/**
 * Ledger entries tied to a trade, with the documented entry type names found
 * among their string values: those that mention any of `ids`, and — for a
 * partner held alone, given the entry keys `known` before the trade moved —
 * every entry of the list that is new since then (nothing else moved this
 * ledger). The ledger's query parameters and response shape are not shown, so
 * this reads page one and searches it, then follows the next cursor it finds (in
 * the profile's declared words, else the trades list's: `nextCursor`, `?cursor=`)
 * while the target accepts it, up to LEDGER_MAX_PAGES pages.
 */
export async function ledgerEntriesFor(
  t: CheckTools,
  actor: PoolsActor,
  ids: string[],
  requirement: RequirementId,
  known?: ReadonlySet<string>,
): Promise<{ exchange: Exchange; entries: LedgerMatch[] }> {
  const paging = ledgerPaging(t.profile);
  const exchange = expect2xx(t, await actor.client.get('/pools/ledger'), requirement, 'GET /pools/ledger');
  const entries: LedgerMatch[] = [];
  const typeNames = (o: Record<string, unknown>) =>
    Object.values(o).filter((x): x is string => typeof x === 'string' && (LEDGER_ENTRY_TYPES as readonly string[]).includes(x));
  const search = (json: unknown) => {
    const listed = paging.entries(json) ?? [];
    for (const o of objectsIn(json)) {
      const values = Object.values(o).filter((x): x is string => typeof x === 'string');
      const fresh = known !== undefined && listed.includes(o) && !known.has(entryKey(o));
      if (!fresh && !values.some((x) => ids.includes(x))) continue;
      entries.push({ entry: o, typeNames: typeNames(o) });
    }
  };
  search(exchange.json);
  let page: unknown = exchange.json;
  for (let i = 1; i < LEDGER_MAX_PAGES; i++) {
    const next = paging.next(page);
    if (!next) break;
    const ex = await actor.client.get('/pools/ledger', { [paging.cursorParam]: next });
    if (ex.status < 200 || ex.status >= 300) break;
    search(ex.json);
    page = ex.json;
  }
  return { exchange, entries };
}

/**
 * Read the ledger until `done` holds for the entries that name the trade
 * (bounded: `waitMs` of target time, 500 ms apart). The ledger may write an
 * entry later than the move it records, so one read is never the verdict.
 */
export async function awaitLedger(
  t: CheckTools,
  actor: PoolsActor,
  ids: string[],
  requirement: RequirementId,
  done: (entries: LedgerMatch[]) => boolean,
  waitMs: number,
  known?: ReadonlySet<string>,
): Promise<{ exchange: Exchange; entries: LedgerMatch[]; reads: number }> {
  const deadline = Date.now() + waitMs;
  for (let reads = 1; ; reads++) {
    const got = await ledgerEntriesFor(t, actor, ids, requirement, known);
    if (done(got.entries) || Date.now() >= deadline) return { ...got, reads };
    await t.sleep(500, 'pools ledger to record the trade', 'target');
  }
}

/** A received webhook belongs to a trade when its raw body names the trade or its quote (payload shape is not shown). */
export function eventMentions(e: ReceivedEvent, ids: string[]): boolean {
  const body = e.rawBody.toString('utf8');
  return ids.some((id) => body.includes(id));
}

/**
 * Whether the Gate recipe verifies a pools delivery with the partner's
 * webhookSecret, computed here: the receiver judges pools deliveries only when
 * the profile declares the recipe (pools.webhookSignature), so its own verdict
 * says nothing otherwise. For observations; the pools recipe is not shown.
 */
export function gateRecipeVerdict(e: ReceivedEvent, webhookSecret: string | undefined): { ok: boolean; reason?: string } {
  const header = e.headers['gate-signature'];
  return verifyGateSignature({ rawBody: e.rawBody, header, secrets: webhookSecret ? [webhookSecret] : [], nowSeconds: Math.floor(e.arrivedAt / 1000) });
}

/** The event type of a pools delivery: the receiver's reading (envelope or X-*-Event-Type header). */
export function eventTypeOf(e: ReceivedEvent): string | undefined {
  if (e.eventType) return e.eventType;
  const h = Object.entries(e.headers).find(([k]) => /^x-[a-z0-9]+-event-type$/i.test(k));
  return h?.[1];
}

/** Margin past the spec's TTL and its tolerance before a quote must read expired (network time of the request). */
const PAST_EXPIRY_MARGIN_MS = 500;

/**
 * Sleep until a firm quote is past the spec's TTL (about 15 s:
 * POOLS_LIMITS.quoteTtlSeconds) plus the profile's bounded tolerance, counted
 * from its answer (it was made before that; a duration, so no clock enters).
 * Never the target's expiresAt: a quote that lives longer than the spec says
 * must show as not expired here.
 */
export async function waitPastExpiry(t: CheckTools, fq: FirmQuoteResult): Promise<void> {
  const until = fq.answeredAt + (POOLS_LIMITS.quoteTtlSeconds + t.profile.tolerances.quoteTtlSeconds) * 1000 + PAST_EXPIRY_MARGIN_MS;
  await t.sleep(Math.max(0, until - Date.now()), 'pools firm quote TTL (spec, plus tolerance)', 'target');
}

/** A firm quote's lifetime in seconds, as closely as it can be known: low = high when measured pairwise. */
export interface QuoteLifetime {
  low: number;
  high: number;
  /** createdAt: the stored quote's own pair (one clock, exact); clock: expiresAt against the target's clock while the quote was made. */
  basis: 'createdAt' | 'clock';
}

/** The lifetime is within `tol` of `ttl` seconds (some value the measure allows is). */
export const lifetimeNear = (life: QuoteLifetime, ttl: number, tol: number) => life.high >= ttl - tol && life.low <= ttl + tol;

export function describeLifetime(life: QuoteLifetime, client: ApiClient): string {
  return life.basis === 'createdAt'
    ? `${life.low.toFixed(2)} s (expiresAt − the stored createdAt)`
    : `${life.low.toFixed(2)}–${life.high.toFixed(2)} s (expiresAt − the request, on the ${clockNote(client)})`;
}

/** The firm quote TTL judged on the target's clock, with the uncertainty it affords. */
const quoteTtlRule = (requirement: RequirementId): TimeRule => ({ requirement, bound: CLOCK_BOUNDS.poolsQuoteTtl });

/**
 * A firm quote's lifetime: expiresAt − createdAt of the stored quote (both the target's clock, so no clock
 * enters), or, when the stored quote carries no parseable createdAt, expiresAt against the target's clock
 * while the creating request was in flight (a span as wide as the round trip and the clock's uncertainty).
 * The createdAt, stamped while the quote was made, is also a sample of the target's own clock.
 */
export async function quoteLifetime(t: CheckTools, actor: PoolsActor, fq: FirmQuoteResult, requirement: RequirementId): Promise<QuoteLifetime> {
  const read = expect2xx(t, await actor.client.get(quotePath(fq.quote.quoteId)), requirement);
  const stamped = (read.json as { createdAt?: unknown } | undefined)?.createdAt;
  stampCreated(actor.client, fq.exchange, stamped);
  const createdAt = Date.parse(String(stamped));
  const expiresAt = Date.parse(fq.quote.expiresAt);
  if (!Number.isNaN(createdAt)) return { low: (expiresAt - createdAt) / 1000, high: (expiresAt - createdAt) / 1000, basis: 'createdAt' };
  const made = spanOf(t, actor.client, fq.exchange, quoteTtlRule(requirement));
  return { low: (expiresAt - made.high) / 1000, high: (expiresAt - made.low) / 1000, basis: 'clock' };
}

/**
 * expiresAt is the spec's TTL (± the profile's bounded tolerance) after the quote was made: exact from the
 * stored createdAt; on the target's clock otherwise, judged only with the clock known within a second (or half
 * the tolerance when that is tighter) — a wider clock could hide a lifetime the tolerance does not allow.
 */
export function expectQuoteLifetime(t: CheckTools, client: ApiClient, life: QuoteLifetime, requirement: RequirementId, exchange: Exchange): void {
  const ttl = POOLS_LIMITS.quoteTtlSeconds;
  const tol = t.profile.tolerances.quoteTtlSeconds;
  const message = `expiresAt is the spec's TTL (${ttl} s ± ${tol} s) after the quote was made`;
  if (life.basis === 'createdAt') {
    t.expect.that(lifetimeNear(life, ttl, tol), message, { requirement, expected: `${ttl} ± ${tol} s`, actual: describeLifetime(life, client), exchange });
    return;
  }
  const rule = quoteTtlRule(requirement);
  expectOnTargetClock(t, client, rule, life, { min: ttl - tol, max: ttl + tol }, message, {
    expected: `${ttl} ± ${tol} s`,
    exchange,
    maxUncertaintyMs: Math.min(rule.bound.maxUncertaintyMs, (tol * 1000) / 2),
  });
}

/** A documented error whose `type` the spec does not map (402, 501): status and envelope asserted, the type observed. */
export function expectUntypedError(t: CheckTools, ex: Exchange, status: number, requirement: RequirementId): void {
  expectPoolsError(t, ex, status, { requirement });
}

/**
 * An id shaped like one the target issued (same length and characters) that
 * names nothing: the last character swapped for another one the id uses. A
 * target that validates its id format still reads it as unknown (404), never
 * as malformed.
 */
export function unknownLike(id: string): string {
  const last = id.at(-1)!;
  const other = [...id].reverse().find((c) => c !== last && /[A-Za-z0-9]/.test(c)) ?? (last === '0' ? '1' : '0');
  return id.slice(0, -1) + other;
}

/**
 * The cheapest on_ramp order the main pool takes, for checks that create many
 * trades: the pool's minOrderUsdt in fiat (through a firm quote's rate, when
 * the pool's crypto leg is USDT) with a 5 % margin, or the profile's quote
 * amount when that is smaller, the bound cannot be converted, or the target
 * refuses the smaller order.
 */
export async function cheapOrderAmount(
  t: CheckTools,
  actor: PoolsActor,
  requirement: RequirementId,
): Promise<{ amount: string; minOrderUsdt: string; maxOrderUsdt: string }> {
  const profileAmount = poolsProfile(t).quote.amount;
  const { cap } = await readCapabilities(t, actor, requirement);
  const out = { amount: profileAmount, minOrderUsdt: cap.minOrderUsdt, maxOrderUsdt: cap.maxOrderUsdt };
  if (cap.cryptoCurrency.toUpperCase() !== 'USDT') return out;
  const { quote } = await createFirmQuote(t, actor, requirement);
  if (decCmp(quote.rate, '0') <= 0) return out;
  const small = decRound(decMul(decDiv(cap.minOrderUsdt, quote.rate, 6, 'up'), '1.05'), 2, 'up');
  if (decCmp(small, profileAmount) >= 0) return out;
  const probe = await actor.client.post(poolPath(mainPool(t), '/quote'), quoteBody(t, { type: 'firm', amount: small }), { retry: false });
  if (probe.status < 200 || probe.status >= 300 || probe.json?.executable !== true) return out;
  return { ...out, amount: small };
}
