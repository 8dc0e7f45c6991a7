// The share of keys this k6 instance may use when a run is split with
// execution segments (`rampart load --segments N`, or a k6-operator TestRun
// of parallelism N, which passes the same flags): k6 splits VUs and arrival
// rates, but Gate's rate windows are per key, so two instances sending with
// one key would halve each other's budget. Each instance takes the keys that
// fall in its own segment of [0, 1), the same fraction as its share of the
// traffic, so the rate per key is what it is unsplit.
import exec from 'k6/execution';
import { keyShare } from './keyShare.ts';

function fraction(text: string): number {
  const t = text.trim();
  if (t.endsWith('%')) return Number(t.slice(0, -1)) / 100;
  const [n, d] = t.split('/');
  return d === undefined ? Number(n) : Number(n) / Number(d);
}

/** [from, to) of this instance's execution segment; [0, 1) unsplit. Only in VU context (k6 refuses options at init). */
export function segmentRange(): [number, number] {
  const seg = (exec.test.options as { executionSegment?: string | null }).executionSegment;
  if (!seg) return [0, 1];
  const parts = String(seg).split(':');
  return parts.length === 2 ? [fraction(parts[0]!), fraction(parts[1]!)] : [0, fraction(parts[0]!)];
}

/** The keys of this instance: the slice of `keys` its segment covers. */
export function segmentKeys<T>(keys: T[]): T[] {
  const [from, to] = segmentRange();
  const mine = keyShare(keys, from, to);
  if (!mine.length) throw new Error(`execution segment ${from}:${to} holds none of the ${keys.length} keys: use at most ${keys.length} segments`);
  return mine;
}
