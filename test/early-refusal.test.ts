// What explains a 429 before the minute window's count on one key's stream (src/load/earlyRefusal.ts): another
// route of the key accepted (the route's own window), rampart's own requests filling the hour window, or the key
// refused as a whole (the hour window holding requests from before the run, traffic from elsewhere) — judged on the
// next attempt: refused at the same count again, a hold apart, it is the minute window's own, narrower count.
import { describe, expect, it } from 'vitest';
import { earlyRefusalAt, explain, unjudgedWhy, witnessOf, type EarlyRefusal } from '../src/load/earlyRefusal.js';
import type { RouteGroup } from '../src/model/limits.js';
import type { Sent } from '../scenarios/lib/windowProbe.js';

const W = { windowMs: 3_000, hourMs: 180_000, toleranceMs: 150 };

/** A stream of `admitted` accepted requests 10 ms apart from `t0`, then one refused. */
function stream(t0: number, admitted: number): { log: Sent[]; groups: RouteGroup[] } {
  const log: Sent[] = Array.from({ length: admitted }, (_, i) => ({ n: i + 1, phase: 'walk1', a: t0 + i * 10, b: t0 + i * 10 + 5, status: 200 }));
  log.push({ n: admitted + 1, phase: 'walk1', a: t0 + admitted * 10, b: t0 + admitted * 10 + 5, status: 429 });
  return { log, groups: log.map(() => 'read60') };
}

const refusal = (t0: number, admitted: number, witness: EarlyRefusal['witness'], hourBefore = 0): EarlyRefusal => {
  const { log, groups } = stream(t0, admitted);
  const r = earlyRefusalAt(log, groups, log.length - 1, { startAt: t0, firstAt: t0 }, W);
  return { ...r, hourOwn: r.hourOwn + hourBefore, witness };
};

describe('an early 429 on the stream', () => {
  it('counts the requests before it in the minute (refused ones too) and in the hour', () => {
    const r = refusal(10_000, 55, undefined);
    expect([r.n, r.inWindow, r.admitted, r.hourOwn, r.group]).toEqual([56, 55, 55, 55, 'read60']);
  });

  it('takes as witness the next request of another group sent right after it; a later one means none came', () => {
    const { log, groups } = stream(0, 10);
    const r = earlyRefusalAt(log, groups, 10, { startAt: 0, firstAt: 0 }, W);
    const next = (a: number, g: RouteGroup, status: number) => {
      log.push({ n: log.length + 1, phase: 'walk1', a, b: a + 5, status });
      groups.push(g);
      return witnessOf(r, log, groups, log.length - 1, 200);
    };
    expect(next(log[10]!.b + 1, 'read60', 200)).toBeUndefined();
    expect(next(log[10]!.b + 2, 'default', 200)).toBe('accepted');
    expect(next(log[10]!.b + 3, 'default', 429)).toBe('refused');
    expect(next(log[10]!.b + 500, 'read60', 200)).toBe('none');
  });

  it("another route accepted: the route's own window refused, not the minute window", () => {
    expect(explain(refusal(0, 20, 'accepted'), [], 300)).toBe('route');
  });

  it("rampart's own requests fill the hour window: the hour window explains it", () => {
    expect(explain(refusal(0, 20, 'refused', 280), [], 300)).toBe('hour');
  });

  it('the key refused as a whole: outside traffic may explain it once; at the same count again, a hold apart, it is the minute window', () => {
    const first = refusal(0, 55, 'refused');
    expect(explain(first, [], 300)).toBe('outside');
    // In the same attempt (a request in flight beside it) the count proves nothing more.
    expect(explain({ ...refusal(0, 55, 'refused'), n: 57 }, [first], 300)).toBe('outside');
    const again = refusal(10_000, 55, 'none');
    expect(explain(again, [first], 300)).toBe('repeats');
    expect(again.repeats).toBe(first.n);
    // Another count, or none admitted at all (the hour window still full), is no such evidence.
    expect(explain(refusal(10_000, 31, 'refused'), [first], 300)).toBe('outside');
    const none = refusal(0, 0, 'refused');
    expect(explain(refusal(10_000, 0, 'refused'), [none], 300)).toBe('outside');
  });

  it('says the numbers when no attempt could judge the window past them', () => {
    const why = unjudgedWhy([refusal(0, 50, 'refused', 200), refusal(10_000, 0, 'none', 250)], 60, 300);
    expect(why).toMatch(/refused as a whole before the minute window held 60 \(request 51 with 50 admitted in the minute and 250 of rampart's in the hour/);
    expect(why).toMatch(/may hold requests from before the run/);
  });
});
