// The windows the rate-limit scenario measures by length, with the walk pace
// of each, from the spec's limits (src/model/limits.ts, handed over in the
// run config) and the target's declared window scale. Plain data and
// arithmetic with no k6 imports: rampart reads the same bounds.
import { PROBE_MAX_SENDS, routeProbes, type RouteProbe } from './routeProbes.ts';
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

/** A key the route probes use, after or beside the case that owns it. */
export interface RouteLane {
  key: number;
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

/**
 * The keys the route probes run on and which probes each takes: the hour key when the hour case does not run,
 * the perClient key (one request of burst on it), the keys of burst and replacesFirstOnly after their cases. The
 * 31-request probes go one a minute per key (the minute window holds 60): each to the lane free soonest; the
 * short ones (a default window each) fill in beside them, never on the perClient key's first default window.
 */
export function routeLanes(o: {
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
  const lanes: RouteLane[] = [
    ...(o.hourKeyFree ? [{ key: o.keys.hour, probes: [], startMs: 0 }] : []),
    { key: o.keys.perClient, probes: [], startMs: o.perClientFirst ? first * 2 : 0, ...(o.perClientFirst ? { startAfterFirstWindow: true } : {}) },
    o.afterReplaces
      ? { key: o.keys.replacesFirstOnly, after: 'replacesFirstOnly' as const, probes: [], startMs: REPLACES_REQUESTS * REQUEST_MS + minute * 1.1 }
      : { key: o.keys.replacesFirstOnly, probes: [], startMs: 0 },
    o.afterBurst
      ? { key: o.keys.burst, after: 'burst' as const, probes: [], startMs: probeBoundMs(plans.burst) + minute * 1.1 }
      : { key: o.keys.burst, probes: [], startMs: 0 },
  ];
  const freeAt = lanes.map((l) => l.startMs);
  const big = o.probes.filter((p) => PROBE_MAX_SENDS[p.group] > 30);
  const small = o.probes.filter((p) => PROBE_MAX_SENDS[p.group] <= 30);
  for (const p of big) {
    const i = freeAt.indexOf(Math.min(...freeAt));
    lanes[i]!.probes.push(p);
    freeAt[i]! += minute * 1.1;
  }
  // Short probes beside the long ones, away from the perClient key while burst may still be using it.
  const forSmall = lanes.map((l, i) => ({ l, i })).filter((x) => !x.l.startAfterFirstWindow);
  small.forEach((p, n) => forSmall[n % forSmall.length]!.l.probes.push(p));
  return lanes.filter((l) => l.probes.length);
}

/** How long a lane's probes may take: one 31-request probe a minute, each short one a default window and its walks, one retry. */
function laneBoundMs(l: RouteLane, limits: GateLimits, scale: number): number {
  const minute = limits.minute.windowMs * scale * 1.1;
  const first = limits.first.windowMs * scale * 1.1;
  const big = l.probes.filter((p) => PROBE_MAX_SENDS[p.group] > 30).length;
  const small = l.probes.length - big;
  const requests = l.probes.reduce((n, p) => n + PROBE_MAX_SENDS[p.group], 0);
  return l.startMs + (big + 1) * minute + small * 2 * first + 2 * requests * REQUEST_MS;
}

/** Upper bound on the scenario's run, seconds: the longest case (cases run side by side, one key each). */
export function rateLimitBoundSeconds(
  limits: GateLimits,
  scale: number,
  depth: 'quick' | 'full',
  toleranceRatio = DEFAULT_WINDOW_TOLERANCE_RATIO,
  routes = true,
): number {
  const plans = windowPlans(limits, scale, toleranceRatio);
  const cases: WindowCase[] =
    depth === 'full' ? ['burst', 'write10', 'write30', 'read60', 'minute', 'hour'] : ['burst', 'write10', 'write30', 'read60', 'minute'];
  const caseMs = Math.max(...cases.map((c) => probeBoundMs(plans[c])));
  // The keys rate-limits.ts gives these cases (KEY_OF).
  const keys = { burst: 0, replacesFirstOnly: 4, perClient: 6, hour: 7 };
  const lanes = routes
    ? routeLanes({ hourKeyFree: depth !== 'full', afterBurst: true, afterReplaces: true, perClientFirst: true, probes: routeProbes({}), keys, limits, scale })
    : [];
  const laneMs = Math.max(0, ...lanes.map((l) => laneBoundMs(l, limits, scale)));
  return Math.ceil(Math.max(caseMs, laneMs) / 1000) + 30;
}
