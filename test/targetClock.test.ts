// The target's clock from two sources kept apart: Date headers (whole seconds)
// and the creation stamps of objects the target just made, each bracketed by the
// request's send and answer. Outliers are discarded, the uncertainty stays
// bounded, the two are compared, and a clock that jumps or shows nothing is told.
import { describe, expect, it } from 'vitest';
import { stampResolutionMs, TargetClock } from '../src/client/targetClock.js';
import { describeTargetClock } from '../src/wire/targetTime.js';

function rng(seed: number) {
  let x = seed;
  return () => (x = (x * 1103515245 + 12345) % 2147483648) / 2147483648;
}

interface FeedOptions {
  rttMs?: number;
  jitterMs?: number;
  seed?: number;
  /** Start time (rampart's clock). */
  from?: number;
  /** The Date header's offset for answer i, when it differs from the target's (a stray answer, a proxy). */
  dateOffset?: (i: number) => number | undefined;
  /** Stamp an object on every k-th answer (0: none). */
  stampEvery?: number;
  /** No Date header at all. */
  noDate?: boolean;
}

/** Answers of a target whose clock runs `offset(i)` ahead, each stamped somewhere inside a round trip of `rttMs` (± jitter). Returns the last time. */
function feed(clock: TargetClock, offset: number | ((i: number) => number), n: number, o: FeedOptions = {}): number {
  const { rttMs = 200, jitterMs = 60, seed = 7, stampEvery = 0 } = o;
  const rnd = rng(seed);
  let t = o.from ?? 1_800_000_000_000;
  for (let i = 0; i < n; i++) {
    t += 137 + Math.floor(rnd() * 900);
    const rtt = rttMs + (rnd() - 0.5) * 2 * jitterMs;
    const at = t + rtt * (0.3 + 0.4 * rnd());
    const off = typeof offset === 'number' ? offset : offset(i);
    const dateAt = at + (o.dateOffset?.(i) ?? off);
    clock.observe(t, t + rtt, o.noDate ? undefined : new Date(Math.floor(dateAt / 1000) * 1000).toUTCString());
    if (stampEvery && i % stampEvery === 0) clock.stamp(t, t + rtt, new Date(Math.floor(at + off)).toISOString());
  }
  return t;
}

describe('TargetClock', () => {
  it('knows nothing without a Date header or a stamp, says why (neither is required), and counts the answers without Date', () => {
    const c = new TargetClock();
    c.observe(1000, 1200, undefined);
    expect(c.estimate()).toBeUndefined();
    const r = c.reading();
    expect(r.kind).toBe('none');
    expect(r.kind !== 'known' && r.why).toMatch(/Date header.*creation time.*specs require neither/);
    expect(c.now()).toMatch(/no clock rampart can read/);
    expect(c.roundTrip()?.medianMs).toBe(200);
    expect(c.report()).toMatchObject({ answers: 1, missingDate: 1 });
  });

  for (const offset of [2000, -2000, 0, 37_500]) {
    it(`finds an offset of ${offset} ms within its stated uncertainty, narrowed below the round trip`, () => {
      const c = new TargetClock();
      feed(c, offset, 300);
      const e = c.estimate()!;
      expect(Math.abs(e.offsetMs - offset)).toBeLessThanOrEqual(e.uncertaintyMs);
      expect(e.uncertaintyMs).toBeLessThan(500);
      expect(e.samples).toBe(300);
      expect(c.reading()).toMatchObject({ kind: 'known', basis: 'date' });
    });
  }

  it('one answer bounds the offset only to a second plus the round trip', () => {
    const c = new TargetClock();
    feed(c, 2000, 1);
    const e = c.estimate()!;
    expect(Math.abs(e.offsetMs - 2000)).toBeLessThanOrEqual(e.uncertaintyMs);
    expect(e.uncertaintyMs).toBeGreaterThan(400);
  });

  it('one answer in twenty with a Date header ten minutes off is discarded: the uncertainty stays bounded', () => {
    const c = new TargetClock();
    feed(c, 2000, 300, { dateOffset: (i) => (i % 20 === 1 ? 2000 - 600_000 : undefined) });
    const e = c.estimate()!;
    expect(Math.abs(e.offsetMs - 2000)).toBeLessThanOrEqual(e.uncertaintyMs);
    expect(e.uncertaintyMs).toBeLessThan(500);
    const date = c.report().date!;
    expect(date.state).toBe('steady');
    expect(date.outliers).toBe(15);
  });

  it('ms stamps of objects the target made narrow the offset to about the round trip, and agree with the Date headers', () => {
    const c = new TargetClock();
    feed(c, 2000, 100, { stampEvery: 5, rttMs: 40, jitterMs: 10 });
    const r = c.reading();
    expect(r).toMatchObject({ kind: 'known', basis: 'stamps+date' });
    const e = c.estimate()!;
    expect(Math.abs(e.offsetMs - 2000)).toBeLessThanOrEqual(e.uncertaintyMs);
    expect(e.uncertaintyMs).toBeLessThan(30);
    expect(c.report()).toMatchObject({ agree: true, stamps: { state: 'steady', samples: 20 } });
  });

  it("Date headers from another clock (a proxy) disagree with the target's stamps: the stamps judge, the disagreement is told", () => {
    const c = new TargetClock();
    feed(c, 0, 60, { stampEvery: 4, dateOffset: () => -900_000 });
    const r = c.reading();
    expect(r.kind === 'known' && r.basis).toBe('stamps');
    expect(Math.abs(c.estimate()!.offsetMs)).toBeLessThan(300);
    const rep = c.report();
    expect(rep.agree).toBe(false);
    expect(Math.round(rep.date!.offsetMs / 1000)).toBe(-900);
    expect(describeTargetClock({ gate: rep })).toMatch(/DISAGREE/);
  });

  it('without a Date header, the stamps alone give the clock', () => {
    const c = new TargetClock();
    feed(c, 2000, 20, { stampEvery: 2, noDate: true });
    expect(c.reading()).toMatchObject({ kind: 'known', basis: 'stamps' });
    expect(c.report()).toMatchObject({ answers: 20, missingDate: 20 });
    expect(describeTargetClock({ gate: c.report() })).toMatch(/20 of 20 answers without a Date header/);
  });

  it('a clock that steps ten minutes and stays there jumped: the reading says so', () => {
    const c = new TargetClock();
    feed(c, (i) => (i < 30 ? 0 : 600_000), 40);
    const r = c.reading();
    expect(r.kind).toBe('jumped');
    expect(r.kind !== 'known' && r.why).toMatch(/jumped by −?600\.0 s/);
    expect(c.estimate()).toBeUndefined();
    expect(c.during({ startedAt: 0, durationMs: 0 })).toMatch(/jumped/);
    expect(c.report().date).toMatchObject({ state: 'jumped', jump: { samples: 10 } });
  });

  it('a clock jumping back and forth every few answers jumped, in its stamps as in its Date headers', () => {
    const c = new TargetClock();
    feed(c, (i) => (Math.floor(i / 5) % 2 ? 600_000 : 0), 30, { stampEvery: 3 });
    expect(c.reading().kind).toBe('jumped');
    expect(c.report().stamps?.state).toBe('jumped');
  });

  it("Date headers from two clocks in turn (a fleet) beside steady stamps: the stamps judge, the Date headers' two clocks are shown", () => {
    const c = new TargetClock();
    feed(c, 1500, 60, { stampEvery: 3, dateOffset: (i) => (i % 2 ? 1500 - 4000 : undefined) });
    const r = c.reading();
    expect(r).toMatchObject({ kind: 'known', basis: 'stamps' });
    expect(Math.abs(c.estimate()!.offsetMs - 1500)).toBeLessThanOrEqual(c.estimate()!.uncertaintyMs);
    expect(c.report()).toMatchObject({ basis: 'stamps', date: { state: 'jumped' }, stamps: { state: 'steady', outliers: 0 } });
  });

  it("Date headers from a fleet's two clocks and a few stamps: known to within both clocks, then to the stamps once an answer's own Date names the other", () => {
    const c = new TargetClock();
    // Stamps on answers 0, 10, 20: their Date headers on the target's own clock, so nothing tells a fleet from a step yet.
    const t = feed(c, 0, 30, { stampEvery: 10, dateOffset: (i) => (i % 2 ? -4000 : undefined) });
    expect(c.report().stamps?.samples).toBe(3);
    expect(c.reading()).toMatchObject({ kind: 'known', basis: 'date' });
    const e = c.estimate()!;
    // The span of both clocks: the true offset (0) inside, four seconds and the Date's own second wide.
    expect(Math.abs(e.offsetMs)).toBeLessThanOrEqual(e.uncertaintyMs);
    expect(e.uncertaintyMs).toBeGreaterThan(2_000);
    expect(e.uncertaintyMs).toBeLessThan(4_000);
    // One stamped answer whose Date header came from the other clock: the stamps are the target's own, steady.
    feed(c, 0, 2, { stampEvery: 1, from: t, seed: 9, dateOffset: (i) => (i === 1 ? -4000 : undefined) });
    expect(c.report().stamps?.samples).toBe(5);
    expect(c.reading()).toMatchObject({ kind: 'known', basis: 'stamps' });
    expect(c.estimate()!.uncertaintyMs).toBeLessThan(300);
  });

  it('Date headers from two clocks and stamps that each agree with their own answer: the stamps judge once they are many', () => {
    const c = new TargetClock();
    const t = feed(c, 0, 30, { stampEvery: 10, dateOffset: (i) => (i % 2 ? -4000 : undefined) });
    expect(c.reading()).toMatchObject({ kind: 'known', basis: 'date' });
    feed(c, 0, 30, { stampEvery: 10, from: t, seed: 9, dateOffset: (i) => (i % 2 ? -4000 : undefined) });
    expect(c.report().stamps?.samples).toBe(6);
    expect(c.reading()).toMatchObject({ kind: 'known', basis: 'stamps' });
  });

  it("Date headers from two clocks minutes apart, and too few stamps to say which is the target's own: the clock jumped", () => {
    const none = new TargetClock();
    feed(none, 0, 40, { dateOffset: (i) => (i % 2 ? 600_000 : undefined) });
    expect(none.reading().kind).toBe('jumped');
    const few = new TargetClock();
    feed(few, 0, 40, { stampEvery: 20, dateOffset: (i) => (i % 2 ? 600_000 : undefined) });
    expect(few.report().stamps?.samples).toBe(2);
    const r = few.reading();
    expect(r.kind).toBe('jumped');
    expect(r.kind !== 'known' && r.why).toMatch(/its 2 stamp\(s\) so far \(0 off\) do not show a steadier clock/);
  });

  it("Date headers from a fleet's two clocks and no stamp at all: known to within both", () => {
    const c = new TargetClock();
    feed(c, 1500, 40, { dateOffset: (i) => (i % 2 ? 1500 - 4000 : undefined) });
    expect(c.reading()).toMatchObject({ kind: 'known', basis: 'date' });
    expect(Math.abs(c.estimate()!.offsetMs - 1500)).toBeLessThanOrEqual(c.estimate()!.uncertaintyMs);
  });

  it('a clock that steps every other answer, stamps and Date headers alike, jumped even with many stamps', () => {
    const c = new TargetClock();
    feed(c, (i) => (i % 2 ? 600_000 : 0), 60, { stampEvery: 1 });
    expect(c.reading().kind).toBe('jumped');
    expect(c.report().stamps?.state).toBe('jumped');
  });

  it('two samples that disagree are unsettled, not a jump', () => {
    const c = new TargetClock();
    feed(c, (i) => (i === 1 ? 600_000 : 0), 2);
    expect(c.reading().kind).toBe('unsettled');
  });

  it("a stamp's resolution follows its fractional digits, trailing zeros aside (a minute without seconds)", () => {
    expect(stampResolutionMs('2026-05-25T10:00Z')).toBe(60_000);
    expect(stampResolutionMs('2026-05-25T10:00:00Z')).toBe(1000);
    expect(stampResolutionMs('2026-05-25T10:00:00.000Z')).toBe(1000);
    expect(stampResolutionMs('2026-05-25T10:00:00.120Z')).toBe(10);
    expect(stampResolutionMs('2026-05-25T10:00:00.123Z')).toBe(1);
    expect(stampResolutionMs('2026-05-25T10:00:00.123456+00:00')).toBe(1);
  });

  it('whole-second stamps (or ms written as .000) are still honest samples: the true offset stays inside', () => {
    const c = new TargetClock();
    const rnd = rng(3);
    let t = 1_800_000_000_000;
    for (let i = 0; i < 50; i++) {
      t += 500 + Math.floor(rnd() * 900);
      const at = t + 5;
      c.stamp(t, t + 10, new Date(Math.floor((at + 1500) / 1000) * 1000).toISOString());
    }
    const e = c.estimate()!;
    expect(c.reading().kind).toBe('known');
    expect(Math.abs(e.offsetMs - 1500)).toBeLessThanOrEqual(e.uncertaintyMs);
  });

  it('spans of the target clock: during an exchange, and the local times before and past a target instant', () => {
    const c = new TargetClock();
    feed(c, 2000, 300);
    const e = c.estimate()!;
    const span = c.during({ startedAt: 1_000_000, durationMs: 200 });
    if (typeof span === 'string') throw new Error(span);
    const r = c.reading();
    if (r.kind !== 'known') throw new Error(r.why);
    expect(span.low).toBe(1_000_000 + r.lo);
    expect(span.high).toBe(1_000_200 + r.hi);
    expect(r.hi - r.lo).toBeLessThanOrEqual(2 * e.uncertaintyMs);
    const past = c.localWhenPast(5_000_000) as number;
    const before = c.localBefore(5_000_000) as number;
    expect(past + r.lo).toBe(5_000_000);
    expect(before + r.hi).toBe(5_000_000);
    expect(before).toBeLessThanOrEqual(past);
  });

  it('the terminal line shows both estimates and their agreement', () => {
    const c = new TargetClock();
    feed(c, 2000, 50, { stampEvery: 5 });
    expect(describeTargetClock({ gate: c.report() })).toMatch(
      /^target: gate \+2\.0 s ± 0\.\d\d s against rampart's clock \(stamps \+2\.0 s ± 0\.\d\d s \(10 objects\); Date \+[12]\.\d s ± 0\.\d\d s \(50 answers\); they agree\), round trip \d+ ms/,
    );
  });
});
