// The target's clock as rampart sees it. A remote sandbox keeps its own time, so
// an absolute timestamp it issues (expiresAt, expires_at, created_at, the
// webhook t=) is judged on its clock, never on rampart's. Each answer's Date
// header (whole seconds, RFC 9110) was stamped while the request was in flight:
// target = local + offset with offset ∈ [D − answeredAt, D + 1000 − sentAt].
// Intersecting the bounds of many answers narrows the offset to about the
// round trip's spread. Durations (windows, retry gaps) stay on rampart's own
// monotonic clock and never need this.
import type { ClockEstimate, RoundTrip, TargetClockReport, TargetSpan } from '../wire/targetTime.js';

export type { ClockEstimate, RoundTrip, TargetClockReport, TargetSpan };

const MAX_SAMPLES = 500;

function quantile(sorted: number[], q: number): number {
  if (!sorted.length) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.round(q * (sorted.length - 1))))]!;
}

export class TargetClock {
  private bounds: { lo: number; hi: number }[] = [];
  private rtts: number[] = [];

  /** Take one answer: when the request left, when its headers came back (rampart's clock), its Date header. */
  observe(sentAt: number, answeredAt: number, dateHeader: string | undefined): void {
    if (answeredAt >= sentAt) {
      this.rtts.push(answeredAt - sentAt);
      if (this.rtts.length > MAX_SAMPLES) this.rtts.shift();
    }
    if (!dateHeader) return;
    const d = Date.parse(dateHeader);
    if (!Number.isFinite(d)) return;
    this.bounds.push({ lo: d - answeredAt, hi: d + 1000 - sentAt });
    if (this.bounds.length > MAX_SAMPLES) this.bounds.shift();
  }

  /** Start from an estimate made elsewhere (rampart's, handed to k6): it bounds the offset like an answer would. */
  assume(e: { offsetMs: number; uncertaintyMs: number }): void {
    this.bounds.push({ lo: e.offsetMs - e.uncertaintyMs, hi: e.offsetMs + e.uncertaintyMs });
  }

  /** The offset, or undefined when no answer carried a Date header yet. */
  estimate(): ClockEstimate | undefined {
    if (!this.bounds.length) return undefined;
    const lo = Math.max(...this.bounds.map((b) => b.lo));
    const hi = Math.min(...this.bounds.map((b) => b.hi));
    if (lo <= hi) return { offsetMs: Math.round((lo + hi) / 2), uncertaintyMs: Math.ceil((hi - lo) / 2), samples: this.bounds.length };
    // The answers disagree (a fleet of servers whose clocks differ, or a clock that stepped): the
    // middle of their midpoints, widened to cover every one of them.
    const mids = this.bounds.map((b) => (b.lo + b.hi) / 2).sort((a, b) => a - b);
    const mid = quantile(mids, 0.5);
    const spread = Math.max(...this.bounds.map((b) => Math.max(Math.abs(b.lo - mid), Math.abs(b.hi - mid))));
    return { offsetMs: Math.round(mid), uncertaintyMs: Math.ceil(spread), samples: this.bounds.length };
  }

  /** The offset bounds, or a reason none is known (for a check to end unverified with). */
  private range(): { lo: number; hi: number } | string {
    const e = this.estimate();
    if (!e) return "the target's answers carry no Date header, so its clock cannot be estimated";
    return { lo: e.offsetMs - e.uncertaintyMs, hi: e.offsetMs + e.uncertaintyMs };
  }

  /** The target's time while an exchange was in flight: between its send and its answer. */
  during(ex: { startedAt: number; durationMs: number }): TargetSpan | string {
    const r = this.range();
    if (typeof r === 'string') return r;
    return { low: ex.startedAt + r.lo, high: ex.startedAt + ex.durationMs + r.hi };
  }

  /** The target's time now, best estimate (rampart's own when nothing is known yet). */
  nowEstimate(): number {
    return Date.now() + (this.estimate()?.offsetMs ?? 0);
  }

  /** The target's time now. */
  now(): TargetSpan | string {
    const r = this.range();
    if (typeof r === 'string') return r;
    const n = Date.now();
    return { low: n + r.lo, high: n + r.hi };
  }

  /** rampart's time at which the target's clock is surely past `targetMs` (a wait until then is long enough). */
  localWhenPast(targetMs: number): number | string {
    const r = this.range();
    return typeof r === 'string' ? r : targetMs - r.lo;
  }

  /** rampart's time at which the target's clock surely has not reached `targetMs` yet (send before then to arrive before it). */
  localBefore(targetMs: number): number | string {
    const r = this.range();
    return typeof r === 'string' ? r : targetMs - r.hi;
  }

  roundTrip(): RoundTrip | undefined {
    if (!this.rtts.length) return undefined;
    const s = [...this.rtts].sort((a, b) => a - b);
    const min = s[0]!;
    const p95 = quantile(s, 0.95);
    return { minMs: Math.round(min), medianMs: Math.round(quantile(s, 0.5)), p95Ms: Math.round(p95), jitterMs: Math.round(p95 - min), samples: s.length };
  }
}

/** One clock per service: Gate and pools may be different hosts with different clocks. */
export interface TargetClocks {
  gate: TargetClock;
  pools: TargetClock;
}

export function newTargetClocks(): TargetClocks {
  return { gate: new TargetClock(), pools: new TargetClock() };
}

/** The receiver's "now" per channel (gate:<name>, pools:<name>): the sending service's clock. */
export function receiverNow(clocks: TargetClocks): (channel: string) => number {
  return (channel) => (channel.startsWith('pools:') ? clocks.pools : clocks.gate).nowEstimate();
}

export function clockReport(c: TargetClock): TargetClockReport {
  const clock = c.estimate();
  const roundTrip = c.roundTrip();
  return { ...(clock ? { clock } : {}), ...(roundTrip ? { roundTrip } : {}) };
}
