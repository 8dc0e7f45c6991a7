// A pool's current state as one partner sees it: the catalogue's (a dry pool
// is pool_dry) unless the sandbox helper set another for that partner. Kept
// per partner so a check that changes it disturbs no other partner's checks.
import type { Caller, PoolDef, PoolsWorld } from './world.js';

export const POOL_STATES = ['available', 'pool_dry', 'engine_unavailable', 'rate_unavailable'] as const;
export type PoolState = (typeof POOL_STATES)[number];
export type UnavailableReason = Exclude<PoolState, 'available'>;

const overrides = new WeakMap<PoolsWorld, Map<string, PoolState>>();
const keyOf = (caller: Caller, poolId: string) => `${caller.partner.name}\u0000${caller.mode}\u0000${poolId}`;

export function setPoolState(world: PoolsWorld, caller: Caller, pool: PoolDef, state: PoolState): void {
  let m = overrides.get(world);
  if (!m) overrides.set(world, (m = new Map()));
  m.set(keyOf(caller, pool.id), state);
}

/** Why quotes on the pool are unavailable for this caller now, or null when it is available. */
export function unavailableReason(world: PoolsWorld, caller: Caller, pool: PoolDef): UnavailableReason | null {
  const set = overrides.get(world)?.get(keyOf(caller, pool.id));
  if (set) return set === 'available' ? null : set;
  return pool.available ? null : 'pool_dry';
}
