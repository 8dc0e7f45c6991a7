// The Limits rows' route probes (scenarios/lib/routeProbes.ts) on a virtual
// clock: a route in its documented group passes under every reading of
// "L per W" (sliding, sliding counting refusals, fixed buckets at any phase, a
// window from the first request) — a walk straddling a fixed bucket's edge is
// tried again, never failed — and a route in another group's window fails.
import { describe, expect, it } from 'vitest';
import { GATE_RATE_WINDOWS, ROUTE_GROUP_FIRST_WINDOW, gateRouteGroup, type RouteGroup } from '../src/model/limits.js';
import { specText } from '../src/model/specText.js';
import { PROBE_MAX_SENDS, probeRoute, routeProbes, type RouteProbe, type RouteVerdict } from '../scenarios/lib/routeProbes.ts';
import { rateLimitMandatory, routeKeysForFastest, routeLanes } from '../scenarios/lib/rateCases.ts';
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

/**
 * A probe of `group` against `limiter`, started at `t0` (its first try; one more a window later when it asks, or, after
 * an early refusal, a quiet minute window after its first walk began). `witness` answers a request of another route.
 */
function run(group: RouteGroup, limiter: Limiter, t0: number, witness?: (t: number) => number | undefined): RouteVerdict {
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
    ...(witness ? { witness: () => witness((now += 7)) } : {}),
  };
  const probe: RouteProbe = { item: 'a route', group, method: 'GET', path: '/x' };
  const first = probeRoute(io, probe, timing, false);
  if (!first.retry) return first;
  io.sleepUntil(first.early ? t0 + timing.minuteMs + timing.toleranceMs + 1 : now + ROUTE_GROUP_FIRST_WINDOW[group].windowMs * SCALE * 1.1);
  return probeRoute(io, probe, timing, true);
}

/**
 * A key's windows as a target keeps them: the route's row window and the key's minute window, each sliding (refused
 * requests counted or not); `prior` requests of the key sent just before the probe (another route, a preflight).
 * Returns the probe's limiter and the witness (a request of another route: only the minute window counts it).
 */
function keyWindows(row: { limit: number; ms: number }, prior: number, countRefused = false) {
  const minute = { limit: GATE_RATE_WINDOWS.minute.limit, ms: GATE_RATE_WINDOWS.minute.windowMs * SCALE };
  const rowLog: number[] = [];
  const minuteLog: number[] = Array.from({ length: prior }, () => -1);
  const admit = (t: number, logs: number[][], limits: { limit: number; ms: number }[]) => {
    const ok = logs.every((l, i) => l.filter((x) => x > t - limits[i]!.ms).length < limits[i]!.limit);
    if (ok || countRefused) for (const l of logs) l.push(t);
    return ok;
  };
  const limiter: Limiter = (t) => admit(t, [rowLog, minuteLog], [row, minute]);
  const witness = (t: number) => (admit(t, [minuteLog], [minute]) ? 200 : 429);
  return { limiter, witness };
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

  it('a route whose every answer refuses the credential judges nothing by itself: it ends at once, for the scenario to judge against the key', () => {
    for (const group of GROUPS) {
      let now = 0;
      let sent = 0;
      const io = { now: () => now, sleepUntil: (t: number) => void (now = Math.max(now, t)), send: () => ((now += 5), sent++, 403) };
      const probe: RouteProbe = { item: 'a route', group, method: 'POST', path: '/x' };
      const v = probeRoute(io, probe, timing, false);
      expect([v.judged, v.ok, v.credentialRefused, v.retry], group).toEqual([false, false, true, undefined]);
      // One walk, no second try: nothing a fixed edge could change.
      expect(sent).toBe(v.statuses.length);
    }
  });

  it('a read60 route no window counts fails: 61 back to back pass on both tries', () => {
    const v = run('read60', () => true, 0);
    expect([v.judged, v.ok], v.detail).toEqual([true, false]);
    expect(v.detail).toMatch(/no window of 60 per minute counts the route/);
  });

  it('a read60 route in a window narrower than 60 per minute fails, whatever the reading', () => {
    for (const make of [() => sliding(55, 6_000), () => sliding(55, 6_000, true), () => fixed(55, 6_000, 3_000), () => fromFirst(55, 6_000)]) {
      const v = run('read60', make(), 0);
      expect([v.judged, v.ok], v.detail).toEqual([true, false]);
      expect(v.detail).toMatch(/refused at request 56 of 61/);
    }
  });

  it('a read60 route whose key already sent requests inside the minute passes: refused early, it is tried again a quiet minute later', () => {
    const row = { limit: 60, ms: GATE_RATE_WINDOWS.minute.windowMs * SCALE };
    for (const countRefused of [false, true])
      for (const prior of [1, 5, 29]) {
        const { limiter, witness } = keyWindows(row, prior, countRefused);
        const v = run('read60', limiter, 0, witness);
        expect([v.judged, v.ok], `${prior} before, refusals counted ${countRefused}: ${v.detail}`).toEqual([true, true]);
      }
  });

  it('a read60 route in a row window narrower than 60 fails on both tries, its witness on another route accepted', () => {
    for (const prior of [0, 1]) {
      const { limiter, witness } = keyWindows({ limit: 45, ms: GATE_RATE_WINDOWS.minute.windowMs * SCALE }, prior);
      const v = run('read60', limiter, 0, witness);
      expect([v.judged, v.ok], v.detail).toEqual([true, false]);
      expect(v.detail).toMatch(/refused at request 46 of 61: fewer than 60 pass.*on both tries.*another route of the key answered 200/);
    }
  });

  it('a route refusing every request fails when another route of the key is accepted, and is not judged when the key is refused as a whole', () => {
    const alone = run(
      'read60',
      () => false,
      0,
      () => 200,
    );
    expect([alone.judged, alone.ok], alone.detail).toEqual([true, false]);
    expect(alone.detail).toMatch(/refused at its first request of 61/);
    // The key's hour window full (traffic from outside the run): every route refused, the witness too.
    const whole = run(
      'read60',
      () => false,
      0,
      () => 429,
    );
    expect([whole.judged, whole.ok], whole.detail).toEqual([false, false]);
    expect(whole.detail).toMatch(/limited as a whole/);
    // No witness could be sent: the refusal stands, twice a quiet minute apart.
    const none = run(
      'write30',
      () => false,
      0,
      () => undefined,
    );
    expect([none.judged, none.ok], none.detail).toEqual([true, false]);
  });

  it('a read60 route counted only by the minute window passes (60 per minute either way: the two cannot be told apart)', () => {
    const v = run('read60', sliding(GATE_RATE_WINDOWS.minute.limit, GATE_RATE_WINDOWS.minute.windowMs * SCALE), 0);
    expect([v.judged, v.ok], v.detail).toEqual([true, true]);
  });
});

describe('the route probes against the Limits table', () => {
  /** The table's rows as written: group → the items of its Operations cell. */
  const rows = (): Record<RouteGroup, string[]> => {
    const byLimit: Record<string, RouteGroup> = {
      '10 per minute': 'write10',
      '30 per minute': 'write30',
      '60 per minute': 'read60',
      'default windows': 'default',
    };
    const out = { write10: [], write30: [], read60: [], default: [] } as Record<RouteGroup, string[]>;
    for (const line of specText('gate').split('\n')) {
      const m = /^\| (10 per minute|30 per minute|60 per minute|default windows) \| (.+) \|$/.exec(line);
      if (m) out[byLimit[m[1]!]!] = m[2]!.split(', ');
    }
    return out;
  };
  // Each group's window is measured by length on one route of its row (scenarios/rate-limits.ts); the probes take the rest.
  const MEASURED: Record<RouteGroup, string[]> = {
    write10: ['POST /gate_sessions'],
    write30: ['PATCH /branding'],
    read60: ['GET /branding'],
    default: ['GET and PATCH /dashboard/webhook-settings'],
  };

  it('every item of every Limits row is probed in its group or measured by a case, and nothing else is probed', () => {
    const table = rows();
    expect(Object.values(table).every((items) => items.length > 0)).toBe(true);
    const probes = routeProbes({ amount: '10.00', currency: 'EUR' });
    for (const group of GROUPS) {
      const probed = probes.filter((p) => p.group === group).map((p) => p.item);
      // The default row names GET and PATCH of the settings in one item: GET is measured by the burst case, PATCH probed.
      const expected = table[group].filter((i) => !MEASURED[group].includes(i));
      if (group === 'default') expected.push('PATCH /dashboard/webhook-settings');
      expect(probed.sort(), group).toEqual(expected.sort());
      for (const p of probes.filter((x) => x.group === group)) expect(gateRouteGroup(p.method, p.path), p.item).toBe(group);
    }
    expect(table.default).toContain('GET and PATCH /dashboard/webhook-settings');
  });

  it('with keys of their own for the fastest schedule, every probe runs once, from the first second, on no case key', () => {
    const probes = routeProbes({});
    const own = routeKeysForFastest(probes);
    const lanes = routeLanes({ ...LANE_INPUT, ownKeys: own, probes });
    expect(lanes.flatMap((l) => l.probes.map((p) => p.item)).sort()).toEqual(probes.map((p) => p.item).sort());
    expect(lanes.every((l) => 'own' in l.key && l.startMs === 0 && !l.after)).toBe(true);
    // No key takes two long probes (each fills its minute window past half).
    for (const l of lanes) expect(l.probes.filter((p) => PROBE_MAX_SENDS[p.group] > 30 && !p.publishable).length).toBeLessThanOrEqual(1);
    const m = rateLimitMandatory(LIMITS, 1, 'quick', own);
    expect(m.lanesMs).toBeLessThan(m.casesMs);
    expect(m.sharedLanes).toBe(0);
  });

  it("short probes ride beside write30 probes (a read60 probe fills its key's minute window), and no lane overfills an hour window", () => {
    const probes = routeProbes({});
    const own = routeKeysForFastest(probes);
    for (const l of routeLanes({ ...LANE_INPUT, ownKeys: own, probes })) {
      const secretShort = l.probes.filter((p) => !p.publishable && PROBE_MAX_SENDS[p.group] <= 30);
      if (secretShort.length)
        expect(
          l.probes.some((p) => p.group === 'read60'),
          l.probes.map((p) => p.item).join(),
        ).toBe(false);
      expect(l.minutes).toBe(0);
    }
    // No keys of their own at --depth full (the hour key busy): the keys left carry their cases' requests too.
    for (const hourKeyFree of [true, false]) {
      const lanes = routeLanes({ ...LANE_INPUT, hourKeyFree, ownKeys: 0, probes });
      expect(lanes.flatMap((l) => l.probes.map((p) => p.item)).sort()).toEqual(probes.map((p) => p.item).sort());
      for (const l of lanes) {
        const sends = l.hourBase + l.probes.filter((p) => !p.publishable).reduce((n, p) => n + PROBE_MAX_SENDS[p.group], 0);
        // Over one hour window's 300, the lane says it waits an hour (the scenario waits, or ends the probe unverified).
        if (sends > LIMITS.hour.limit) expect(l.hours, JSON.stringify(l.key)).toBeGreaterThan(0);
      }
      if (hourKeyFree) expect(lanes.every((l) => l.hours === 0)).toBe(true);
    }
  });

  it('with fewer keys the lanes also take the keys the cases leave, wait for them, and the mandatory time says so', () => {
    const probes = routeProbes({});
    const none = routeLanes({ ...LANE_INPUT, ownKeys: 0, probes });
    expect(none.flatMap((l) => l.probes.map((p) => p.item)).sort()).toEqual(probes.map((p) => p.item).sort());
    expect(none.some((l) => l.after === 'burst')).toBe(true);
    const m0 = rateLimitMandatory(LIMITS, 1, 'quick', 0);
    expect(m0.lanesMs).toBeGreaterThan(m0.casesMs);
    expect(m0.sharedLanes).toBeGreaterThan(0);
    // Three keys of their own shorten it; the probes are all still run.
    const three = routeLanes({ ...LANE_INPUT, ownKeys: 3, probes });
    expect(three.flatMap((l) => l.probes.map((p) => p.item)).sort()).toEqual(probes.map((p) => p.item).sort());
    expect(rateLimitMandatory(LIMITS, 1, 'quick', 3).lanesMs).toBeLessThan(m0.lanesMs);
  });
});

const LIMITS = {
  ...GATE_RATE_WINDOWS,
  routeFirst: { write10: ROUTE_GROUP_FIRST_WINDOW.write10, write30: ROUTE_GROUP_FIRST_WINDOW.write30, read60: ROUTE_GROUP_FIRST_WINDOW.read60 },
};
const LANE_INPUT = {
  hourKeyFree: true,
  afterBurst: true,
  afterReplaces: true,
  perClientFirst: true,
  keys: { burst: 0, replacesFirstOnly: 4, perClient: 6, hour: 7 },
  limits: LIMITS,
  scale: 1,
};
