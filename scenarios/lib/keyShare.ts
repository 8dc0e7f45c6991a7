// How a run splits into N execution segments (exactly as k6-operator splits a
// TestRun of parallelism N: segment i is (i-1)/N:i/N of the sequence
// 0,1/N,…,1) and which keys each segment holds. Plain code with no k6
// imports: the scenarios and rampart compute the same split.

/** The --execution-segment value of each of `n` instances, and their shared --execution-segment-sequence. */
export function segmentsOf(n: number): { segments: string[]; sequence: string } {
  const point = (i: number) => (i === 0 ? '0' : i === n ? '1' : `${i}/${n}`);
  const segments = Array.from({ length: n }, (_, i) => `${point(i)}:${point(i + 1)}`);
  const sequence = Array.from({ length: n + 1 }, (_, i) => point(i)).join(',');
  return { segments, sequence };
}

/** The keys of the segment [from, to) of [0, 1): disjoint between segments, covering all keys together. */
export function keyShare<T>(keys: T[], from: number, to: number): T[] {
  return keys.slice(Math.round(from * keys.length), Math.round(to * keys.length));
}
