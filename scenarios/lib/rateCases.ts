// The windows the rate-limit scenario measures by length, with the walk pace
// of each, from the spec's limits (src/model/limits.ts, handed over in the
// run config) and the target's declared window scale. Plain data and
// arithmetic with no k6 imports: rampart reads the same bounds.
import { PROBE_MAX_SENDS, PROBE_MINUTE_ROOM, PROBE_REQUESTS, routeProbes, type RouteProbe } from './routeProbes.ts';
import { DEFAULT_WINDOW_TOLERANCE_RATIO, planFor, probeBoundMs, probeMaxRequests, type WindowPlan } from './windowProbe.ts';

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
  /** Requests the key's case sends before the lane: they stay in the key's hour window. */
  hourBase: number;
  /** Minute windows the lane waits out on its key after its first (a minute window holds 60: long probes go one a minute). */
  minutes: number;
  /** Hour windows it waits out (its probes and its case's requests would overfill one): only a key shared at --depth full. */
  hours: number;
}

/** Latency allowance per request in the bounds. */
const REQUEST_MS = 100;
/** Requests of replacesFirstOnly before its key's lane starts. */
const REPLACES_REQUESTS = 61;

/** A probe that fills a key's minute window past half (31 requests or more): the next long one on the same key waits a minute. */
const isLong = (p: RouteProbe) => PROBE_MAX_SENDS[p.group] > 30;

/**
 * Keys of their own the route probes need to all start in the first second: one per long probe on a secret key
 * (each fills the key's minute window past half; the publishable key's probe and the short ones ride beside them).
 */
export function routeKeysForFastest(probes: RouteProbe[] = routeProbes({})): number {
  return probes.filter((p) => isLong(p) && !p.publishable).length;
}

/** A lane being planned: when its key is next free, what its hour window holds, the room beside its long probes. */
interface Planned {
  lane: RouteLane;
  freeAt: number;
  hourUsed: number;
  /** Minute-window slots left beside the long probes already placed (60 less each long one's), for short probes. */
  besideRoom: number;
  short: number;
}

/**
 * The keys the route probes run on and which probes each takes. Keys of their own (`ownKeys`, the extra secret
 * keys of the load partners) start at once, beside the window cases; when there are fewer than the fastest
 * schedule needs, the probes also take the keys the cases leave idle — the hour key when the hour case does not
 * run, the perClient key (one request of burst on it), the keys of burst and replacesFirstOnly after their cases —
 * and wait for them. A long probe goes to the lane free soonest whose hour window has room for it (read60 first:
 * each fills the key's minute window), one a minute per key; the short ones (a default window each) fill in beside
 * them where the minute window has room (beside a write30 probe, or on a lane with no long probe), never on the
 * perClient key's first default window, each on the lane holding fewest short ones.
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
  const lane = (key: RouteLane['key'], startMs: number, hourBase: number, extra: Partial<RouteLane> = {}): RouteLane => ({
    key,
    probes: [],
    startMs,
    hourBase,
    minutes: 0,
    hours: 0,
    ...extra,
  });
  const own: RouteLane[] = Array.from({ length: o.ownKeys }, (_, i) => lane({ own: i }, 0, 0));
  const shared: RouteLane[] =
    o.ownKeys >= routeKeysForFastest(o.probes)
      ? []
      : [
          ...(o.hourKeyFree ? [lane({ case: o.keys.hour }, 0, 0)] : []),
          lane({ case: o.keys.perClient }, o.perClientFirst ? first * 2 : 0, o.perClientFirst ? 1 : 0, o.perClientFirst ? { startAfterFirstWindow: true } : {}),
          o.afterReplaces
            ? lane({ case: o.keys.replacesFirstOnly }, REPLACES_REQUESTS * REQUEST_MS + minute * 1.1, REPLACES_REQUESTS, { after: 'replacesFirstOnly' })
            : lane({ case: o.keys.replacesFirstOnly }, 0, 0),
          o.afterBurst
            ? lane({ case: o.keys.burst }, probeBoundMs(plans.burst) + minute * 1.1, probeMaxRequests(plans.burst), { after: 'burst' })
            : lane({ case: o.keys.burst }, 0, 0),
        ];
  const planned: Planned[] = [...own, ...shared].map((l) => ({ lane: l, freeAt: l.startMs, hourUsed: l.hourBase, besideRoom: 60, short: 0 }));
  const hourLimit = o.limits.hour.limit;
  // Where the keys allow, each lane keeps room in its hour window for one more walk of the longest kind: the second
  // try of a probe refused early on a key that held requests it could not count.
  const reserve = PROBE_MAX_SENDS.read60;
  const hasRoom = (x: Planned, p: RouteProbe, spare: number) => x.hourUsed + PROBE_MAX_SENDS[p.group] + spare <= hourLimit;
  const roomiest = (xs: Planned[], p: RouteProbe) => {
    const spared = xs.filter((x) => hasRoom(x, p, reserve));
    return spared.length ? spared : xs.filter((x) => hasRoom(x, p, 0));
  };
  const hourMs = o.limits.hour.windowMs * o.scale;
  const take = (pl: Planned, p: RouteProbe) => {
    const sends = PROBE_MAX_SENDS[p.group];
    // A lane whose hour window cannot hold the probe waits it out (only a shared key at --depth full comes here).
    if (pl.hourUsed + sends > hourLimit) {
      pl.lane.hours++;
      pl.freeAt = Math.max(pl.freeAt, pl.lane.startMs + pl.lane.hours * hourMs);
      pl.hourUsed = 0;
    }
    pl.hourUsed += sends;
    pl.lane.probes.push(p);
  };
  const longs = o.probes.filter((x) => isLong(x) && !x.publishable).sort((a, b) => PROBE_MAX_SENDS[b.group] - PROBE_MAX_SENDS[a.group]);
  // A probe needing the key's minute window empty (read60) waits a minute first on the perClient key: burst's one
  // request on it may still be in that window.
  const heldFirst = (x: Planned, p: RouteProbe) => !x.lane.probes.length && !!x.lane.startAfterFirstWindow && PROBE_MINUTE_ROOM[p.group] >= 60;
  const readyAt = (x: Planned, p: RouteProbe) => x.freeAt + (heldFirst(x, p) ? minute * 1.1 : 0);
  for (const p of longs) {
    const fits = roomiest(planned, p);
    const pl = (fits.length ? fits : planned).reduce((a, b) => (readyAt(b, p) < readyAt(a, p) ? b : a));
    if (pl.lane.probes.length || heldFirst(pl, p)) pl.lane.minutes++;
    pl.freeAt = readyAt(pl, p);
    take(pl, p);
    pl.freeAt += minute * 1.1;
    // The room left beside it in its minute: a read60 probe fills the window, a write30 one leaves 29.
    pl.besideRoom = pl.lane.probes.length === 1 ? 60 - PROBE_MINUTE_ROOM[p.group] : Math.max(pl.besideRoom, 60 - PROBE_MINUTE_ROOM[p.group]);
  }
  // The publishable key's probe and the short ones beside the long ones: away from the perClient key while
  // burst may still be using it, where the minute window has room, each on the lane that started soonest among those
  // holding fewest of them; a short probe with room nowhere costs its lane one more minute.
  const beside = planned.filter((x) => !x.lane.startAfterFirstWindow);
  for (const p of o.probes.filter((x) => !isLong(x) || x.publishable)) {
    const room = p.publishable ? 0 : PROBE_MINUTE_ROOM[p.group];
    const byFew = (a: Planned, b: Planned) => a.short - b.short || a.lane.startMs - b.lane.startMs;
    const withRoom = roomiest(
      beside.filter((x) => x.besideRoom >= room),
      p,
    ).sort(byFew);
    const pl = withRoom[0] ?? [...beside].sort(byFew)[0]!;
    if (!withRoom.length) {
      pl.lane.minutes++;
      pl.besideRoom = 60;
    }
    take(pl, p);
    pl.besideRoom -= room;
    pl.short++;
  }
  return planned.map((x) => x.lane).filter((l) => l.probes.length);
}

/**
 * How long a lane's probes may take: its minutes and hours on its key, each short one a default window and its walks,
 * one retry — and one quiet minute more, for a probe refused early on a key that held requests it could not count.
 */
export function laneBoundMs(l: RouteLane, limits: GateLimits, scale: number): number {
  const minute = limits.minute.windowMs * scale * 1.1;
  const hour = limits.hour.windowMs * scale;
  const first = limits.first.windowMs * scale * 1.1;
  const long = l.probes.filter((p) => isLong(p) && !p.publishable).length;
  const short = l.probes.length - long;
  const requests = l.probes.reduce((n, p) => n + PROBE_MAX_SENDS[p.group], 0);
  return l.startMs + l.hours * hour + (l.minutes + 1) * minute + short * 2 * first + 2 * requests * REQUEST_MS;
}

/**
 * What a lane cannot beat: its start, the minutes (and hours) its key must drain between probes, a default window
 * per short probe, and a round trip for each request of its walks (they go one after another).
 */
export function laneMandatoryMs(l: RouteLane, limits: GateLimits, scale: number, rttMs = 0): number {
  const short = l.probes.filter((p) => !isLong(p)).length;
  const requests = l.probes.reduce((n, p) => n + PROBE_REQUESTS[p.group], 0);
  return (
    l.startMs + l.hours * limits.hour.windowMs * scale + l.minutes * limits.minute.windowMs * scale + short * limits.first.windowMs * scale + requests * rttMs
  );
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
  // A case whose first walk is refused early (its key held requests it could not count) walks again a quiet minute later.
  const again = (c: WindowCase) => plans[c].limit * (plans[c].paceMs + REQUEST_MS) + Math.max(plans[c].windowMs, limits.minute.windowMs * scale) * 1.1;
  const caseMs = Math.max(...cases.map((c) => probeBoundMs(plans[c]) + again(c)));
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
