// The target's clock from Date headers: whole seconds stamped while a request
// was in flight bound the offset; many answers narrow it to about the round trip.
import { describe, expect, it } from 'vitest';
import { TargetClock } from '../src/client/targetClock.js';

/** Answers of a target whose clock runs `offsetMs` ahead, each stamped halfway through a round trip of `rttMs` (± jitter). */
function feed(clock: TargetClock, offsetMs: number, n: number, rttMs = 200, jitterMs = 60, seed = 7): void {
  let x = seed;
  const rnd = () => (x = (x * 1103515245 + 12345) % 2147483648) / 2147483648;
  let t = 1_800_000_000_000;
  for (let i = 0; i < n; i++) {
    t += 137 + Math.floor(rnd() * 900);
    const rtt = rttMs + (rnd() - 0.5) * 2 * jitterMs;
    const stampedAt = t + rtt * (0.3 + 0.4 * rnd()) + offsetMs;
    clock.observe(t, t + rtt, new Date(Math.floor(stampedAt / 1000) * 1000).toUTCString());
  }
}

describe('TargetClock', () => {
  it('knows nothing without a Date header, and says why', () => {
    const c = new TargetClock();
    c.observe(1000, 1200, undefined);
    expect(c.estimate()).toBeUndefined();
    expect(c.now()).toMatch(/no Date header/);
    expect(c.roundTrip()?.medianMs).toBe(200);
  });

  for (const offset of [2000, -2000, 0, 37_500]) {
    it(`finds an offset of ${offset} ms within its stated uncertainty, narrowed below the round trip`, () => {
      const c = new TargetClock();
      feed(c, offset, 300);
      const e = c.estimate()!;
      expect(Math.abs(e.offsetMs - offset)).toBeLessThanOrEqual(e.uncertaintyMs);
      expect(e.uncertaintyMs).toBeLessThan(200);
      expect(e.samples).toBe(300);
    });
  }

  it('one answer bounds the offset only to a second plus the round trip', () => {
    const c = new TargetClock();
    feed(c, 2000, 1);
    const e = c.estimate()!;
    expect(Math.abs(e.offsetMs - 2000)).toBeLessThanOrEqual(e.uncertaintyMs);
    expect(e.uncertaintyMs).toBeGreaterThan(400);
  });

  it('answers that disagree (servers whose clocks differ) widen the estimate to cover them all', () => {
    const c = new TargetClock();
    feed(c, 2000, 50, 200, 60, 1);
    feed(c, 6000, 50, 200, 60, 2);
    const e = c.estimate()!;
    expect(e.offsetMs - e.uncertaintyMs).toBeLessThanOrEqual(2000);
    expect(e.offsetMs + e.uncertaintyMs).toBeGreaterThanOrEqual(6000);
  });

  it('spans of the target clock: during an exchange, and the local times before and past a target instant', () => {
    const c = new TargetClock();
    feed(c, 2000, 300);
    const e = c.estimate()!;
    const span = c.during({ startedAt: 1_000_000, durationMs: 200 });
    if (typeof span === 'string') throw new Error(span);
    expect(span.low).toBe(1_000_000 + e.offsetMs - e.uncertaintyMs);
    expect(span.high).toBe(1_000_200 + e.offsetMs + e.uncertaintyMs);
    const past = c.localWhenPast(5_000_000) as number;
    const before = c.localBefore(5_000_000) as number;
    expect(past + e.offsetMs - e.uncertaintyMs).toBe(5_000_000);
    expect(before + e.offsetMs + e.uncertaintyMs).toBe(5_000_000);
    expect(before).toBeLessThanOrEqual(past);
  });
});
