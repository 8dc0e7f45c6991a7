// Helpers shared by the pools conformance suites: quote bodies from the
// profile, firm quote + transact, exact decimal arithmetic, settlement polling
// and shape-agnostic ledger and webhook matching (their shapes are not shown).
// Lives in a subfolder so the suite loader does not take it for a suite.
import type { Exchange } from '../../src/client/types.js';
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
} from '../../src/model/schemas/pools/index.js';
import { Balance as BalanceSchema } from '../../src/model/schemas/pools/index.js';
import type { ReceivedEvent } from '../../src/webhooks/types.js';
import { ErrorEnvelope } from '../../src/model/schemas/common.js';
import { POOLS_LIMITS } from '../../src/model/limits.js';

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
  /** Client clock (ms) when the request was sent. */
  sentAt: number;
}

/** Create a firm quote on the main pool; fails the check unless it is a 200/201 firm quote. */
export async function createFirmQuote(
  t: CheckTools,
  actor: PoolsActor,
  requirement: RequirementId,
  overrides: Record<string, unknown> = {},
): Promise<FirmQuoteResult> {
  const sentAt = Date.now();
  const exchange = await actor.client.post(poolPath(mainPool(t), '/quote'), quoteBody(t, { type: 'firm', ...overrides }));
  t.expect.status(exchange, [200, 201], requirement);
  const quote = t.expect.schema(exchange, FirmQuote, requirement);
  return { exchange, quote, sentAt };
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
  t.expect.status(exchange, [200, 201], requirement);
  const r = t.expect.schema(exchange, TransactResponse, requirement);
  t.expect.equal(r.quoteId, quoteId, 'transact response quoteId is the quote transacted', { requirement, exchange });
  return { exchange, transactId: r.transactId, quoteId, idempotencyKey: exchange.request.idempotencyKey ?? String(idempotencyKey) };
}

/** Firm quote then transact: a reserved trade. */
export async function reservedTrade(t: CheckTools, actor: PoolsActor, requirement: RequirementId): Promise<Reserved & { quote: FirmQuote }> {
  const { quote } = await createFirmQuote(t, actor, requirement);
  const r = await transact(t, actor, quote.quoteId, requirement);
  return { ...r, quote };
}

export async function readTrade(t: CheckTools, actor: PoolsActor, transactId: string, requirement: RequirementId): Promise<Trade> {
  const ex = t.expect.status(await actor.client.get(tradePath(transactId)), 200, requirement);
  return t.expect.schema(ex, Trade, requirement);
}

export async function poll(t: CheckTools, actor: PoolsActor, quoteId: string, requirement: RequirementId): Promise<string> {
  const ex = t.expect.status(await actor.client.get(pollPath(quoteId)), 200, requirement);
  return t.expect.schema(ex, PollResponse, requirement).status;
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
function fromScaled(v: bigint, scale: number): string {
  const neg = v < 0n;
  const digits = (neg ? -v : v).toString().padStart(scale + 1, '0');
  const out = scale ? `${digits.slice(0, -scale)}.${digits.slice(-scale)}` : digits;
  return neg ? `-${out}` : out;
}

export async function readBalance(t: CheckTools, actor: PoolsActor, requirement: RequirementId): Promise<Balance> {
  const ex = t.expect.status(await actor.client.get(poolPath(mainPool(t), '/balance')), 200, requirement);
  return t.expect.schema(ex, BalanceSchema, requirement);
}

/**
 * Measure how much the balance moves around `action`. Partners are shared
 * between concurrent checks, so a mismatch is measured again (at most
 * `attempts` times, each with a fresh action) before it fails the check.
 */
export async function expectBalanceMove(
  t: CheckTools,
  actor: PoolsActor,
  requirement: RequirementId,
  what: string,
  attempts: number,
  action: () => Promise<{ expectedDelta: string; afterAction?: () => Promise<void> }>,
): Promise<void> {
  let last = '';
  for (let i = 0; i < attempts; i++) {
    const before = await readBalance(t, actor, requirement);
    t.expect.that(before.balance !== null, 'a funded partner with the balance gate on has a decimal balance', { requirement, actual: before.balance });
    const { expectedDelta } = await action();
    const after = await readBalance(t, actor, requirement);
    const delta = decSub(after.balance!, before.balance!);
    if (decEq(delta, expectedDelta)) return;
    last = `balance ${before.balance} → ${after.balance} (moved ${delta}, expected ${expectedDelta})`;
    t.observe('pools-balance-remeasure', { attempt: i + 1, what, moved: delta, expected: expectedDelta }, 'a concurrent check may share this partner');
    // Back off so a burst of another check's trades on this partner passes first.
    if (i + 1 < attempts) await t.sleep(100 * 2 ** i, 'balance re-measure after concurrent activity', 'harness');
  }
  t.expect.that(false, `${what}: the balance moves by exactly the expected amount`, { requirement, actual: last });
}

/** Every object inside a JSON value (depth first), for shape-agnostic searches. */
function* objectsIn(v: unknown): Generator<Record<string, unknown>> {
  if (Array.isArray(v)) for (const x of v) yield* objectsIn(x);
  else if (v && typeof v === 'object') {
    yield v as Record<string, unknown>;
    for (const x of Object.values(v)) yield* objectsIn(x);
  }
}

/**
 * Ledger entries that mention any of `ids`, with the documented entry type
 * names found among their string values. The ledger's query parameters and
 * response shape are not shown, so this reads page one and searches it.
 */
export async function ledgerEntriesFor(
  t: CheckTools,
  actor: PoolsActor,
  ids: string[],
  requirement: RequirementId,
): Promise<{ exchange: Exchange; entries: { entry: Record<string, unknown>; typeNames: string[] }[] }> {
  const exchange = t.expect.status(await actor.client.get('/pools/ledger'), 200, requirement);
  const entries: { entry: Record<string, unknown>; typeNames: string[] }[] = [];
  for (const o of objectsIn(exchange.json)) {
    const values = Object.values(o).filter((x): x is string => typeof x === 'string');
    if (!values.some((x) => ids.includes(x))) continue;
    entries.push({ entry: o, typeNames: values.filter((x) => (LEDGER_ENTRY_TYPES as readonly string[]).includes(x)) });
  }
  return { exchange, entries };
}

/** A received webhook belongs to a trade when its raw body names the trade or its quote (payload shape is not shown). */
export function eventMentions(e: ReceivedEvent, ids: string[]): boolean {
  const body = e.rawBody.toString('utf8');
  return ids.some((id) => body.includes(id));
}

/** The event type of a pools delivery: the receiver's reading (envelope or X-*-Event-Type header). */
export function eventTypeOf(e: ReceivedEvent): string | undefined {
  if (e.eventType) return e.eventType;
  const h = Object.entries(e.headers).find(([k]) => /^x-[a-z0-9]+-event-type$/i.test(k));
  return h?.[1];
}

/** Sleep until a firm quote is past its expiry by the server's expiresAt and by the spec's TTL (about 15 s), plus the profile's tolerance. */
export async function waitPastExpiry(t: CheckTools, fq: FirmQuoteResult): Promise<void> {
  const tol = t.profile.tolerances.quoteTtlSeconds * 1000;
  const until = Math.max(Date.parse(fq.quote.expiresAt), fq.sentAt + POOLS_LIMITS.quoteTtlSeconds * 1000) + tol + 250;
  await t.sleep(Math.max(0, until - Date.now()), 'pools firm quote TTL', 'target');
}

/**
 * A documented error whose `type` the spec does not map (402, 501): the
 * status, the envelope and X-Request-Id are asserted; the type is observed.
 */
export function expectUntypedError(t: CheckTools, ex: Exchange, status: number, requirement: RequirementId): void {
  t.expect.status(ex, status, requirement);
  const env = t.expect.schema(ex, ErrorEnvelope, requirement);
  t.expect.equal(env.statusCode, status, 'statusCode mirrors the HTTP status', { requirement, exchange: ex });
  t.expect.equal(ex.requestId, env.request_id, 'X-Request-Id header equals request_id', { requirement, exchange: ex });
  t.observe(`pools-error-type-${status}`, { type: env.type, code: env.code }, `the spec names no type for ${status}`);
}
