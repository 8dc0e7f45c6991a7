// Retry-gap tolerances at the profile's time scale (support/gate/deliveries.ts):
// the absolute tolerance is scaled like the schedule, never under rampart's own
// measurement slack, and a schedule whose widened gaps overlap is said to be so.
import { describe, expect, it } from 'vitest';
import { loadProfile } from '../src/profile/load.js';
import type { Profile } from '../src/profile/schema.js';
import type { CheckTools } from '../src/runner/check.js';
import { TargetClock } from '../src/client/targetClock.js';
import { gapTolerance, gapWindow, indistinctGaps, MEASUREMENT_SLACK_MS, scaledSchedule } from '../support/gate/deliveries.js';

const base = loadProfile('fixtures/profiles/embedded.json');
/** A clock that saw round trips of `rtts` ms (none: no network measured yet). */
const clockOf = (rtts: number[] = []) => {
  const c = new TargetClock();
  for (const ms of rtts) c.observe(0, ms, undefined);
  return c;
};
const tools = (retryScale: number, tolerances: Partial<Profile['tolerances']> = {}, clock = clockOf()) =>
  ({
    profile: { ...base, timing: { ...base.timing, retryScale }, tolerances: { ...base.tolerances, ...tolerances } },
    targetClock: () => clock,
  }) as unknown as CheckTools;

describe('retry-gap tolerance', () => {
  it('scales the absolute tolerance with the schedule', () => {
    const at1 = tools(1, { retryGapRatio: 0, retryGapMs: 30_000 });
    expect(gapTolerance(at1, 60_000)).toBe(30_000);
    const compressed = tools(0.01, { retryGapRatio: 0, retryGapMs: 30_000 });
    expect(gapTolerance(compressed, 600)).toBe(300);
    expect(gapTolerance(tools(0.001, { retryGapRatio: 0, retryGapMs: 500 }), 60)).toBe(MEASUREMENT_SLACK_MS);
  });

  it("widens by twice the network's measured round trip (p95; its p99 where stalls make that longer): a gap holds an answer going back and the next attempt coming over", () => {
    const remote = clockOf(Array.from({ length: 100 }, (_, i) => 140 + (i % 20) * 6));
    const late = Math.max(2 * remote.roundTrip()!.p95Ms, remote.roundTrip()!.p99Ms!);
    expect(late).toBeGreaterThan(480);
    expect(gapTolerance(tools(0.01, { retryGapRatio: 0, retryGapMs: 30_000 }, remote), 600)).toBe(300 + late);
    // At ×0.002 that round trip swallows the first gap: the check says so instead of passing.
    expect(indistinctGaps(tools(0.002, {}, remote))).toMatch(/cannot be told from an immediate retry/);
    expect(indistinctGaps(tools(0.01, {}, remote))).toBeUndefined();
  });

  it("a gap's window: the whole round trip above (a sender counting from the answer), only the network's unevenness below", () => {
    const remote = clockOf(Array.from({ length: 100 }, (_, i) => 140 + (i % 20) * 6));
    const rt = remote.roundTrip()!;
    const t = tools(0.01, {}, remote);
    const w = gapWindow(t, 3000);
    expect(w.hi).toBe(3000 + 750 + Math.max(2 * rt.p95Ms, rt.p99Ms!));
    expect(w.lo).toBe(3000 - 750 - rt.jitterMs);
    // The second gap shortened to the first's (1m, 1m, …) arrives about a round trip after 600 ms: outside the window.
    expect(600 + rt.p99Ms!).toBeLessThan(w.lo);
    // On a slow network (round trips near 700 ms) a symmetric tolerance met the shortened gap; the window still does
    // not, so the check fails it (its gaps are judged before it says the first could be an immediate retry).
    const slow = clockOf(Array.from({ length: 100 }, (_, i) => 600 + (i % 20) * 10));
    const ws = gapWindow(tools(0.01, {}, slow), 3000);
    expect(600 + slow.roundTrip()!.p99Ms!).toBeLessThan(ws.lo);
    expect(indistinctGaps(tools(0.01, {}, slow))).toMatch(/first gap .* cannot be told from an immediate retry \(measured within 0–\d+ ms\)/);
  });

  it('before any request only the declared tolerances decide; the round trip widens them once it is measured', () => {
    // A run's first answers (new connections, a cold target) can make the round trip look long: the check must not
    // give up on that before sending, so the up-front decision leaves the network out and the judged one puts it in.
    const cold = clockOf(Array.from({ length: 100 }, (_, i) => 140 + (i % 20) * 6));
    const t = tools(0.002, {}, cold);
    expect(indistinctGaps(t, { network: false })).toBeUndefined();
    expect(indistinctGaps(t)).toMatch(/cannot be told from an immediate retry/);
    expect(gapTolerance(t, 600) - gapTolerance(t, 600, { network: false })).toBe(2 * cold.roundTrip()!.p95Ms);
  });

  it('the embedded profiles tell every gap from its neighbours and the first from an immediate retry', () => {
    for (const file of ['fixtures/profiles/embedded.json', 'fixtures/profiles/embedded-alt.json']) {
      const p = loadProfile(file);
      expect(indistinctGaps({ profile: p, targetClock: () => clockOf() } as unknown as CheckTools), file).toBeUndefined();
    }
    // The widest tolerances a profile may declare still keep real-time gaps apart.
    expect(indistinctGaps(tools(1, { retryGapRatio: 0.5, retryGapMs: 30_000 }))).toBeUndefined();
  });

  it('says so when the windows meet: the first gap at ×0.001 reads as an immediate retry; neighbours overlap under a ratio beyond the schema bound', () => {
    expect(indistinctGaps(tools(0.001))).toMatch(/first gap \(60 ms, measured within 0–160 ms\) cannot be told from an immediate retry/);
    expect(indistinctGaps(tools(0.0025, { retryGapRatio: 0.5 }))).toBeUndefined();
    // Within the schema's bounds (ratio ≤ 0.5) neighbours never meet before the first gap does; the guard holds beyond them.
    expect(indistinctGaps(tools(0.01, { retryGapRatio: 0.7 }))).toMatch(
      /gap 1 \(600 ms, measured within 180–1020 ms\) and gap 2 \(3000 ms, measured within 900–5100 ms\) overlap/,
    );
  });
});
