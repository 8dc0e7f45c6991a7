// Measuring a Gate rate window by length as well as by count. The spec says
// "L requests per W" and nothing about how the window moves, so the probe is
// built to be judged under every reading (windowJudge.ts): it fills the
// window, finds when capacity returns (r1), fills it again at once and finds
// the next return (r2). Plain code with no k6 imports: the scenario drives it
// with k6's clock and http, the unit tests with a virtual clock.

export type Phase = 'walk1' | 'probe1' | 'walk2' | 'probe2';

/** One request of a probe: send time a and answer time b on the client's clock (ms); the target decided somewhere in [a, b]. */
export interface Sent {
  n: number;
  phase: Phase;
  a: number;
  b: number;
  status: number;
}

export interface WindowPlan {
  limit: number;
  windowMs: number;
  /** Between walk requests (0 = back to back). */
  paceMs: number;
  /**
   * Back-to-back walks send the second half of the limit this much later than the first, so a sliding window
   * frees only half at the first rollover while fixed buckets free all of it: the readings tell apart.
   */
  splitMs: number;
  /** Probes while waiting for capacity; sparse so that a window that also counts refused requests still empties. */
  probeEveryMs: number;
  /** Allowed imprecision of the target's clock (a window edge within this of a request may fall either side). */
  toleranceMs: number;
  /** Wait after the first returned capacity before refilling, so the refill is clearly inside a new fixed bucket. */
  gapMs: number;
}

export interface ProbeIO {
  now(): number;
  sleepUntil(t: number): void;
  send(n: number, phase: Phase): number;
  /** Called once, right after the first walk met its limit (the window is full now). */
  onLimit?(): void;
  /**
   * The first walk was refused at or before the limit (request `n`): the window held requests the probe could not
   * count (sent before it, or from outside the run). true stops the probe there, its log as it is, for the caller
   * to walk again once those have left.
   */
  earlyLimit?(n: number): boolean;
}

/** The share of a window allowed as error on its measured length when the profile declares none (tolerances.rateWindowRatio). */
export const DEFAULT_WINDOW_TOLERANCE_RATIO = 0.05;

/**
 * Probe parameters for a window of `limit` per `windowMs`, walked at `paceMs` (0: as fast as the target answers),
 * allowing `toleranceRatio` of the window as error on where its edges fall: never under 20 ms (the client's clock),
 * never over 1 s (wider, the sparse probes of a minute window could not tell it from one twice as long).
 */
export function planFor(limit: number, windowMs: number, paceMs: number, toleranceRatio = DEFAULT_WINDOW_TOLERANCE_RATIO): WindowPlan {
  const toleranceMs = Math.round(Math.min(1_000, Math.max(20, windowMs * toleranceRatio)));
  return {
    limit,
    windowMs,
    paceMs,
    splitMs: paceMs === 0 ? Math.round(windowMs * 0.5) : 0,
    // At most limit/2 probes per window: even when refused requests count, the window drains.
    probeEveryMs: Math.max(paceMs, Math.ceil((2 * windowMs) / limit)),
    toleranceMs,
    gapMs: 2 * toleranceMs + 10,
  };
}

/** The most requests a probe sends: two walks of at most 2L+1, and the sparse probes of its two waits. */
export function probeMaxRequests(p: WindowPlan): number {
  const wait = p.windowMs + 2 * p.probeEveryMs + p.toleranceMs;
  return 4 * p.limit + 2 + 2 * Math.ceil(wait / p.probeEveryMs);
}

/** Upper bound on a probe's duration, ms (walks at most 2L+1 requests each; latency allowance 100 ms a request). */
export function probeBoundMs(p: WindowPlan): number {
  const walk = 2 * p.limit * p.paceMs + p.splitMs;
  const wait = p.windowMs + 2 * p.probeEveryMs + p.toleranceMs;
  return 2 * walk + 2 * wait + p.gapMs + probeMaxRequests(p) * 100;
}

function send(io: ProbeIO, log: Sent[], phase: Phase): Sent {
  const a = io.now();
  const n = log.length + 1;
  const status = io.send(n, phase);
  const s = { n, phase, a, b: io.now(), status };
  log.push(s);
  return s;
}

/** Walk until the first 429 (at most 2L+1 requests: one fixed-bucket edge inside a walk lets 2L through). */
function walk(io: ProbeIO, p: WindowPlan, log: Sent[], phase: 'walk1' | 'walk2', t0: number, split: number): Sent | null {
  const half = Math.ceil(p.limit / 2);
  for (let k = 1; k <= 2 * p.limit + 1; k++) {
    io.sleepUntil(t0 + (k - 1) * p.paceMs + (split && k > half ? split : 0));
    const s = send(io, log, phase);
    if (s.status === 429) return s;
  }
  return null;
}

/** Probe every probeEveryMs after `from` until a request is accepted; null when none is by the latest time any reading allows. */
function probe(io: ProbeIO, p: WindowPlan, log: Sent[], phase: 'probe1' | 'probe2', from: number): Sent | null {
  const deadline = from + p.windowMs + p.probeEveryMs + p.toleranceMs;
  for (let k = 1; from + k * p.probeEveryMs <= deadline; k++) {
    io.sleepUntil(from + k * p.probeEveryMs);
    const s = send(io, log, phase);
    if (s.status !== 429) return s;
  }
  return null;
}

/** Run the probe; the log is complete even when it stops early (no 429, or capacity never returned). */
export function runWindowProbe(io: ProbeIO, p: WindowPlan): Sent[] {
  const log: Sent[] = [];
  const limit1 = walk(io, p, log, 'walk1', io.now(), p.splitMs);
  if (!limit1) return log;
  if (limit1.n <= p.limit && io.earlyLimit?.(limit1.n)) return log;
  io.onLimit?.();
  const r1 = probe(io, p, log, 'probe1', limit1.b);
  if (!r1) return log;
  const limit2 = walk(io, p, log, 'walk2', r1.b + p.gapMs, 0);
  if (!limit2) return log;
  probe(io, p, log, 'probe2', limit2.b);
  return log;
}
