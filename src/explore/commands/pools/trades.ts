// Pools trades explored: transact (a new key, the same key again, the same key with another quote), the status
// poll that advances settlement, the sandbox's choice of outcome, the pure trade reads, the trades list with its
// filters and cursor, and the balance's direction after each of them.
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import type { RequirementId } from '../../../model/catalogue/index.js';
import { TRADE_RELATIONS, TRANSACT_RELATIONS } from '../../../model/schemas/pools/resources.js';
import { holds, sameAsBefore, sameFields, sameOutcome } from '../../divergence.js';
import { live, nameOf, pick, type ExploreModel, type QuoteTwin, type Side, type TradeTwin } from '../../model.js';
import type { Real } from '../../real.js';
import { ExploreCommand, FEW, bodyOf, objectIndex } from '../command.js';
import { walkList } from '../lists.js';
import { readBalance } from './balance.js';
import { pollOnce } from './polls.js';
import { quoteState, requestFirmQuote, usableQuotes } from './quotes.js';

const SIDES: Side[] = ['target', 'oracle'];
const transactPath = (pool: string) => `/pools/${encodeURIComponent(pool)}/transact`;

const FILTERS = ['none', 'reserved', 'settled', 'released', 'failed', 'returned', 'on_ramp'] as const;
type TradeFilter = (typeof FILTERS)[number];
/**
 * What a step that moves a trade or money reads back besides what it always reads (the balance after a step that may
 * move money, the lists of the status a trade left and the one it reached): the trade, the balance before as well
 * (what a read kept from before the move must not outlive it), or another trades list.
 */
export type TradeReadBack = 'none' | 'get' | 'balance around' | `list ${TradeFilter}`;
const thenLabel = (then: TradeReadBack) =>
  then === 'none'
    ? ''
    : then === 'get'
      ? ', then read the trade'
      : then === 'balance around'
        ? ', reading the balance before and after'
        : `, then ${listLabel(then.slice(5) as TradeFilter)}`;

async function readBefore(m: ExploreModel, r: Real, then: TradeReadBack): Promise<void> {
  if (then === 'balance around' && m.can.poolsBalance) await readBalance(m, r);
}

/**
 * Every step that may move money reads the balance after it; a trade whose status moved is looked for in the list of
 * the status it left (gone) and of the one it reached (there): a counter, a cache or an index one path forgets shows.
 */
async function readBack(m: ExploreModel, r: Real, t: TradeTwin | undefined, then: TradeReadBack, from?: TradeTwin['state']): Promise<void> {
  if (m.can.poolsBalance) await readBalance(m, r);
  if (t && from && from !== t.state && !t.parted) {
    await listTrades(m, r, from);
    await listTrades(m, r, t.state);
  }
  if (then === 'get' && t) await readTrade(m, r, t);
  if (then.startsWith('list ') && live(m.trades).length) await listTrades(m, r, then.slice(5) as TradeFilter);
}

/** Transact under a new key: an active quote becomes a reserved trade; a consumed one answers the trade or 409 (both documented); a rejected or expired one 409. */
export class Transact extends ExploreCommand {
  constructor(
    readonly index: number,
    readonly then: TradeReadBack = 'none',
    /** Request a new firm quote first and transact it (a buy as a partner makes one), rather than a quote of the sequence's. */
    readonly fresh = false,
  ) {
    super();
  }
  override opens(): boolean {
    return this.fresh;
  }
  applies(m: Readonly<ExploreModel>): boolean {
    return m.can.pools && (this.fresh ? live(m.quotes).length < FEW : usableQuotes(m).length > 0);
  }
  private quote(m: Readonly<ExploreModel>): QuoteTwin {
    return pick(usableQuotes(m), this.index)!;
  }
  label(m: ExploreModel): string {
    if (this.fresh) return `request a firm quote, then transact it${thenLabel(this.then)}`;
    const q = this.quote(m);
    return `transact ${q.name} (${quoteState(m, q).state}) under a new key${thenLabel(this.then)}`;
  }
  async act(m: ExploreModel, r: Real): Promise<void> {
    await readBefore(m, r, this.then);
    const q = this.fresh ? await requestFirmQuote(m, r) : this.quote(m);
    if (!q) return;
    const { state } = quoteState(m, q);
    const key = randomUUID();
    const ex = await r.both((side) => r.pools(side).post(transactPath(r.context.pools!.pool), { quoteId: q.id[side] }, { idempotencyKey: key }));
    const byState: Record<QuoteTwin['state'], RequirementId> = {
      active: 'POOLS-TX-RESERVED',
      consumed: 'POOLS-TX-OTHER-KEY-SAME-QUOTE',
      rejected: 'POOLS-SQ-TRANSACT-REJECTED-409',
      expired: 'POOLS-TTL-TRANSACT-AFTER-EXPIRY-409',
    };
    // The target's balance is its own: a 402 there while the oracle reserves says nothing the profile could tell.
    if (state === 'active' && ex.target.status === 402 && ex.oracle.status < 300) {
      q.parted = 'the target refused the reserve for its balance (402), which the oracle cannot know';
      return;
    }
    const reading = sameOutcome(r, ex, {
      requirement: { '2xx': byState[state], 409: byState[state], 402: 'POOLS-TX-INSUFFICIENT-402' },
      // Endpoint rule 3 (the existing trade) against the quote state table (409), for a consumed quote under a new key.
      readings: state === 'consumed' ? [['2xx', 409]] : undefined,
    });
    if (reading) r.observe('POOLS-TX-OTHER-KEY-SAME-QUOTE', reading);
    const b = { target: bodyOf(ex.target), oracle: bodyOf(ex.oracle) };
    if (state === 'consumed' && ex.target.status < 300) {
      // The existing trade: the one this sequence made of the quote.
      holds(r, !(nameOf(m, 'target', b.target.transactId) !== q.trade), 'POOLS-TX-OTHER-KEY-SAME-QUOTE', () => ({
        what: `the trade a second key gets for ${q.name}`,
        target: b.target.transactId,
        oracle: q.trade,
      }));
    }
    if (state === 'consumed') {
      // Either reading answers the one trade there is: no money moves.
      m.balance.since.add('other-key');
      return readBack(
        m,
        r,
        m.trades.find((t) => t.name === q.trade),
        this.then,
      );
    }
    if (ex.oracle.status >= 300) return;
    sameFields(r, m, TRANSACT_RELATIONS, b, { what: `the trade of ${q.name}` });
    const name = `trade#${m.trades.length + 1}`;
    m.trades.push({
      name,
      id: { target: String(b.target.transactId), oracle: String(b.oracle.transactId) },
      state: 'reserved',
      movedBy: 'POOLS-TX-RESERVED',
      madeAt: Date.now(),
      quote: q.name,
      idempotencyKey: key,
      created: b,
    });
    q.state = 'consumed';
    q.movedBy = 'POOLS-TX-QUOTE-CONSUMED';
    q.trade = name;
    m.balance.since.add('reserve');
    await readBack(m, r, m.trades.at(-1), this.then);
  }
}

abstract class OnTrade extends ExploreCommand {
  constructor(
    readonly index: number,
    /** What the step reads back after it (steps that only read never do). */
    readonly then: TradeReadBack = 'none',
  ) {
    super();
  }
  /** The step's precondition on the trade it picked. */
  protected when(_t: TradeTwin, _m: Readonly<ExploreModel>): boolean {
    return true;
  }
  applies(m: Readonly<ExploreModel>): boolean {
    const t = m.can.pools ? this.choose(live(m.trades), this.index) : undefined;
    return !!t && this.when(t, m);
  }
  protected twin(m: Readonly<ExploreModel>): TradeTwin {
    return this.choose(live(m.trades), this.index)!;
  }
  label(m: ExploreModel): string {
    const t = this.twin(m);
    return `${this.verb} ${t.name} (${t.state})${thenLabel(this.then)}`;
  }
  protected abstract readonly verb: string;
  protected quoteOf(m: Readonly<ExploreModel>, t: TradeTwin): QuoteTwin {
    return m.quotes.find((q) => q.name === t.quote)!;
  }
}

/**
 * The same key and body again: the existing trade. The spec shows transactId, quoteId and status for transact, and a
 * replay may answer the original response or the trade as it is now (pools.transact.replay): its status is either.
 */
export class ReplayTransact extends OnTrade {
  protected readonly verb = 'replay the transact of';
  async act(m: ExploreModel, r: Real): Promise<void> {
    const t = this.twin(m);
    await readBefore(m, r, this.then);
    const q = this.quoteOf(m, t);
    const ex = await r.both((side) => r.pools(side).post(transactPath(r.context.pools!.pool), { quoteId: q.id[side] }, { idempotencyKey: t.idempotencyKey }));
    sameOutcome(r, ex, { requirement: { '2xx': 'POOLS-TX-REPLAY-SAME-TRADE', 409: 'POOLS-TX-REPLAY-SAME-TRADE' } });
    if (ex.oracle.status >= 300) return;
    for (const side of SIDES) {
      const now = bodyOf(ex[side]);
      sameAsBefore(r, 'POOLS-TX-REPLAY-SAME-TRADE', 'a safe retry returns the existing trade', side, t.created[side], now, ['transactId', 'quoteId']);
      const original = t.created[side].status;
      holds(r, now.status === original || now.status === t.state, 'POOLS-TX-REPLAY-SAME-TRADE', () => ({
        what: `${t.name} replayed: its status on the ${side}, the original answer's or the trade's now`,
        target: side === 'target' ? now.status : '(either)',
        oracle: side === 'oracle' ? now.status : `${String(original)} or ${t.state}`,
      }));
      if (side === 'target' && original !== t.state)
        r.observe('pools.transact.replay', now.status === original ? 'the original response' : 'the trade as it is now');
    }
    m.balance.since.add('replay');
    await readBack(m, r, t, this.then);
  }
}

/** The same key with another quote: 409 idempotency-conflict. */
export class ConflictingTransact extends OnTrade {
  constructor(
    index: number,
    readonly other: number,
  ) {
    super(index);
  }
  protected readonly verb = 'reuse the transact key of';
  /** Another active quote of the sequence's: the body differs in its quote alone (a consumed or expired one could be refused for itself first). */
  private others(m: Readonly<ExploreModel>, t: TradeTwin): QuoteTwin[] {
    return usableQuotes(m).filter((q) => q.name !== t.quote && quoteState(m, q).state === 'active');
  }
  applies(m: Readonly<ExploreModel>): boolean {
    return super.applies(m) && (this.others(m, this.twin(m)).length > 0 || live(m.quotes).length < FEW);
  }
  label(m: ExploreModel): string {
    return `${this.others(m, this.twin(m)).length ? '' : 'request a firm quote, then '}${super.label(m)} with it`;
  }
  async act(m: ExploreModel, r: Real): Promise<void> {
    const t = this.twin(m);
    const other = pick(this.others(m, t), this.other) ?? (await requestFirmQuote(m, r));
    if (!other) return;
    const ex = await r.both((side) =>
      r.pools(side).post(transactPath(r.context.pools!.pool), { quoteId: other.id[side] }, { idempotencyKey: t.idempotencyKey }),
    );
    sameOutcome(r, ex, { requirement: { 409: 'POOLS-TX-KEY-CONFLICT-409', '2xx': 'POOLS-TX-KEY-CONFLICT-409' }, documentedCodes: ['idempotency-conflict'] });
  }
}

/**
 * The sandbox chooses the outcome (each side its own tradeOutcome), then the poll that discovers it. The outcome is
 * the trade family's widest choice (four ways out of reserved, each moving money its own way), and a trade takes one:
 * when the trade the step picked has moved on, the step reserves a fresh one first (a firm quote, transacted, its
 * balance read after), so every outcome drawn is asked and a sequence can ask several.
 */
export class Settle extends OnTrade {
  constructor(
    index: number,
    readonly outcome: NonNullable<TradeTwin['chosen']>,
    then: TradeReadBack = 'none',
  ) {
    super(index, then);
  }
  protected get verb(): string {
    return `choose ${this.outcome} (sandbox), then poll`;
  }
  private static open(t: TradeTwin | undefined): t is TradeTwin {
    return !!t && t.state === 'reserved' && !t.chosen;
  }
  override applies(m: Readonly<ExploreModel>): boolean {
    if (!m.can.pools || !m.can.tradeOutcome || !live(m.trades).length) return false;
    return Settle.open(pick(live(m.trades), this.index)) || live(m.quotes).length < FEW;
  }
  override label(m: ExploreModel): string {
    if (Settle.open(pick(live(m.trades), this.index))) return super.label(m);
    return `request a firm quote and transact it, then ${this.verb} the trade${thenLabel(this.then)}`;
  }
  async act(m: ExploreModel, r: Real): Promise<void> {
    let t: TradeTwin | undefined = this.twin(m);
    if (!Settle.open(t)) {
      const made = m.trades.length;
      await new Transact(0, 'none', true).act(m, r);
      t = m.trades.length > made ? m.trades.at(-1) : undefined;
      if (!t || t.parted) return;
    } else await readBefore(m, r, this.then);
    const q = this.quoteOf(m, t);
    const ok: boolean[] = [];
    for (const side of SIDES) {
      const ex = await r.trigger(side, 'pools', 'tradeOutcome', { quoteId: q.id[side], transactId: t.id[side], outcome: this.outcome });
      ok.push(!!ex && ex.status >= 200 && ex.status < 300);
    }
    if (!ok.every(Boolean)) {
      t.parted = `the tradeOutcome trigger was refused on the ${ok[0] ? 'oracle' : 'target'}`;
      return;
    }
    t.chosen = this.outcome;
    const from = t.state;
    // A poll may keep the trade reserved a poll longer (pools.poll.advance): the step polls until it moves, a few times.
    for (let i = 0; i < SETTLE_POLLS; i++) {
      if (!(await pollOnce(m, r, t, q))) return;
      if (t.state !== from) break;
    }
    await readBack(m, r, t, this.then, from);
  }
}

/** Polls a sandbox outcome gets to show within its step. */
const SETTLE_POLLS = 3;

/** The status poll: it advances settlement; a terminal outcome stays (a settled trade may still turn returned). */
export class Poll extends OnTrade {
  protected readonly verb = 'poll';
  async act(m: ExploreModel, r: Real): Promise<void> {
    const t = this.twin(m);
    await readBefore(m, r, this.then);
    const from = t.state;
    if (await pollOnce(m, r, t, this.quoteOf(m, t))) await readBack(m, r, t, this.then, from);
  }
}

/** One trade, a pure read: as its polls left it, its terms the quote's, totalBps the sum of its parts. */
async function readTrade(m: ExploreModel, r: Real, t: TradeTwin): Promise<void> {
  const ex = await r.both((side) => r.pools(side).get(`/pools/trades/${encodeURIComponent(t.id[side])}`));
  sameOutcome(r, ex, { requirement: { '2xx': 'POOLS-TRADES-SHAPE' } });
  if (ex.oracle.status >= 300) return;
  const b = { target: bodyOf(ex.target), oracle: bodyOf(ex.oracle) };
  sameFields(r, m, TRADE_RELATIONS, b, { what: `${t.name} read`, requirementOf: { status: t.movedBy } });
  expectTotalBps(r, t.name, b.target);
}

export class GetTrade extends OnTrade {
  protected readonly verb = 'read';
  act(m: ExploreModel, r: Real): Promise<void> {
    return readTrade(m, r, this.twin(m));
  }
}

function expectTotalBps(r: Real, name: string, trade: Record<string, unknown>): void {
  const { spreadBps, feeBps, totalBps } = trade;
  holds(r, !(typeof spreadBps === 'number' && typeof feeBps === 'number' && totalBps !== spreadBps + feeBps), 'POOLS-TRADES-TOTAL-BPS', () => ({
    what: `${name}: totalBps = spreadBps + feeBps`,
    target: { spreadBps, feeBps, totalBps },
    oracle: 'the sum',
  }));
}

const listLabel = (filter: TradeFilter) => `list trades${filter === 'none' ? '' : ` (${filter === 'on_ramp' ? 'side' : 'status'} ${filter})`}`;

/** The trades list (newest first), filtered: the sequence's trades that match, in order; none that do not. */
async function listTrades(m: ExploreModel, r: Real, filter: TradeFilter): Promise<void> {
  const mine = live(m.trades);
  const query: Record<string, string> = { limit: '100' };
  if (filter === 'on_ramp') query.side = 'on_ramp';
  else if (filter !== 'none') query.status = filter;
  const matches = (t: TradeTwin) => filter === 'none' || filter === 'on_ramp' || t.state === filter;
  const found = await walkList(r, {
    page: (side, cursor) => r.pools(side).get('/pools/trades', cursor ? { ...query, cursor } : query),
    items: (j) => ((j as { data?: Record<string, unknown>[] })?.data ?? []).filter((x) => x && typeof x === 'object'),
    more: (j) => (j as { hasMore?: unknown })?.hasMore === true,
    cursor: (_item, j) => ((j as { nextCursor?: unknown })?.nextCursor as string | undefined) ?? undefined,
    idOf: (item) => String(item.transactId),
    wanted: (side) => new Set(mine.filter(matches).map((t) => t.id[side])),
    requirement: 'POOLS-TRADES-LIST-SHAPE',
  });
  const listed = mine.filter(matches);
  for (const t of mine) {
    const tx = found.target.get(t.id.target);
    const ox = found.oracle.get(t.id.oracle);
    if (!matches(t)) {
      holds(r, !tx, 'POOLS-TRADES-FILTERS', () => ({
        what: `${t.name} (${t.state}) in the list filtered by ${filter}`,
        target: `listed as ${String(tx!.item.status)}`,
        oracle: ox ? 'listed' : 'absent',
      }));
      continue;
    }
    if (!ox) continue;
    if (!tx) {
      holds(r, !found.complete.target, 'POOLS-TRADES-FILTERS', () => ({
        what: `${t.name} (${t.state}) in the list filtered by ${filter}`,
        target: 'absent',
        oracle: 'listed',
      }));
      continue;
    }
    sameFields(r, m, TRADE_RELATIONS, { target: tx.item, oracle: ox.item }, { what: `${t.name} as listed`, requirementOf: { status: t.movedBy } });
  }
  // Newest first among the sequence's trades whose createdAt differ on the target (ties are the target's to order).
  const seen = listed
    .filter((t) => found.target.has(t.id.target))
    .map((t) => ({ t, at: found.target.get(t.id.target)!, created: Date.parse(String(found.target.get(t.id.target)!.item.createdAt)) }));
  for (let i = 0; i < seen.length; i++)
    for (let j = i + 1; j < seen.length; j++) {
      const [a, b] = [seen[i]!, seen[j]!];
      holds(r, !(a.created !== b.created && a.created > b.created !== a.at.at < b.at.at), 'POOLS-TRADES-NEWEST-FIRST', () => ({
        what: `the order of ${a.t.name} and ${b.t.name}`,
        target: `${a.t.name} at ${a.at.at}, ${b.t.name} at ${b.at.at}`,
        oracle: 'newest first',
      }));
    }
}

export class ListTrades extends ExploreCommand {
  constructor(readonly filter: TradeFilter) {
    super();
  }
  label(): string {
    return listLabel(this.filter);
  }
  applies(m: Readonly<ExploreModel>): boolean {
    return m.can.pools && live(m.trades).length > 0;
  }
  act(m: ExploreModel, r: Real): Promise<void> {
    return listTrades(m, r, this.filter);
  }
}

/** The trade read on each side (its createdAt as that side shows it), then the list bounded to that instant on each side. */
export class ListTradesAtCreation extends OnTrade {
  protected readonly verb = 'list trades created when was';
  async act(m: ExploreModel, r: Real): Promise<void> {
    const t = this.twin(m);
    const read = await r.both((side) => r.pools(side).get(`/pools/trades/${encodeURIComponent(t.id[side])}`));
    sameOutcome(r, read, { requirement: { '2xx': 'POOLS-TRADES-SHAPE' } });
    if (read.oracle.status >= 300) return;
    for (const side of SIDES) await listedAtCreation(r, t, side, bodyOf(read[side]).createdAt);
  }
}

/**
 * created_after and created_before around the trade's createdAt (inclusive bounds) list it: a millisecond either side
 * of a createdAt shown with a fraction, a second of one shown to the second (it may stand for any instant of that
 * second: the precision is the target's).
 */
async function listedAtCreation(r: Real, t: TradeTwin, side: Side, createdAt: unknown): Promise<void> {
  if (typeof createdAt !== 'string' || Number.isNaN(Date.parse(createdAt))) return;
  const exact = /\.\d+/.test(createdAt);
  const at = Date.parse(createdAt);
  // Even a fraction may be rounded from a finer stored instant: a millisecond either side of it (a second, shown whole).
  const slack = exact ? 1 : 1000;
  const bounds = { created_after: new Date(at - slack).toISOString(), created_before: new Date(at + slack).toISOString() };
  let cursor: string | undefined;
  let listed = false;
  let whole = false;
  for (let page = 0; page < 3 && !listed; page++) {
    const ex = await r.one(side, () => r.pools(side).get('/pools/trades', { limit: '100', ...bounds, ...(cursor ? { cursor } : {}) }));
    if (ex.status >= 300) return;
    const j = bodyOf(ex);
    listed = ((j.data as Record<string, unknown>[] | undefined) ?? []).some((x) => x && x.transactId === t.id[side]);
    cursor = typeof j.nextCursor === 'string' ? j.nextCursor : undefined;
    whole = j.hasMore !== true || !cursor;
    if (whole) break;
  }
  if (!listed && !whole) return;
  holds(r, listed, 'POOLS-TRADES-DATE-INCLUSIVE', () => ({
    what: `${t.name} in the list bounded to its own createdAt ${createdAt} on the ${side} (created_after ${bounds.created_after}, created_before ${bounds.created_before})`,
    target: side === 'target' ? 'absent' : '(listed)',
    oracle: side === 'oracle' ? 'absent' : '(listed)',
  }));
}

export function tradeCommands(): fc.Arbitrary<ExploreCommand>[] {
  const i = objectIndex();
  // A step that moves a trade or money reads back the trade, the balance or a list more often than not.
  const then = fc.constantFrom<TradeReadBack>('none', 'none', 'get', 'balance around', 'balance around', ...FILTERS.map((f) => `list ${f}` as const));
  // The outcomes that move money or leave settlement's path (a release, a failure, a return) most.
  const outcome = fc.constantFrom('released' as const, 'released' as const, 'failed' as const, 'returned' as const, 'settled' as const);
  return [
    fc.tuple(i, then, fc.boolean()).map(([n, t, fresh]) => new Transact(n, t, fresh)),
    fc.tuple(i, then).map(([n, t]) => new ReplayTransact(n, t)),
    fc.tuple(i, i).map(([n, o]) => new ConflictingTransact(n, o)),
    fc.tuple(i, outcome, then).map(([n, o, t]) => new Settle(n, o, t)),
    fc.tuple(i, then).map(([n, t]) => new Poll(n, t)),
    i.map((n) => new GetTrade(n)),
    fc.constantFrom(...FILTERS).map((f) => new ListTrades(f)),
    i.map((n) => new ListTradesAtCreation(n)),
  ];
}
