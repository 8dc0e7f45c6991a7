// Judging a window probe (windowProbe.ts) under every reading of "L requests
// per W" the spec allows: it says neither how the window moves nor whether a
// refused request counts. For each reading the judge replays the log: from
// the requests before it, would the target have had to accept or refuse each
// request? A reading is consistent when no request contradicts it; the
// target's window is W when at least one reading is. Times are the client's
// (the target decided within [a, b] of each request), widened by a tolerance,
// and a request whose prediction depends on where in that span the target
// decided is not judged. Plain code, no k6 imports.
import type { Sent, WindowPlan } from './windowProbe.ts';

export type Reading = 'sliding' | 'sliding, refused requests count' | 'fixed buckets' | 'fixed window from the first request';
export const READINGS: Reading[] = ['sliding', 'sliding, refused requests count', 'fixed buckets', 'fixed window from the first request'];

type Prediction = 'accept' | 'refuse' | 'either';

export interface Mismatch {
  n: number;
  phase: string;
  /** ms after the probe's first request. */
  atMs: number;
  observed: number;
  predicted: 'accept' | 'refuse';
}

export interface WindowVerdict {
  limit: number;
  windowMs: number;
  toleranceMs: number;
  /** The readings every status fits (empty: the window is not `limit` per `windowMs` under any reading). */
  consistent: Reading[];
  /** Per reading that does not fit: the first request it cannot explain. */
  mismatches: Partial<Record<Reading, Mismatch>>;
  /** Request number of the first 429 of the first walk, or null. */
  firstRejected: number | null;
  /** The first `limit` requests of the first walk all answered 2xx. */
  firstLimitPassed: boolean;
  /** ms from the first request to the first returned capacity (r1), and from the first 429 to it. */
  r1AfterFirstMs: number | null;
  r1AfterLimitMs: number | null;
  /** Requests accepted in the refill after r1, r1 included (sliding frees part of the window, fixed buckets all of it). */
  refillAccepted: number | null;
  /** ms between the two returns of capacity (r2 − r1). */
  periodMs: number | null;
  /** Capacity returned after the first limit before the latest time any reading allows. */
  reopened: boolean;
}

const refused = (s: Sent) => s.status === 429;

function decide(p: Prediction, s: Sent): boolean {
  return p === 'either' || (p === 'refuse') === refused(s);
}

/** Sliding: the counted requests whose decision lies within W before this one's. */
function sliding(log: Sent[], i: number, limit: number, w: number, tol: number, countRefused: boolean): Prediction {
  const x = log[i]!;
  let min = 0;
  let max = 0;
  for (let j = i - 1; j >= 0; j--) {
    const y = log[j]!;
    const lo = x.a - y.b - 2 * tol; // least possible distance between the two decisions
    if (lo >= w) break; // earlier requests are further still
    if (!countRefused && refused(y)) continue;
    max++;
    if (x.b - y.a + 2 * tol < w) min++;
  }
  return min >= limit ? 'refuse' : max < limit ? 'accept' : 'either';
}

function mismatchAt(log: Sent[], i: number, p: Prediction): Mismatch {
  const s = log[i]!;
  return { n: s.n, phase: s.phase, atMs: Math.round(s.a - log[0]!.a), observed: s.status, predicted: p === 'refuse' ? 'refuse' : 'accept' };
}

function judgeSliding(log: Sent[], limit: number, w: number, tol: number, countRefused: boolean): Mismatch | null {
  for (let i = 0; i < log.length; i++) {
    const p = sliding(log, i, limit, w, tol, countRefused);
    if (!decide(p, log[i]!)) return mismatchAt(log, i, p);
  }
  return null;
}

/**
 * Fixed buckets of length W with an unknown phase: consistent when some phase explains every status. The target
 * decided in order, so each bucket edge splits the log at one index; where requests lie within the tolerance of
 * an edge, every split they allow is followed. Between two phases at which an edge crosses a request
 * (± tolerance) the allowed splits stay the same, so one phase per such interval decides it exactly.
 */
function judgeFixed(log: Sent[], limit: number, w: number, tol: number): Mismatch | null {
  const n = log.length;
  if (!n) return null;
  // reach[s]: the first request a bucket starting at request s cannot explain (n: none).
  const reachCache = new Map<number, number>();
  const reach = (s: number): number => {
    let r = reachCache.get(s);
    if (r === undefined) {
      let count = 0;
      r = n;
      for (let i = s; i < n; i++) {
        // In a bucket a refusal only comes once it is full, so whether refusals count changes nothing.
        if (count >= limit !== refused(log[i]!)) {
          r = i;
          break;
        }
        if (!refused(log[i]!)) count++;
      }
      reachCache.set(s, r);
    }
    return r;
  };
  const first = log[0]!.a - tol;
  const last = log[n - 1]!.b + tol;
  const mod = (t: number) => ((t % w) + w) % w;
  const edges = [...new Set(log.flatMap((s) => [mod(s.a - tol), mod(s.b + tol)]))].sort((x, y) => x - y);
  const phases = edges.map((e, k) => (k + 1 < edges.length ? (e + edges[k + 1]!) / 2 : (e + edges[0]! + w) / 2));
  let furthest = -1;
  for (const phi of phases) {
    let starts = new Set<number>([0]);
    for (let m = Math.floor((first - phi) / w) + 1; phi + m * w <= last && starts.size; m++) {
      const edge = phi + m * w;
      // Requests answered (b + tol) before the edge are in the earlier bucket; those sent (a − tol) after it in the later.
      let lo = 0;
      while (lo < n && log[lo]!.b + tol < edge) lo++;
      let hi = lo;
      while (hi < n && log[hi]!.a - tol < edge) hi++;
      const next = new Set<number>();
      for (const s0 of starts) {
        const r = reach(s0);
        for (let s1 = Math.max(lo, s0); s1 <= Math.min(hi, r); s1++) next.add(s1);
        furthest = Math.max(furthest, r);
      }
      starts = next;
    }
    for (const s0 of starts) {
      if (reach(s0) >= n) return null;
      furthest = Math.max(furthest, reach(s0));
    }
  }
  const i = Math.max(0, Math.min(n - 1, furthest));
  return mismatchAt(log, i, refused(log[i]!) ? 'accept' : 'refuse');
}

/**
 * A window that opens at the first request after the previous one closed (a reset timer). Where a request may
 * fall either side of the close, both continuations are followed.
 */
function judgeFromFirst(log: Sent[], limit: number, w: number, tol: number): Mismatch | null {
  // State: index of the request that opened the current window (-1: none yet).
  let states = new Set<number>([-1]);
  for (let i = 0; i < log.length; i++) {
    const x = log[i]!;
    const next = new Set<number>();
    let failure: Prediction = 'accept';
    for (const k of states) {
      const opener = k >= 0 ? log[k]! : undefined;
      const closedSurely = !opener || x.a - opener.b - 2 * tol >= w;
      const openSurely = !!opener && x.b - opener.a + 2 * tol < w;
      if (!openSurely) {
        // This request opens a new window: accepted.
        if (!refused(x)) next.add(i);
        else failure = 'accept';
      }
      if (!closedSurely) {
        let count = 0;
        for (let j = k; j < i; j++) if (!refused(log[j]!)) count++;
        const p: Prediction = count >= limit ? 'refuse' : 'accept';
        if (decide(p, x)) next.add(k);
        else failure = p;
      }
    }
    if (next.size === 0) return mismatchAt(log, i, failure);
    states = next;
  }
  return null;
}

/** Judge a probe log against a window of `plan.limit` per `plan.windowMs`. */
export function judgeWindow(log: Sent[], plan: WindowPlan): WindowVerdict {
  const { limit, windowMs: w, toleranceMs: tol } = plan;
  const mismatches: Partial<Record<Reading, Mismatch>> = {};
  const results: [Reading, Mismatch | null][] = [
    ['sliding', judgeSliding(log, limit, w, tol, false)],
    ['sliding, refused requests count', judgeSliding(log, limit, w, tol, true)],
    ['fixed buckets', judgeFixed(log, limit, w, tol)],
    ['fixed window from the first request', judgeFromFirst(log, limit, w, tol)],
  ];
  const consistent: Reading[] = [];
  for (const [r, m] of results) {
    if (m) mismatches[r] = m;
    else consistent.push(r);
  }
  const walk1 = log.filter((s) => s.phase === 'walk1');
  const limit1 = walk1.find(refused);
  const r1 = log.find((s) => s.phase === 'probe1' && !refused(s));
  const r2 = log.find((s) => s.phase === 'probe2' && !refused(s));
  const walk2 = log.filter((s) => s.phase === 'walk2');
  return {
    limit,
    windowMs: w,
    toleranceMs: tol,
    consistent: log.length ? consistent : [],
    mismatches,
    firstRejected: limit1 ? limit1.n : null,
    firstLimitPassed: walk1.length >= limit && walk1.slice(0, limit).every((s) => s.status >= 200 && s.status < 300),
    r1AfterFirstMs: r1 && log[0] ? Math.round(r1.a - log[0].a) : null,
    r1AfterLimitMs: r1 && limit1 ? Math.round(r1.a - limit1.b) : null,
    refillAccepted: r1 && walk2.length ? 1 + walk2.filter((s) => !refused(s)).length : null,
    periodMs: r1 && r2 ? Math.round(r2.a - r1.a) : null,
    reopened: !!r1,
  };
}

/**
 * The count check: the first `limit` pass and the next is 429 — or, where the judge finds a reading with
 * fixed edges that explains the log, an edge fell inside the walk and the first 429 came later.
 */
export function countHolds(v: WindowVerdict): boolean {
  if (!v.firstLimitPassed || v.firstRejected === null) return false;
  if (v.firstRejected === v.limit + 1) return true;
  return v.firstRejected <= 2 * v.limit + 1 && v.consistent.some((r) => r === 'fixed buckets' || r === 'fixed window from the first request');
}
