// The second copies of the partner's money that blind sequence faults keep (pools/blindFaults.ts): a balance cache
// keyed by the pool in the path, and the index the ledger's cursors are resolved through. Each is written by the paths
// its fault names, so it parts from the ledger only after a sequence.
import type { LedgerEntry, PartnerState, PoolsWorld } from './world.js';

const BALANCE_PER_POOL = 'seq-blind-pools-balance-cached-per-pool';
const LEDGER_INDEX = 'seq-blind-pools-ledger-cursor-misses-payins';

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

/** Per partner state: the entry ids the ledger's cursor index holds, and how many postings it has looked at. */
const cursorIndexes = new WeakMap<PartnerState, { ids: Set<string>; seen: number }>();

/**
 * Where the ledger page after `cursor` starts: `start` (after the entry it names), or under the fault the end of the
 * list (an empty page) when the entry it names is not in the cursor index. The index is built from the whole ledger at
 * the first read, then fed by the trade postings; a pay-in (the funding side writes the ledger row alone) never joins it.
 */
export function ledgerPageStart(world: PoolsWorld, st: PartnerState, cursor: string | null, start: number): number {
  if (!world.faults.has(LEDGER_INDEX)) return start;
  let index = cursorIndexes.get(st);
  if (!index) cursorIndexes.set(st, (index = { ids: new Set(st.ledger.map((e) => e.id)), seen: st.ledger.length }));
  for (const e of st.ledger.slice(index.seen)) if (e.type !== 'payin_credit') index.ids.add(e.id);
  index.seen = st.ledger.length;
  return cursor !== null && !index.ids.has(cursor) ? st.ledger.length : start;
}
