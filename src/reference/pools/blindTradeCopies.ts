// The second copies of a trade that blind sequence faults keep (pools/blindFaults.ts): the quote's consumption a
// release rolls back, the trade's read copy (without the "settled event published" mark, and a cache the return never
// refreshes), transact's key records kept with the reservation, and the list's date index the poll re-stamps. Each is
// written by the paths its fault names, so it parts from the trade record only after a sequence.
import type { Reply } from '../kit/http.js';
import type { PoolsWorld, TradeRecord } from './world.js';

const RELEASE_REOPENS = 'seq-blind-pools-release-reopens-quote';
const READ_REFIRES = 'seq-blind-pools-trade-read-refires-settled';
const READ_CACHE = 'seq-blind-pools-trade-read-cache-misses-return';
const KEY_FREED = 'seq-blind-pools-key-freed-at-settlement';
const DATE_TOUCHED = 'seq-blind-pools-trades-date-touched-by-poll';

const TERMINAL = new Set(['settled', 'failed', 'released', 'returned']);

/** The status each trade had when a poll last saw it (a poll that moves it is the one the faults act on). */
const polledStatus = new WeakMap<TradeRecord, string>();
/** Settled trades reloaded from the read copy: their "settled event published" mark is gone. */
const unmarked = new WeakSet<TradeRecord>();
/** What GET /pools/trades/{transactId} last answered for each trade. */
const readCopies = new WeakMap<TradeRecord, Record<string, unknown>>();
/** When the poll last re-stamped each trade's date index. */
const dateIndex = new WeakMap<TradeRecord, number>();

/** A settlement poll of `t` has run (after it advanced, or not, the trade). */
export function afterPoll(world: PoolsWorld, t: TradeRecord): void {
  const f = world.faults;
  if (f.has(READ_REFIRES) && t.status === 'settled' && unmarked.has(t)) {
    unmarked.delete(t);
    world.emitTradeEvent(t, 'pool.transaction.settled');
  }
  const moved = (polledStatus.get(t) ?? 'reserved') !== t.status;
  polledStatus.set(t, t.status);
  if (!moved) return;
  if (f.has(DATE_TOUCHED)) dateIndex.set(t, world.clock.now());
  // The unwinding poll rolls back the transact whole: the quote is no longer consumed.
  const q = world.quotes.get(t.quoteId);
  if (f.has(RELEASE_REOPENS) && (t.status === 'released' || t.status === 'failed') && q) q.consumedAtMs = null;
}

/** GET /pools/trades/{transactId}'s answer: `view`, or the faults' read copy. */
export function tradeRead(world: PoolsWorld, t: TradeRecord, view: Record<string, unknown>): Record<string, unknown> {
  const f = world.faults;
  if (f.has(READ_REFIRES) && t.status === 'settled') unmarked.add(t);
  if (!f.has(READ_CACHE)) return view;
  const hit = readCopies.get(t);
  // Every move out of reserved refreshes the copy; the return discovered later does not.
  if (hit && hit.status === 'settled' && t.status === 'returned') return structuredClone(hit);
  readCopies.set(t, structuredClone(view));
  return view;
}

/** Transact's record of an Idempotency-Key, unless (under the fault) the reservation it made has ended and taken it along. */
export function heldKeyRecord<E extends { reply: Reply }>(world: PoolsWorld, e: E | undefined): E | undefined {
  if (!e || !world.faults.has(KEY_FREED)) return e;
  const id = (e.reply.body as { transactId?: unknown } | undefined)?.transactId;
  const t = typeof id === 'string' ? world.trades.get(id) : undefined;
  return t && TERMINAL.has(t.status) ? undefined : e;
}

/** The time the trades list's date filters compare: the trade's createdAt, or the index the poll re-stamped. */
export function indexedCreatedAt(world: PoolsWorld, t: TradeRecord): number {
  return (world.faults.has(DATE_TOUCHED) && dateIndex.get(t)) || t.createdAtMs;
}
