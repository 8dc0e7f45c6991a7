// The rate-window probe and its judge (scenarios/lib/window*.ts) on a virtual
// clock against simulated targets: every documented reading of "L per W"
// (sliding, sliding counting refusals, fixed buckets at any phase, a window
// opened by the first request) passes count, reopen and length for every
// window the scenario measures; a window of the wrong length or limit fails.
import { describe, expect, it } from 'vitest';
import { GATE_RATE_WINDOWS, ROUTE_GROUP_FIRST_WINDOW } from '../src/model/limits.js';
import { windowPlans, type WindowCase } from '../scenarios/lib/rateCases.ts';
import { countHolds, judgeWindow, type WindowVerdict } from '../scenarios/lib/windowJudge.ts';
import { runWindowProbe, type WindowPlan } from '../scenarios/lib/windowProbe.ts';
import { fixed, fromFirst, mulberry32 as rng, sliding, type Limiter } from './support/limiters.js';

const LIMITS = { ...GATE_RATE_WINDOWS, routeFirst: ROUTE_GROUP_FIRST_WINDOW };

function probeAgainst(limiter: Limiter, plan: WindowPlan, seed: number): WindowVerdict {
  const rand = rng(seed);
  let t = 1_700_000_000_000 + Math.floor(rand() * 3_600_000);
  const lag = () => 1 + rand() * 19 + (rand() < 0.03 ? 150 : 0);
  const log = runWindowProbe(
    {
      now: () => t,
      sleepUntil: (due) => {
        t = Math.max(t, due) + rand() * 5;
      },
      send: () => {
        t += lag();
        const ok = limiter(t);
        t += lag();
        return ok ? 200 : 429;
      },
    },
    plan,
  );
  return judgeWindow(log, plan);
}

const plans = windowPlans(LIMITS, 1);
const CASES = Object.keys(plans) as WindowCase[];
// Eight runs per case and reading (three for the hour: about 900 requests each).
const seedsFor = (c: WindowCase) => (c === 'hour' ? [1, 2, 3] : [1, 2, 3, 4, 5, 6, 7, 8]);

describe('rate-window judge: every documented reading passes', () => {
  for (const c of CASES) {
    const p = plans[c];
    const readings: [string, (seed: number) => Limiter][] = [
      ['sliding', () => sliding(p.limit, p.windowMs)],
      ['sliding, refused requests count', () => sliding(p.limit, p.windowMs, true)],
      ['fixed buckets', (seed) => fixed(p.limit, p.windowMs, rng(seed * 7)() * p.windowMs)],
      ['fixed window from the first request', () => fromFirst(p.limit, p.windowMs)],
    ];
    for (const [name, make] of readings) {
      it(`${c} (${p.limit} per ${p.windowMs / 1000} s), ${name}`, () => {
        for (const seed of seedsFor(c)) {
          const v = probeAgainst(make(seed), p, seed);
          expect(v.consistent, `seed ${seed}: ${JSON.stringify(v.mismatches)}`).toContain(name);
          expect(countHolds(v), `seed ${seed}: first 429 at ${v.firstRejected}`).toBe(true);
          expect(v.reopened).toBe(true);
        }
      });
    }
  }

  for (const c of ['burst', 'write10', 'write30', 'read60'] as const) {
    it(`${c}: a sliding window and fixed buckets are told apart on a back-to-back walk`, () => {
      const p = plans[c];
      for (const seed of [11, 12, 13]) {
        const s = probeAgainst(sliding(p.limit, p.windowMs), p, seed);
        expect(s.consistent).toEqual(['sliding']);
        expect(s.refillAccepted).toBe(Math.floor(p.limit / 2));
        const f = probeAgainst(fixed(p.limit, p.windowMs, seed * 1234), p, seed);
        expect(f.consistent).not.toContain('sliding');
        expect(f.consistent).toContain('fixed buckets');
      }
    });
  }
});

describe('rate-window judge: a window of the wrong length or limit fails', () => {
  for (const c of CASES) {
    const p = plans[c];
    const faults: [string, (seed: number) => Limiter][] = [
      ['sliding, half as long', () => sliding(p.limit, p.windowMs / 2)],
      ['sliding, twice as long', () => sliding(p.limit, p.windowMs * 2)],
      ['fixed buckets, half as long', (seed) => fixed(p.limit, p.windowMs / 2, rng(seed)() * p.windowMs)],
      ['fixed buckets, twice as long', (seed) => fixed(p.limit, p.windowMs * 2, rng(seed)() * p.windowMs)],
      ['from the first request, half as long', () => fromFirst(p.limit, p.windowMs / 2)],
      ['from the first request, twice as long', () => fromFirst(p.limit, p.windowMs * 2)],
    ];
    for (const [name, make] of faults) {
      it(`${c}: ${name} is not a ${p.windowMs / 1000} s window`, () => {
        for (const seed of seedsFor(c)) {
          const v = probeAgainst(make(seed), p, seed);
          expect(v.consistent, `seed ${seed}: r1 after ${v.r1AfterFirstMs} ms, period ${v.periodMs} ms`).toEqual([]);
        }
      });
    }
    it(`${c}: one request too many fails the count or the length`, () => {
      for (const seed of seedsFor(c)) {
        const v = probeAgainst(sliding(p.limit + 1, p.windowMs), p, seed);
        expect(countHolds(v) && v.consistent.length > 0, `seed ${seed}: first 429 at ${v.firstRejected}`).toBe(false);
      }
    });
  }

  it('a window twice as long does not reopen in time', () => {
    const p = plans.burst;
    expect(probeAgainst(sliding(p.limit, p.windowMs * 2), p, 5).reopened).toBe(false);
  });
});

describe('the window tolerance is the profile’s tolerances.rateWindowRatio', () => {
  it('a share of the window, within 20 ms and 1 s', () => {
    expect(windowPlans(LIMITS, 0.1).burst.toleranceMs).toBe(50);
    expect(windowPlans(LIMITS, 0.1, 0.1).burst.toleranceMs).toBe(100);
    expect(windowPlans(LIMITS, 0.1, 0).burst.toleranceMs).toBe(20);
    expect(windowPlans(LIMITS, 1, 0.1).minute.toleranceMs).toBe(1_000);
  });
});
