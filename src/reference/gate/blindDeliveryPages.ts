// The page snapshot of the blind sequence fault seq-blind-whops-skip-stale-snapshot (gate/blindFaults.ts): the
// deliveries list pages over the ordered deliveries as the last read without skip saw them, per partner, environment
// and status filter. Only a read without skip takes a new one, so a list that changed since is paged wrong.
import type { Delivery } from '../kit/outbox.js';
import type { GateCaller, GateWorld } from './world.js';

const SKIP_SNAPSHOT = 'seq-blind-whops-skip-stale-snapshot';

const snapshots = new WeakMap<GateWorld, Map<string, Delivery[]>>();

/**
 * The deliveries a page is cut from: `live` (ordered and filtered), or under the fault, for skip > 0, the snapshot the
 * last read without skip took (live when there is none yet).
 */
export function deliveryPageSource(world: GateWorld, caller: GateCaller, statusFilter: string | null, skip: number, live: Delivery[]): Delivery[] {
  if (!world.faults.has(SKIP_SNAPSHOT)) return live;
  let m = snapshots.get(world);
  if (!m) snapshots.set(world, (m = new Map()));
  const k = `${caller.partner.name}\u0000${caller.mode}\u0000${statusFilter ?? ''}`;
  if (skip === 0) {
    m.set(k, [...live]);
    return live;
  }
  return m.get(k) ?? live;
}
