// The Limits rows' route probes (scenarios/lib/routeProbes.ts) on a virtual
// clock: a route in its documented group passes under every reading of
// "L per W" (sliding, sliding counting refusals, fixed buckets at any phase, a
// window from the first request) — a walk straddling a fixed bucket's edge is
// tried again, never failed — and a route in another group's window fails.
import { describe, expect, it } from 'vitest';
import { GATE_RATE_WINDOWS, ROUTE_GROUP_FIRST_WINDOW, type RouteGroup } from '../src/model/limits.js';
import { probeRoute, type RouteProbe, type RouteVerdict } from '../scenarios/lib/routeProbes.ts';
import { fixed, fromFirst, sliding, type Limiter } from './support/limiters.js';

const SCALE = 0.1;
const timing = { firstWindowMs: GATE_RATE_WINDOWS.first.windowMs * SCALE, minuteMs: GATE_RATE_WINDOWS.minute.windowMs * SCALE, toleranceMs: 50 };

/** The limiter a route of `group` meets (its first window; the minute window never binds a single probe). */
function readings(group: RouteGroup): Record<string, () => Limiter> {
  const w = ROUTE_GROUP_FIRST_WINDOW[group];
  const ms = w.windowMs * SCALE;
  return {
    sliding: () => sliding(w.limit, ms),
    'sliding, refusals count': () => sliding(w.limit, ms, true),
    ...Object.fromEntries([0, 0.01, 0.3, 0.5, 0.97, 0.999].map((f) => [`fixed buckets, phase ${f}`, () => fixed(w.limit, ms, f * ms)])),
    'from the first request': () => fromFirst(w.limit, ms),
  };
}

/** A probe of `group` against `limiter`, started at `t0` (its first try; one more a window later when it asks). */
function run(group: RouteGroup, limiter: Limiter, t0: number): RouteVerdict {
  let now = t0;
  const io = {
    now: () => now,
    sleepUntil: (t: number) => {
      now = Math.max(now, t);
    },
    send: () => {
      now += 7;
      return limiter(now) ? 200 : 429;
    },
  };
  const probe: RouteProbe = { item: 'a route', group, method: 'GET', path: '/x' };
  const first = probeRoute(io, probe, timing, false);
  if (!first.retry) return first;
  io.sleepUntil(now + ROUTE_GROUP_FIRST_WINDOW[group].windowMs * SCALE * 1.1);
  return probeRoute(io, probe, timing, true);
}

const GROUPS: RouteGroup[] = ['write10', 'write30', 'read60', 'default'];

describe('route probes of the Limits rows', () => {
  for (const group of GROUPS) {
    it(`a ${group} route passes under every reading, whatever the clock's phase`, () => {
      for (const [reading, make] of Object.entries(readings(group)))
        for (const t0 of [0, 1_234, 5_999, 59_995].map((x) => x * SCALE)) {
          const v = run(group, make(), t0);
          expect(v.judged && v.ok, `${reading} at ${t0}: ${v.detail}`).toBe(true);
        }
    });
  }

  it('a route in another group fails: every wrong pairing of the four windows', () => {
    for (const documented of GROUPS)
      for (const actual of GROUPS) {
        if (actual === documented) continue;
        for (const [reading, make] of Object.entries(readings(actual))) {
          if (reading.startsWith('fixed') && reading !== 'fixed buckets, phase 0.5') continue;
          const v = run(documented, make(), 0);
          expect(v.judged && !v.ok, `${documented} route in the ${actual} window (${reading}): ${v.detail}`).toBe(true);
        }
      }
  });

  it('a route whose every answer refuses the credential is not judged (nothing may have been counted)', () => {
    let now = 0;
    const io = { now: () => now, sleepUntil: (t: number) => void (now = Math.max(now, t)), send: () => ((now += 5), 403) };
    const probe: RouteProbe = { item: 'POST /rails/pay_outs', group: 'write30', method: 'POST', path: '/rails/pay_outs' };
    expect(probeRoute(io, probe, timing, false).retry).toBe(true);
    const v = probeRoute(io, probe, timing, true);
    expect([v.judged, v.ok]).toEqual([false, false]);
  });
});
