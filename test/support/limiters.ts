// Simulated rate limiters on a virtual clock, one per documented reading of "L per W" (sliding, sliding
// counting refusals, fixed buckets at any phase, a window opened by the first request), and the seeded
// generator the tests draw phases and jitter from: one place for the window and route-probe tests.

/** A target's limiter: decides at time x whether to accept. */
export type Limiter = (x: number) => boolean;

export function sliding(limit: number, w: number, countRefused = false): Limiter {
  const stamps: number[] = [];
  return (x) => {
    const n = stamps.filter((t) => t > x - w).length;
    const ok = n < limit;
    if (ok || countRefused) stamps.push(x);
    return ok;
  };
}

export function fixed(limit: number, w: number, phase: number): Limiter {
  const counts = new Map<number, number>();
  return (x) => {
    const b = Math.floor((x - phase) / w);
    const n = counts.get(b) ?? 0;
    if (n >= limit) return false;
    counts.set(b, n + 1);
    return true;
  };
}

export function fromFirst(limit: number, w: number): Limiter {
  let start = -Infinity;
  let n = 0;
  return (x) => {
    if (x >= start + w) {
      start = x;
      n = 0;
    }
    if (n >= limit) return false;
    n++;
    return true;
  };
}

/** Deterministic pseudo-random numbers (mulberry32), the explorer's own. */
export { mulberry32 } from '../../src/explore/schedule.js';

/** Run the probe on a virtual clock: latency 1–20 ms each way, now and then a 150 ms stall; sleeps overshoot by up to 5 ms. */
