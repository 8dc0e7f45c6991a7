// The target's clock as rampart sees it. A remote sandbox keeps its own time, so
// an absolute timestamp it issues (expiresAt, expires_at, the webhook t=) is
// judged on its clock, never on rampart's. Durations (windows, retry gaps) stay
// on rampart's own monotonic clock and never need this.
//
// Two sources, kept apart:
// - stamps: the creation time of an object the target had just made (a session's
//   created_at, a stored quote's createdAt), stamped while its request was in
//   flight — the target's own clock, the one its other timestamps are on;
// - date: the Date header of every answer (whole seconds, RFC 9110), which a proxy
//   or a load balancer in front of the target may stamp from another clock.
// A sample stamped S while a request was in flight between send s and answer a
// (rampart's clock), at a resolution r, bounds the offset: target = local + offset
// with offset ∈ [S − r/2 − a, S + r − s] (truncated or rounded stamps both fit).
// Per source, the offset is the stretch most samples share (Marzullo's
// intersection); a sample whose interval misses it is an outlier and dropped, so
// one answer ten minutes off widens nothing. Samples that agree with each other
// away from the rest — a run of them in a row, or a third of all — are a step of
// the clock (it jumped), and so is a set of samples no one clock holds two thirds
// of. The stamps judge when they are steady (intersected with the Date headers when
// both agree; alone when the Date headers name another clock, or several: a fleet
// whose nodes' clocks differ stamps its Date headers from each — observed, never
// fatal); the Date headers only when no stamp is known, and from a fleet's clocks a
// few seconds apart, while the stamps cannot yet tell which is the target's own, to
// within both. A time rule fails on a clock that jumped in the target's own stamps,
// or in its Date headers by minutes with no steady stamps to say otherwise; a target
// that shows no clock at all (no Date header, no stamp — neither is required)
// leaves the rule unverified.
//
// Runs inside k6 too (scenarios/quote-ttl.ts): no runtime imports.
import type { ClockEstimate, ClockSourceReport, RoundTrip, TargetClockReport, TargetSpan } from '../wire/targetTime.js';

export type { ClockEstimate, ClockSourceReport, RoundTrip, TargetClockReport, TargetSpan };

const MAX_SAMPLES = 400;
const MAX_RTTS = 500;
/** Consecutive samples agreeing with each other and not with the rest that make a step of the clock, not stray answers. */
const JUMP_RUN = 4;
/** How far from the rest such a run must sit to be a step, ms (less is drift or a slow answer). */
const JUMP_MIN_MS = 1_000;
/** The share of samples one clock must hold; fewer (once there are enough to tell) and the answers name no one clock. */
const DOMINANT_SHARE = 2 / 3;
const DOMINANT_MIN_SAMPLES = 6;
/** Slack each side of a sample: Date.now() and performance.now() are read a moment apart. */
const SLACK_MS = 1;
/**
 * Steady stamps, none discarded, that outweigh Date headers naming two clocks without further evidence: a clock that
 * steps between answers (every other one, say) would have shown its other clock among so many stamps (six stamps all
 * on one of two clocks: one chance in 32).
 */
const STAMPS_OVER_DATE = 6;
/**
 * The widest span two Date clocks may cover and still be taken as one fleet's, while the stamps cannot yet tell which
 * is the target's own: its nodes a few seconds apart. A step of minutes is a clock that jumps.
 */
const FLEET_SPAN_MS = 60_000;

interface Sample {
  lo: number;
  hi: number;
  /** rampart's time of the answer: samples are judged in the order they came. */
  at: number;
}

interface Region {
  lo: number;
  hi: number;
}

/** The stretch of offsets most samples share (Marzullo), and how many share it. */
function densest(samples: readonly Sample[]): Region & { count: number } {
  const ev: [number, number][] = [];
  for (const s of samples) ev.push([s.lo, 1], [s.hi, -1]);
  // Opens before closes at the same point: intervals are closed.
  ev.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  let n = 0;
  let best = { lo: 0, hi: 0, count: 0 };
  for (let i = 0; i < ev.length; i++) {
    n += ev[i]![1];
    if (ev[i]![1] === 1 && n > best.count) best = { lo: ev[i]![0], hi: ev[i + 1]![0], count: n };
  }
  return best;
}

const contains = (s: Sample, r: Region) => s.lo <= r.lo && s.hi >= r.hi;
const mid = (r: Region) => (r.lo + r.hi) / 2;
const gap = (a: Region, b: Region) => Math.max(a.lo - b.hi, b.lo - a.hi);

function intersect(samples: readonly Sample[]): Region | undefined {
  const lo = Math.max(...samples.map((s) => s.lo));
  const hi = Math.min(...samples.map((s) => s.hi));
  return lo <= hi ? { lo, hi } : undefined;
}

/** The first run of JUMP_RUN or more consecutive outliers that agree with each other, well away from the main stretch. */
function findJump(samples: readonly Sample[], main: Region): { byMs: number; samples: number } | undefined {
  const ordered = [...samples].sort((a, b) => a.at - b.at);
  let run: Sample[] = [];
  const judge = () => {
    const r = run.length >= JUMP_RUN ? intersect(run) : undefined;
    const found = r && gap(r, main) >= JUMP_MIN_MS ? { byMs: Math.round(mid(r) - mid(main)), samples: run.length } : undefined;
    run = [];
    return found;
  };
  for (const s of ordered) {
    if (!contains(s, main)) {
      // A run holds only samples that agree with it: one that does not starts a new run.
      if (run.length && !intersect([...run, s])) {
        const found = judge();
        if (found) return found;
      }
      run.push(s);
      continue;
    }
    const found = judge();
    if (found) return found;
  }
  return judge();
}

/**
 * A second clock among the outliers: two or more samples agreeing with each other, well away from the main
 * stretch, holding a third of all samples or more (a clock that jumps back and forth). Stray answers, each off
 * its own way or a few in twenty, are not one.
 */
function secondClock(samples: readonly Sample[], main: Region): { byMs: number; samples: number } | undefined {
  const rest = samples.filter((s) => !contains(s, main));
  if (rest.length < 2) return undefined;
  const other = densest(rest);
  if (other.count < 2 || other.count * 3 < samples.length || gap(other, main) < JUMP_MIN_MS) return undefined;
  return { byMs: Math.round(mid(other) - mid(main)), samples: other.count };
}

/** One source of the target's time: its samples, the stretch most of them share, and whether one clock holds them. */
export class ClockSource {
  private samples: Sample[] = [];

  add(lo: number, hi: number, at: number): void {
    if (!(Number.isFinite(lo) && Number.isFinite(hi) && lo <= hi)) return;
    this.samples.push({ lo: lo - SLACK_MS, hi: hi + SLACK_MS, at });
    if (this.samples.length > MAX_SAMPLES) this.samples.shift();
  }

  /** The stretch every sample allows some part of (their union's hull), or undefined when there are none. */
  span(): Region | undefined {
    if (!this.samples.length) return undefined;
    return { lo: Math.min(...this.samples.map((x) => x.lo)), hi: Math.max(...this.samples.map((x) => x.hi)) };
  }

  /** What the samples say, or undefined when there are none. */
  report(): (ClockSourceReport & Region) | undefined {
    const n = this.samples.length;
    if (!n) return undefined;
    const main = densest(this.samples);
    const region = { lo: main.lo, hi: main.hi };
    const jump = findJump(this.samples, region) ?? secondClock(this.samples, region);
    const dominant = main.count >= DOMINANT_SHARE * n;
    const state = jump || (!dominant && n >= DOMINANT_MIN_SAMPLES) ? 'jumped' : dominant ? 'steady' : 'unsettled';
    return {
      offsetMs: Math.round(mid(region)),
      uncertaintyMs: Math.ceil((region.hi - region.lo) / 2),
      samples: n,
      outliers: n - main.count,
      state,
      ...(jump ? { jump } : {}),
      ...region,
    };
  }
}

/** The clock a time rule is judged on: known within [lo, hi] (offset, ms), or why it cannot be — and whether that is the target's fault. */
export type ClockReading =
  | { kind: 'known'; lo: number; hi: number; basis: 'stamps' | 'date' | 'stamps+date'; estimate: ClockEstimate }
  /** jumped: the target's clock stepped between answers — the target's fault. */
  | { kind: 'jumped'; why: string }
  /** none: no Date header and no stamp — neither is required, so nothing to judge the rule on, and no fault. */
  | { kind: 'none'; why: string }
  /** Too few samples yet to tell a step from a stray answer. */
  | { kind: 'unsettled'; why: string };

/**
 * An ISO 8601 stamp's resolution, ms: from its fractional digits, trailing zeros aside (".120" may be
 * centiseconds); a second without them, a minute without seconds.
 */
export function stampResolutionMs(iso: string): number {
  const m = /T\d{2}:\d{2}(:\d{2}(?:[.,](\d+))?)?/.exec(iso);
  if (m && !m[1]) return 60_000;
  const frac = m?.[2]?.replace(/0+$/, '') ?? '';
  return frac.length >= 3 ? 1 : 10 ** (3 - frac.length);
}

function estimateOf(r: Region, samples: number): ClockEstimate {
  return { offsetMs: Math.round(mid(r)), uncertaintyMs: Math.ceil((r.hi - r.lo) / 2), samples };
}

function quantile(sorted: number[], q: number): number {
  if (!sorted.length) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.round(q * (sorted.length - 1))))]!;
}

export class TargetClock {
  private readonly date = new ClockSource();
  private readonly stamps = new ClockSource();
  private rtts: number[] = [];
  private answers = 0;
  private missingDate = 0;
  /** The Date sample of each recent answer, by the time its request left (null: two answers left in that ms). */
  private readonly recentDates = new Map<number, Region | null>();
  /**
   * Stamped answers whose own Date header named another clock than their stamp: the Date headers come from a clock
   * the target's timestamps are not on (a fleet's front), which a clock that steps never shows (it moves both).
   */
  private splitAnswers = 0;

  /** Take one answer: when the request left, when its headers came back (rampart's clock), its Date header. */
  observe(sentAt: number, answeredAt: number, dateHeader: string | undefined): void {
    if (answeredAt >= sentAt) {
      this.rtts.push(answeredAt - sentAt);
      if (this.rtts.length > MAX_RTTS) this.rtts.shift();
    }
    this.answers++;
    const d = dateHeader ? Date.parse(dateHeader) : NaN;
    if (!Number.isFinite(d)) {
      this.missingDate++;
      return;
    }
    const sample = { lo: d - 500 - answeredAt, hi: d + 1000 - sentAt };
    this.date.add(sample.lo, sample.hi, answeredAt);
    this.recentDates.set(sentAt, this.recentDates.has(sentAt) ? null : sample);
    if (this.recentDates.size > MAX_RTTS) this.recentDates.delete(this.recentDates.keys().next().value!);
  }

  /**
   * Take a creation time the target stamped on an object it made while this request was in flight (sent at
   * `sentAt`, answered at `answeredAt`, rampart's clock). Anything that is not a parseable ISO 8601 string is ignored.
   */
  stamp(sentAt: number, answeredAt: number, iso: unknown): void {
    if (typeof iso !== 'string' || answeredAt < sentAt) return;
    const s = Date.parse(iso);
    if (!Number.isFinite(s)) return;
    const res = stampResolutionMs(iso);
    const sample = { lo: s - res / 2 - answeredAt, hi: s + res - sentAt };
    this.stamps.add(sample.lo, sample.hi, answeredAt);
    const own = this.recentDates.get(sentAt);
    if (own && gap(own, sample) >= JUMP_MIN_MS) this.splitAnswers++;
  }

  /** Start from an estimate judged elsewhere (rampart's, handed to k6): it counts as the target's own stamp. */
  assume(e: { offsetMs: number; uncertaintyMs: number }): void {
    this.stamps.add(e.offsetMs - e.uncertaintyMs, e.offsetMs + e.uncertaintyMs, Date.now());
  }

  /** The clock the time rules are judged on, or why there is none. */
  reading(): ClockReading {
    const s = this.stamps.report();
    const d = this.date.report();
    // A step in the stamps is the target's fault. Date headers from two clocks are a fleet's, never fatal, when the
    // stamps show the target's own clock, or, while they are too few to, when the two clocks are close: the clock is
    // then known to within both (each rule judges that span against what it affords).
    if (s?.state === 'jumped') return { kind: 'jumped', why: `the target's own timestamps ${jumpWhy(s)}` };
    if (d?.state === 'jumped') return this.overTwoClocks(s, d);
    if (s?.state === 'steady') {
      const both = d?.state === 'steady' && gap(s, d) <= 0;
      const r = both ? { lo: Math.max(s.lo, d.lo), hi: Math.min(s.hi, d.hi) } : s;
      return { kind: 'known', ...r, basis: both ? 'stamps+date' : 'stamps', estimate: estimateOf(r, s.samples + (both ? d.samples : 0)) };
    }
    if (d?.state === 'steady') return { kind: 'known', lo: d.lo, hi: d.hi, basis: 'date', estimate: estimateOf(d, d.samples) };
    // A few Date headers that disagree, no stamp: a fleet's first answers, its clocks a few seconds apart, hold the
    // target's clock within all of them; farther apart, one may be a stray answer: not settled yet.
    const all = this.date.span();
    if (!s && d && all && all.hi - all.lo <= FLEET_SPAN_MS) return { kind: 'known', ...all, basis: 'date', estimate: estimateOf(all, d.samples) };
    if (s || d)
      return {
        kind: 'unsettled',
        why: `the target's clock is not settled yet: ${s ? `${s.samples} stamps` : ''}${s && d ? ' and ' : ''}${d ? `${d.samples} Date headers` : ''} disagree`,
      };
    return {
      kind: 'none',
      why: `none of the target's ${this.answers} answers carried a Date header and none of the objects it made carried a creation time (the specs require neither: created_at is "string or null"): its timestamps stand on no clock rampart can read`,
    };
  }

  /**
   * The clock when the Date headers name two clocks (or more). Steady stamps, none off, once a stamped answer's own
   * Date header named the other clock (a clock that steps moves both) or once they are many: the stamps. Else, with no
   * stamp against them, two clocks at most FLEET_SPAN_MS apart: the span of both (stamps elsewhere: a proxy's clocks,
   * the stamps). Farther apart, or stamps off among themselves: the clock jumped.
   */
  private overTwoClocks(s: (ClockSourceReport & Region) | undefined, d: ClockSourceReport & Region): ClockReading {
    if (s?.state === 'steady' && s.outliers === 0 && (this.splitAnswers > 0 || s.samples >= STAMPS_OVER_DATE))
      return { kind: 'known', lo: s.lo, hi: s.hi, basis: 'stamps', estimate: estimateOf(s, s.samples) };
    const span = d.jump ? { lo: Math.min(d.lo, d.lo + d.jump.byMs), hi: Math.max(d.hi, d.hi + d.jump.byMs) } : undefined;
    const near = !!span && span.hi - span.lo <= FLEET_SPAN_MS;
    if (near && (!s || (s.state === 'steady' && s.outliers === 0))) {
      if (s && gap(s, span) > 0) return { kind: 'known', lo: s.lo, hi: s.hi, basis: 'stamps', estimate: estimateOf(s, s.samples) };
      return { kind: 'known', ...span, basis: 'date', estimate: estimateOf(span, d.samples) };
    }
    return {
      kind: 'jumped',
      why: `the target's Date headers ${jumpWhy(d)}${s ? `, and its ${s.samples} stamp(s) so far (${s.outliers} off) do not show a steadier clock of its own` : ''}`,
    };
  }

  /** The offset the rules are judged on, or undefined when the clock is not known. */
  estimate(): ClockEstimate | undefined {
    const r = this.reading();
    return r.kind === 'known' ? r.estimate : undefined;
  }

  /** The offset bounds, or why none is known (for a check to end with). */
  private range(): { lo: number; hi: number } | string {
    const r = this.reading();
    return r.kind === 'known' ? r : r.why;
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
    return this.during({ startedAt: Date.now(), durationMs: 0 });
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
    return {
      minMs: Math.round(min),
      medianMs: Math.round(quantile(s, 0.5)),
      p95Ms: Math.round(p95),
      p99Ms: Math.round(quantile(s, 0.99)),
      jitterMs: Math.round(p95 - min),
      samples: s.length,
    };
  }

  /** Both sources, their agreement, the judged estimate and the answers without a Date header. */
  report(): TargetClockReport {
    const strip = (r?: ClockSourceReport & Region): ClockSourceReport | undefined => {
      if (!r) return undefined;
      const { lo: _lo, hi: _hi, ...rest } = r;
      return rest;
    };
    const s = this.stamps.report();
    const d = this.date.report();
    const reading = this.reading();
    const roundTrip = this.roundTrip();
    return {
      ...(reading.kind === 'known' ? { clock: reading.estimate, basis: reading.basis } : {}),
      ...(s ? { stamps: strip(s) } : {}),
      ...(d ? { date: strip(d) } : {}),
      ...(s?.state === 'steady' && d?.state === 'steady' ? { agree: gap(s, d) <= 0 } : {}),
      ...(this.answers ? { answers: this.answers, missingDate: this.missingDate } : {}),
      ...(roundTrip ? { roundTrip } : {}),
    };
  }
}

function jumpWhy(r: ClockSourceReport): string {
  return r.jump
    ? `jumped by ${(r.jump.byMs / 1000).toFixed(1)} s between answers (${r.jump.samples} of ${r.samples} agree with each other, not with the most)`
    : `name no one clock: no offset holds two thirds of their ${r.samples} samples (${r.outliers} disagree with the most)`;
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
  return c.report();
}
