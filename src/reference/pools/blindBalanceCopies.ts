// The second copies of the partner's money that blind sequence faults keep (pools/blindFaults.ts): a balance cache
// keyed by the pool in the path, and the ledger's cursors resolved through the offset their page ended at. Each is
// written by the paths its fault names, so it parts from the ledger only after a sequence.
import type { LedgerEntry, PartnerState, PoolsWorld } from './world.js';

const BALANCE_PER_POOL = 'seq-blind-pools-balance-cached-per-pool';
const LEDGER_OFFSET = 'seq-blind-pools-ledger-cursor-offset';

interface CachedBalance {
  balance: bigint;
  /** Ledger entries the entry has seen (postings after them are judged against it). */
  seen: number;
}

const balances = new WeakMap<PartnerState, Map<string, CachedBalance>>();

/** Whether a posting concerns another pool than `poolId` (a trade's move there); a pay-in concerns every pool. */
function ofAnotherPool(world: PoolsWorld, e: LedgerEntry, poolId: string): boolean {
  const t = e.transactId === null ? undefined : world.trades.get(e.transactId);
  return t !== undefined && t.poolId !== poolId;
}

/** The balance GET /pools/{poolId}/balance shows: `balance`, or under the fault the entry cached for that pool. */
export function poolScopedBalance(world: PoolsWorld, st: PartnerState, poolId: string, balance: bigint): bigint {
  if (!world.faults.has(BALANCE_PER_POOL)) return balance;
  let m = balances.get(st);
  if (!m) balances.set(st, (m = new Map()));
  const hit = m.get(poolId);
  const fresh = hit ? st.ledger.slice(hit.seen) : [];
  if (hit && fresh.every((e) => ofAnotherPool(world, e, poolId))) {
    hit.seen = st.ledger.length;
    return hit.balance;
  }
  m.set(poolId, { balance, seen: st.ledger.length });
  return balance;
}

/** Per partner state: a cursor handed out → the offset the page after it began at when it was served. */
const offsets = new WeakMap<PartnerState, Map<string, number>>();

/** Where the ledger page after `cursor` starts: `start` (after the entry it names), or under the fault the offset noted. */
export function ledgerPageStart(world: PoolsWorld, st: PartnerState, cursor: string | null, start: number): number {
  if (!world.faults.has(LEDGER_OFFSET) || cursor === null) return start;
  return offsets.get(st)?.get(cursor) ?? start;
}

/** A page ending at offset `end` handed out `next`: under the fault the cursor is remembered by that offset. */
export function noteLedgerCursor(world: PoolsWorld, st: PartnerState, next: string | null, end: number): void {
  if (!world.faults.has(LEDGER_OFFSET) || next === null) return;
  let m = offsets.get(st);
  if (!m) offsets.set(st, (m = new Map()));
  m.set(next, end);
}
