// The windows the rate-limit scenario measures by length, with the walk pace
// of each, from the spec's limits (src/model/limits.ts, handed over in the
// run config) and the target's declared window scale. Plain data and
// arithmetic with no k6 imports: rampart reads the same bounds.
import { PROBE_MAX_SENDS, PROBE_REQUESTS, routeProbes, type RouteProbe } from './routeProbes.ts';
import { DEFAULT_WINDOW_TOLERANCE_RATIO, planFor, probeBoundMs, type WindowPlan } from './windowProbe.ts';

export interface RateWindow {
  limit: number;
  windowMs: number;
}

/** The spec's Gate windows (GATE_RATE_WINDOWS and ROUTE_GROUP_FIRST_WINDOW of src/model/limits.ts). */
export interface GateLimits {
  first: RateWindow;
  minute: RateWindow;
  hour: RateWindow;
  routeFirst: { write10: RateWindow; write30: RateWindow; read60: RateWindow };
}

export type WindowCase = 'burst' | 'write10' | 'write30' | 'read60' | 'minute' | 'hour';

/**
 * One probe plan per case, window lengths multiplied by `scale`. Back-to-back walks on one route for the first
 * windows; the minute and hour walks are paced across route groups so no first window can fill: 80 a minute
 * (each group at most 48, default under 3 per 10 s) saturates the minute window in 45 s, 48 a minute stays under it.
 */
export function windowPlans(limits: GateLimits, scale: number, toleranceRatio = DEFAULT_WINDOW_TOLERANCE_RATIO): Record<WindowCase, WindowPlan> {
  const s = (w: RateWindow) => ({ limit: w.limit, windowMs: w.windowMs * scale });
  const minuteMs = limits.minute.windowMs * scale;
  const plan = (w: RateWindow, paceMs: number) => planFor(s(w).limit, s(w).windowMs, Math.round(paceMs), toleranceRatio);
  return {
    burst: plan(limits.first, 0),
    write10: plan(limits.routeFirst.write10, 0),
    write30: plan(limits.routeFirst.write30, 0),
    read60: plan(limits.routeFirst.read60, 0),
    minute: plan(limits.minute, minuteMs / 80),
    hour: plan(limits.hour, minuteMs / 48),
  };
}

/** A key the route probes use: one of their own from the first second, or a case's, after or beside that case. */
export interface RouteLane {
  /** A key of its own (an index into the config's routeKeys), or a case's key (an index into keys). */
  key: { own: number } | { case: number };
  /** Run in the VU of this case, once it is done (a minute after, so the key's windows drained). */
  after?: 'burst' | 'replacesFirstOnly';
  /** The key answers one request of another case first (perClient): start one default window later. */
  startAfterFirstWindow?: boolean;
  probes: RouteProbe[];
  /** When the lane can start, ms after the scenario starts (an estimate, for sharing the probes out). */
  startMs: number;
}

/** Latency allowance per request in the bounds. */
const REQUEST_MS = 100;
/** Requests of replacesFirstOnly before its key's lane starts. */
const REPLACES_REQUESTS = 61;

/** A probe that fills a key's minute window past half (31 requests): the next one on the same key waits a minute. */
const isLong = (p: RouteProbe) => PROBE_MAX_SENDS[p.group] > 30;

/**
 * Keys of their own the route probes need to all start in the first second: one per long probe on a secret key
 * (each fills the key's minute window past half; the publishable key's probe and the short ones ride beside them).
 */
export function routeKeysForFastest(probes: RouteProbe[] = routeProbes({})): number {
  return probes.filter((p) => isLong(p) && !p.publishable).length;
}

/**
 * The keys the route probes run on and which probes each takes. Keys of their own (`ownKeys`, the extra secret
 * keys of the load partners) start at once, beside the window cases; when there are fewer than the fastest
 * schedule needs, the probes also take the keys the cases leave idle — the hour key when the hour case does not
 * run, the perClient key (one request of burst on it), the keys of burst and replacesFirstOnly after their cases —
 * and wait for them. A long probe (31 requests) goes to the lane free soonest, one a minute per key (the minute
 * window holds 60); the short ones (a default window each) fill in beside them, never on the perClient key's first
 * default window, each on the lane holding fewest short ones.
 */
export function routeLanes(o: {
  ownKeys: number;
  hourKeyFree: boolean;
  afterBurst: boolean;
  afterReplaces: boolean;
  perClientFirst: boolean;
  probes: RouteProbe[];
  keys: { burst: number; replacesFirstOnly: number; perClient: number; hour: number };
  limits: GateLimits;
  scale: number;
}): RouteLane[] {
  const minute = o.limits.minute.windowMs * o.scale;
  const first = o.limits.first.windowMs * o.scale;
  const plans = windowPlans(o.limits, o.scale);
  const own: RouteLane[] = Array.from({ length: o.ownKeys }, (_, i) => ({ key: { own: i }, probes: [], startMs: 0 }));
  const shared: RouteLane[] =
    o.ownKeys >= routeKeysForFastest(o.probes)
      ? []
      : [
          ...(o.hourKeyFree ? [{ key: { case: o.keys.hour }, probes: [], startMs: 0 }] : []),
          {
            key: { case: o.keys.perClient },
            probes: [],
            startMs: o.perClientFirst ? first * 2 : 0,
            ...(o.perClientFirst ? { startAfterFirstWindow: true } : {}),
          },
          o.afterReplaces
            ? {
                key: { case: o.keys.replacesFirstOnly },
                after: 'replacesFirstOnly' as const,
                probes: [],
                startMs: REPLACES_REQUESTS * REQUEST_MS + minute * 1.1,
              }
            : { key: { case: o.keys.replacesFirstOnly }, probes: [], startMs: 0 },
          o.afterBurst
            ? { key: { case: o.keys.burst }, after: 'burst' as const, probes: [], startMs: probeBoundMs(plans.burst) + minute * 1.1 }
            : { key: { case: o.keys.burst }, probes: [], startMs: 0 },
        ];
  const lanes = [...own, ...shared];
  const freeAt = lanes.map((l) => l.startMs);
  for (const p of o.probes.filter((x) => isLong(x) && !x.publishable)) {
    const i = freeAt.indexOf(Math.min(...freeAt));
    lanes[i]!.probes.push(p);
    freeAt[i]! += minute * 1.1;
  }
  // The publishable key's probe and the short ones beside the long ones: away from the perClient key while
  // burst may still be using it, each on the lane that started soonest among those holding fewest of them.
  const beside = lanes.filter((l) => !l.startAfterFirstWindow);
  const count = new Map<RouteLane, number>();
  for (const p of o.probes.filter((x) => !isLong(x) || x.publishable)) {
    const l = [...beside].sort((a, b) => (count.get(a) ?? 0) - (count.get(b) ?? 0) || a.startMs - b.startMs)[0]!;
    l.probes.push(p);
    count.set(l, (count.get(l) ?? 0) + 1);
  }
  return lanes.filter((l) => l.probes.length);
}

/** How long a lane's probes may take: one long probe a minute on its key, each short one a default window and its walks, one retry. */
export function laneBoundMs(l: RouteLane, limits: GateLimits, scale: number): number {
  const minute = limits.minute.windowMs * scale * 1.1;
  const first = limits.first.windowMs * scale * 1.1;
  const long = l.probes.filter((p) => isLong(p) && !p.publishable).length;
  const short = l.probes.length - long;
  const requests = l.probes.reduce((n, p) => n + PROBE_MAX_SENDS[p.group], 0);
  return l.startMs + Math.max(0, long - 1) * minute + short * 2 * first + 2 * requests * REQUEST_MS;
}

/**
 * What a lane cannot beat: its start, a minute between long probes on its key, a default window per short probe,
 * and a round trip for each request of its walks (they go one after another).
 */
export function laneMandatoryMs(l: RouteLane, limits: GateLimits, scale: number, rttMs = 0): number {
  const long = l.probes.filter((p) => isLong(p) && !p.publishable).length;
  const short = l.probes.filter((p) => !isLong(p)).length;
  const requests = l.probes.reduce((n, p) => n + PROBE_REQUESTS[p.group], 0);
  return l.startMs + Math.max(0, long - 1) * limits.minute.windowMs * scale + short * limits.first.windowMs * scale + requests * rttMs;
}

/** One reserved key per case, in this order (the profile reserves them for load: the first eight load partners). */
export const KEY_OF = { burst: 0, write10: 1, write30: 2, read60: 3, replacesFirstOnly: 4, minute: 5, perClient: 6, hour: 7 } as const;

/** The lanes of a whole run of the scenario at this depth, with `ownKeys` keys of the route probes' own. */
function wholeRunLanes(limits: GateLimits, scale: number, depth: 'quick' | 'full', ownKeys: number): RouteLane[] {
  return routeLanes({
    ownKeys,
    hourKeyFree: depth !== 'full',
    afterBurst: true,
    afterReplaces: true,
    perClientFirst: true,
    probes: routeProbes({}),
    keys: { burst: KEY_OF.burst, replacesFirstOnly: KEY_OF.replacesFirstOnly, perClient: KEY_OF.perClient, hour: KEY_OF.hour },
    limits,
    scale,
  });
}

/** Upper bound on the scenario's run, seconds: the longest case or route lane (they run side by side, one key each). */
export function rateLimitBoundSeconds(
  limits: GateLimits,
  scale: number,
  depth: 'quick' | 'full',
  toleranceRatio = DEFAULT_WINDOW_TOLERANCE_RATIO,
  routes = true,
  ownKeys = 0,
): number {
  const plans = windowPlans(limits, scale, toleranceRatio);
  const cases: WindowCase[] =
    depth === 'full' ? ['burst', 'write10', 'write30', 'read60', 'minute', 'hour'] : ['burst', 'write10', 'write30', 'read60', 'minute'];
  const caseMs = Math.max(...cases.map((c) => probeBoundMs(plans[c])));
  const lanes = routes ? wholeRunLanes(limits, scale, depth, ownKeys) : [];
  const laneMs = Math.max(0, ...lanes.map((l) => laneBoundMs(l, limits, scale)));
  return Math.ceil(Math.max(caseMs, laneMs) / 1000) + 30;
}

/**
 * What the scenario cannot beat, ms, and what binds it: the window cases wait through two rollovers of their longest
 * window (the minute; the hour at --depth full); the route lanes their starts and the minute between long probes on
 * one key — nothing beyond the cases when the probes have keys of their own for the fastest schedule.
 */
export function rateLimitMandatory(
  limits: GateLimits,
  scale: number,
  depth: 'quick' | 'full',
  ownKeys: number,
  rttMs = 0,
): { ms: number; casesMs: number; lanesMs: number; lanes: number; sharedLanes: number } {
  const casesMs = 2 * (depth === 'full' ? limits.hour.windowMs : limits.minute.windowMs) * scale;
  const lanes = wholeRunLanes(limits, scale, depth, ownKeys);
  const lanesMs = Math.max(0, ...lanes.map((l) => laneMandatoryMs(l, limits, scale, rttMs)));
  return { ms: Math.max(casesMs, lanesMs), casesMs, lanesMs, lanes: lanes.length, sharedLanes: lanes.filter((l) => 'case' in l.key).length };
}
