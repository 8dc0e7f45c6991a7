// The per-user cumulative rail volume (the partner's railVolumeCap): each user's running total in the session
// currency, as exact decimals, and the users a rail pushed past the cap.
import type { GateWorld } from './world.js';

export interface VolumeState {
  /** Cumulative rail amount per user (decimal string). */
  total: Map<string, string>;
  blocked: Set<string>;
}

const volumeStores = new WeakMap<GateWorld, VolumeState>();
export function volumes(world: GateWorld): VolumeState {
  let v = volumeStores.get(world);
  if (!v) volumeStores.set(world, (v = { total: new Map(), blocked: new Set() }));
  return v;
}

/** A decimal string as an integer count of 10^-scale units. */
function units(d: string, scale: number): bigint {
  const [i = '0', f = ''] = d.split('.');
  return BigInt(i + f.padEnd(scale, '0').slice(0, scale));
}
const scaleOf = (...ds: string[]) => Math.max(...ds.map((d) => d.split('.')[1]?.length ?? 0));

export function decAdd(a: string, b: string): string {
  const sc = scaleOf(a, b);
  const sum = (units(a, sc) + units(b, sc)).toString().padStart(sc + 1, '0');
  return sc === 0 ? sum : `${sum.slice(0, -sc)}.${sum.slice(-sc)}`;
}

export function decGreater(a: string, b: string): boolean {
  const sc = scaleOf(a, b);
  return units(a, sc) > units(b, sc);
}
