// Gate rate limits per client key (Limits): the first window of a default
// route, the route-specific first windows of the Limits table, the 60/min and
// 300/h windows — each by count and by length — the route limit replacing
// only the first window, independence of keys, every window's 429 envelope,
// and every other route a Limits row names probed in its group by count
// (scenarios/lib/routeProbes.ts) on keys of their own beside the cases (or, with
// fewer, on the keys the cases leave idle). Each case owns one
// reserved key so its windows start empty; requests within a case are
// sequential so the request number of the first 429 is exact. Window lengths
// follow the target's declared scale (profile timing.rateWindowScale); the
// limits are the spec's.
//
// All cases run as the VUs of one k6 scenario, one iteration each, so a run
// split into execution segments (rampart load --segments, k6-operator) gives
// every case, and with it its key, to exactly one instance.
import { sleep } from 'k6';
import http from 'k6/http';
import exec from 'k6/execution';
import { checkReq } from './lib/checks.ts';
import { loadConfig, requirementThresholds, summaryFiles, wants } from './lib/config.ts';
import { emit } from './lib/emit.ts';
import { guarded } from './lib/guard.ts';
import { callOnce as call, isErrorEnvelope, type Res } from './lib/http.ts';
import {
  probeRoute,
  routeProbes,
  ROUTE_GROUP_IDS,
  PROBE_MAX_SENDS,
  PROBE_MINUTE_ROOM,
  type RouteGroup,
  type RouteProbe,
  type RouteVerdict,
} from './lib/routeProbes.ts';
import { KEY_OF, rateLimitBoundSeconds, routeLanes, windowPlans, type RouteLane, type WindowCase } from './lib/rateCases.ts';
import { SCENARIOS, WINDOW_CHECK_IDS } from './lib/requirements.ts';
import { countHolds, judgeWindow } from './lib/windowJudge.ts';
import { runWindowProbe } from './lib/windowProbe.ts';
import { segmentRange } from './lib/segment.ts';

const cfg = loadConfig();
const gate = cfg.gate!;
const R = SCENARIOS['rate-limits'].cases;
const plans = windowPlans(gate.limits, gate.rateWindowScale, gate.rateWindowRatio);

type CaseName = keyof typeof KEY_OF;

const wanted = (Object.keys(KEY_OF) as CaseName[]).filter(
  (c) => wants(cfg, c) && (cfg.depth === 'full' || !(SCENARIOS['rate-limits'].fullOnly as readonly string[]).includes(c)),
);
// perClient runs inside burst (it needs the first key throttled at that moment).
const runs: string[] = wanted.filter((c) => c !== 'perClient');
if (wanted.includes('perClient') && !runs.includes('burst')) runs.unshift('burst');

// The route probes run on keys of their own from the first second (the extra secret keys of the load
// partners), beside the cases; with fewer than the fastest schedule needs, also on keys the other cases leave
// idle: after burst and replacesFirstOnly on theirs (in the same VU, once their windows drained), on the
// perClient key, and on the hour key when the hour case does not run.
const wantsRoutes = wants(cfg, 'routes');
const ownKeys = gate.routeKeys ?? [];
const lanes = wantsRoutes
  ? routeLanes({
      ownKeys: ownKeys.length,
      hourKeyFree: !runs.includes('hour'),
      afterBurst: runs.includes('burst'),
      afterReplaces: runs.includes('replacesFirstOnly'),
      perClientFirst: runs.includes('burst') && wanted.includes('perClient'),
      probes: routeProbes(gate.sessionBody),
      keys: { burst: KEY_OF.burst, replacesFirstOnly: KEY_OF.replacesFirstOnly, perClient: KEY_OF.perClient, hour: KEY_OF.hour },
      limits: gate.limits,
      scale: gate.rateWindowScale,
    })
  : [];
const laneName = (l: RouteLane) => ('own' in l.key ? `routes:own:${l.key.own}` : `routes:case:${l.key.case}`);
const laneKey = (l: RouteLane) => ('own' in l.key ? ownKeys[l.key.own]! : gate.keys[l.key.case]!);
for (const l of lanes) if (!l.after) runs.push(laneName(l));

const boundSeconds = rateLimitBoundSeconds(gate.limits, gate.rateWindowScale, cfg.depth, gate.rateWindowRatio, wantsRoutes, ownKeys.length);

export const options = {
  scenarios: runs.length
    ? {
        cases: {
          executor: 'per-vu-iterations',
          vus: runs.length,
          iterations: 1,
          exec: 'runCase',
          maxDuration: `${boundSeconds}s`,
        },
      }
    : {},
  thresholds: requirementThresholds(cfg),
  summaryTrendStats: ['avg', 'min', 'med', 'p(90)', 'p(95)', 'p(99)', 'max'],
};

const base = gate.baseUrl.replace(/\/$/, '');
const keyFor = (c: CaseName): string => {
  const k = gate.keys[KEY_OF[c]];
  if (!k) throw new Error(`case ${c} needs reserved load key #${KEY_OF[c] + 1}`);
  return k;
};
const ok2xx = (r: Res) => r.status >= 200 && r.status < 300;
const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;

/**
 * Probe one window (scenarios/lib/windowProbe.ts) and judge it under every reading: the count, capacity coming
 * back in time, and the length. The judged facts go to rampart as a record (an observation in the report). A
 * first walk refused before the limit met requests of the key the case could not count (rampart's preflight, an
 * earlier run, traffic from outside it): the probe starts again once a quiet minute window (and the case's own
 * window) has passed, and the second is judged — refused early again, it fails.
 */
function probeWindow(c: WindowCase, label: string, send: (n: number) => Res, onLimit?: (refusal: Res) => void): void {
  const envelope = (refusal: Res) => {
    expect429Envelope(refusal, label);
    onLimit?.(refusal);
  };
  const plan = plans[c];
  const sleepUntil = (t: number) => {
    const ms = t - Date.now();
    if (ms > 0) sleep(ms / 1000);
  };
  const once = (again: boolean) => {
    let refusal: Res | undefined;
    const log = runWindowProbe(
      {
        now: () => Date.now(),
        sleepUntil,
        send: (n) => {
          const r = send(n);
          if (r.status === 429 && !refusal) refusal = r;
          return r.status;
        },
        onLimit: () => envelope(refusal!),
        earlyLimit: () => !again,
      },
      plan,
    );
    return log;
  };
  let log = once(false);
  const early = log.find((s) => s.status === 429);
  if (early && early.n <= plan.limit && early.n === log.length) {
    sleepUntil(early.b + Math.max(plan.windowMs, minuteMs) + tolMs(minuteMs) + 1);
    log = once(true);
  }
  const v = judgeWindow(log, plan);
  const first = log.find((s) => s.status === 429);
  emit({ kind: 'first429', case: c, request: v.firstRejected, ms: first && log[0] ? Math.round(first.b - log[0].a) : null });
  emit({ kind: 'window', case: c, scale: gate.rateWindowScale, requests: log.length, verdict: v });
  const ids = WINDOW_CHECK_IDS[c];
  const w = seconds(plan.windowMs);
  const seen = {
    firstRejected: v.firstRejected,
    capacityBackAfterFirstMs: v.r1AfterFirstMs,
    refillAccepted: v.refillAccepted,
    periodMs: v.periodMs,
    mismatches: v.mismatches,
  };
  checkReq(ids.count, v, `${label}: ${plan.limit} pass, the ${plan.limit + 1}th within ${w} is 429`, countHolds, () => seen);
  checkReq(
    ids.reopens,
    v,
    `${label}: capacity returns once the ${w} window has passed`,
    (x) => x.reopened,
    () => seen,
  );
  checkReq(
    ids.length,
    v,
    `${label}: the window lasts ${w} (every status fits a sliding or a fixed ${w} window)`,
    (x) => x.consistent.length > 0,
    () => seen,
  );
}

/** Every window's 429 carries the error envelope (type rate_limited, X-Request-Id equal to request_id). */
function expect429Envelope(refusal: Res | undefined, where: string): void {
  checkReq(
    'GATE-RATE-429-ENVELOPE',
    refusal,
    `${where}: the 429 carries the error envelope with type rate_limited and X-Request-Id`,
    (r) => !!r && isErrorEnvelope(r, 429, 'rate_limited'),
    (r) => r?.body,
  );
}

const get = (c: string, path: string, key: string) => call('GET', `${base}${path}`, key, { tags: { case: c, name: `GET ${path}` } });
const patchBranding = (c: string, key: string) => call('PATCH', `${base}/branding`, key, { body: {}, tags: { case: c, name: 'PATCH /branding' } });

/** (a) default route: 10 per 10 s, the 429 envelope, the window's length; (e) another key meanwhile is unaffected. */
function burst(): void {
  const key = keyFor('burst');
  const send = () => get('burst', '/dashboard/webhook-settings', key);
  // The rule is judged only while the first key is throttled: its last answer must be a 429, else nothing was shown.
  const perClient = (firstKeyLast: number) => {
    const other = get('perClient', '/dashboard/webhook-settings', keyFor('perClient'));
    checkReq(
      R.perClient[0],
      { firstKeyLast, second: other.status },
      'a second key is unaffected (2xx) while the first is throttled (its last answer 429)',
      (v) => v.firstKeyLast === 429 && v.second >= 200 && v.second < 300,
      (v) => v,
    );
  };
  if (!wanted.includes('burst')) {
    // perClient alone: throttle the first key (at most 2L+1 requests: a window edge inside the walk lets 2L through), then ask with the second.
    let last = 0;
    for (let i = 0; i <= 2 * plans.burst.limit && last !== 429; i++) last = send().status;
    perClient(last);
    return;
  }
  probeWindow('burst', 'default route', send, (refusal) => {
    if (wanted.includes('perClient')) perClient(refusal?.status ?? 0);
  });
}

/** (b) POST /gate_sessions: 10 per minute replaces 10 per 10 s. */
function write10(): void {
  const key = keyFor('write10');
  probeWindow('write10', 'POST /gate_sessions', () =>
    call('POST', `${base}/gate_sessions`, key, { body: gate.sessionBody, idempotencyKey: true, tags: { case: 'write10', name: 'POST /gate_sessions' } }),
  );
}

/** (b) a route of the 30/min group. */
function write30(): void {
  const key = keyFor('write30');
  probeWindow('write30', 'PATCH /branding', () => patchBranding('write30', key));
}

/** (b) a route of the 60/min group. */
function read60(): void {
  const key = keyFor('read60');
  probeWindow('read60', 'GET /branding', () => get('read60', '/branding', key));
}

/** One walk of replacesFirstOnly: 30 writes then 30 reads and one more, back to back; the statuses and the first 429. */
function replacesWalk(key: string): { statuses: number[]; first429: number | null; refusal?: Res; t0: number; ms: number } {
  const statuses: number[] = [];
  const t0 = Date.now();
  let first429: number | null = null;
  let refusal: Res | undefined;
  let ms = 0;
  for (let i = 1; i <= 61; i++) {
    const r = i <= 30 ? patchBranding('replacesFirstOnly', key) : get('replacesFirstOnly', '/branding', key);
    statuses.push(r.status);
    if (r.status === 429 && first429 === null) {
      first429 = i;
      refusal = r;
      ms = Date.now() - t0;
    }
  }
  return { statuses, first429, refusal, t0, ms };
}

/**
 * (b) the route limit replaces only the first window: 30 writes + 30 reads pass, then the 60/min window refuses the
 * 61st. A walk whose 61st request passed may have straddled a fixed minute bucket's edge, and one refused earlier may
 * have met requests of the key it could not count (rampart's preflight, traffic from outside the run): it is walked
 * once more, a quiet minute window (and its margin) after the first ended — past that edge and long before the next,
 * and with every earlier request out of the minute window. The second walk is judged.
 */
function replacesFirstOnly(): void {
  const key = keyFor('replacesFirstOnly');
  let walk = replacesWalk(key);
  if (walk.first429 === null || walk.first429 <= 60) {
    sleep((minuteMs + tolMs(minuteMs)) / 1000);
    walk = replacesWalk(key);
  }
  const { statuses, first429, refusal } = walk;
  if (refusal) {
    emit({ kind: 'first429', case: 'replacesFirstOnly', request: first429, ms: walk.ms });
    expect429Envelope(refusal, 'the 60-per-minute window across routes');
  } else emit({ kind: 'first429', case: 'replacesFirstOnly', request: null, ms: null, sent: 61 });
  checkReq(
    R.replacesFirstOnly[0],
    statuses,
    '30 writes and 30 reads pass; the 61st request in the minute is 429 (the 60/min window still applies)',
    (s) => s.slice(0, 60).every((x) => x >= 200 && x < 300) && s[60] === 429,
    () => ({ firstRejected: first429 }),
  );
}

// Round-robin over three route groups so that no first window can fill under
// either reading of the Limits table (route limits per route or per group):
// of five requests, three GET /branding (60/min), one of the default window, one PATCH /branding (30/min).
// At 80 a minute that is 48, 16 (under 3 per 10 s) and 16 a minute.
function mixed(c: 'minute' | 'hour', key: string): (n: number) => Res {
  return (n) => {
    const k = n % 5;
    if (k === 2) return get(c, '/dashboard/webhook-settings', key);
    if (k === 4) return patchBranding(c, key);
    return get(c, '/branding', key);
  };
}

/** (c) 60 per minute, paced across three route groups (80 a minute: only the minute window can refuse). */
function minute(): void {
  probeWindow('minute', 'paced, mixed routes: 60 per minute', mixed('minute', keyFor('minute')));
}

/** (d) 300 per hour, paced under the 60/min window (48 a minute; --depth full: about two hours). */
function hour(): void {
  probeWindow('hour', 'paced, mixed routes: 300 per hour', mixed('hour', keyFor('hour')));
}

const CASES: Record<Exclude<CaseName, 'perClient'>, () => void> = { burst, write10, write30, read60, replacesFirstOnly, minute, hour };

// ---------- route probes ----------

const firstWindowMs = gate.limits.first.windowMs * gate.rateWindowScale;
const minuteMs = gate.limits.minute.windowMs * gate.rateWindowScale;
const hourMs = gate.limits.hour.windowMs * gate.rateWindowScale;
const tolMs = (w: number) => Math.round(Math.min(1_000, Math.max(20, w * gate.rateWindowRatio)));
/** How long a group's first window holds a request on one key (the minute window holds it as long). */
const GROUP_WINDOW_MS: Record<RouteGroup, number> = { write10: minuteMs, write30: minuteMs, read60: minuteMs, default: firstWindowMs };
const MINUTE_LIMIT = gate.limits.minute.limit;
const HOUR_LIMIT = gate.limits.hour.limit;
/** A side-effect-free request any secret key may send (capabilities): shows the key is accepted, when no probe did. */
const CONTROL_PATH = '/capabilities/countries';

/**
 * A request sent on a key: when, in which group; `hourOnly`: one of the key's case, sent before its windows drained but
 * the hour's; `noGroup`: one of another case, out of its group's window but maybe still in the key's minute window.
 */
type Stamp = { t: number; g: RouteGroup; hourOnly?: true; noGroup?: true };

/**
 * The earliest time from now a walk of `sends` requests in `group`, needing `room` free slots of the key's minute
 * window, can start on a key that sent `log`: its group's window empty, the minute window with room, the hour
 * window with room for every request; Infinity when that is after `deadline` (the run's end).
 */
function earliestStart(log: Stamp[], group: RouteGroup, room: number, sends: number, deadline: number): number {
  // The time the k-th oldest of these leaves a window `w` long (k ≥ 1).
  const leaves = (xs: Stamp[], k: number, w: number) => [...xs].sort((a, b) => a.t - b.t)[k - 1]!.t + w + tolMs(w) + 1;
  let t = Date.now();
  for (let guard = 0; guard < 1_000 && t <= deadline; guard++) {
    const within = (w: number) => log.filter((x) => x.t > t - w - tolMs(w));
    const inHour = within(hourMs);
    const inMinute = within(minuteMs).filter((x) => !x.hourOnly);
    const inGroup = within(GROUP_WINDOW_MS[group]).filter((x) => x.g === group && !x.hourOnly && !x.noGroup);
    if (inHour.length + sends > HOUR_LIMIT) t = leaves(inHour, inHour.length + sends - HOUR_LIMIT, hourMs);
    else if (inGroup.length) t = leaves(inGroup, inGroup.length, GROUP_WINDOW_MS[group]);
    else if (inMinute.length + room > MINUTE_LIMIT) t = leaves(inMinute, inMinute.length + room - MINUTE_LIMIT, minuteMs);
    else return t;
  }
  return Infinity;
}

/** A route probe's outcome as rampart reads it: a record, and a check of its group's requirement or an unjudged part of it. */
function reportProbe(p: RouteProbe, v: RouteVerdict): void {
  const id = ROUTE_GROUP_IDS[p.group];
  emit({ kind: 'routeProbe', item: p.item, group: p.group, judged: v.judged, ok: v.ok, detail: v.detail, statuses: v.statuses.length });
  // Not judged: the group's rule cannot pass on its other routes alone (src/load/verdict.ts reads the part).
  if (!v.judged) return emit({ kind: 'unverified', req: id, part: p.item, reason: `${p.item}: ${v.detail}` });
  checkReq(
    id,
    v,
    `${p.item} is limited in the ${p.group === 'default' ? 'default windows' : `${p.group} row`}`,
    (x) => x.ok,
    (x) => ({ item: p.item, detail: x.detail }),
  );
}

/** A probe nothing was judged on: its route is a part of its group's rule left unverified. */
const unjudged = (p: RouteProbe, detail: string): RouteVerdict => ({ judged: false, ok: false, statuses: [], detail });

/** Side-effect-free reads any secret key may send, each of its group: a probe's witness takes one of another group. */
const WITNESSES: { path: string; group: RouteGroup }[] = [
  { path: CONTROL_PATH, group: 'read60' },
  { path: '/dashboard/webhook-settings', group: 'default' },
  { path: '/branding', group: 'read60' },
];

/**
 * Routes one key probes: each waits until its group's window is empty and the key's minute and hour windows have
 * room. A probe answered 401/403 throughout is judged at the end against what the key met: a secret key the
 * target accepts (a 2xx on this key, from a probe or one control request) refused on a route no documented
 * 401/403 condition reaches (not a rail route's 403, which may be "rail access not enabled") hides whether the
 * route is limited behind a refusal with no cause: it fails; otherwise it is a part left unverified.
 * `prior`: requests the key's case sent before the lane — drained but for the hour window, or (`inMinute`, one of
 * another case moments ago) still in the key's minute window.
 */
function routeLane(key: string, probes: RouteProbe[], prior: { requests: number; inMinute?: boolean }, deadline: number): void {
  // Send times on this key (and on the publishable key), with the group of each: the windows the probes must find
  // empty. The key's case sent `prior.requests` requests before (still in its hour window, maybe in its minute's).
  const before = (): Stamp => (prior.inMinute ? { t: Date.now(), g: 'default', noGroup: true } : { t: Date.now(), g: 'default', hourOnly: true });
  const logs = {
    secret: Array.from({ length: prior.requests }, before),
    publishable: [] as Stamp[],
  };
  const queue: { p: RouteProbe; lastTry: boolean; notBefore?: number }[] = probes.map((p) => ({ p, lastTry: false }));
  const startOf = (p: RouteProbe, notBefore = 0) =>
    Math.max(notBefore, earliestStart(logs[p.publishable ? 'publishable' : 'secret'], p.group, PROBE_MINUTE_ROOM[p.group], PROBE_MAX_SENDS[p.group], deadline));
  // Reads on other routes than the probe's, inside every window the key's own requests leave room in (refused ones
  // counted): another group's first, then another route of its own group — the route may sit in a window the target
  // shares with another group (a route of the default windows that belongs in a row). The first accepted shows the
  // key's minute and hour windows had room; 429 when each one sent was refused; undefined when none could be sent.
  const witness = (p: RouteProbe): number | undefined => {
    const log = logs.secret;
    const now = Date.now();
    const sentWithin = (w: number, g?: RouteGroup) => log.filter((x) => x.t > now - w - tolMs(w) && (!g || (x.g === g && !x.hourOnly && !x.noGroup))).length;
    const room = (g: RouteGroup) =>
      sentWithin(GROUP_WINDOW_MS[g], g) < (g === 'default' ? gate.limits.first.limit : gate.limits.routeFirst[g].limit) &&
      sentWithin(minuteMs) < MINUTE_LIMIT &&
      sentWithin(hourMs) < HOUR_LIMIT;
    if (p.publishable) return undefined;
    const other = WITNESSES.find((x) => x.group !== p.group && room(x.group));
    const own = WITNESSES.find((x) => x.group === p.group && x.path !== p.path && room(x.group));
    let status: number | undefined;
    for (const w of [other, own]) {
      if (!w || (status !== undefined && status !== 429)) continue;
      status = call('GET', `${base}${w.path}`, key, { tags: { case: 'routes', name: `GET ${w.path}` } }).status;
      log.push({ t: Date.now(), g: w.group });
    }
    return status;
  };
  let accepted: string | undefined;
  const refusedCredential: { p: RouteProbe; v: RouteVerdict }[] = [];
  const wait = (t: number) => {
    if (t > Date.now()) sleep((t - Date.now()) / 1000);
  };
  while (queue.length) {
    queue.sort((a, b) => startOf(a.p, a.notBefore) - startOf(b.p, b.notBefore));
    const { p, lastTry, notBefore } = queue.shift()!;
    if (p.publishable && !gate.embed) {
      reportProbe(p, unjudged(p, 'no load-reserved partner with a publishable key and an allowed origin (or a k6-operator bundle, which carries none)'));
      continue;
    }
    const start = startOf(p, notBefore);
    if (start === Infinity || start > deadline) {
      const why = !lastTry
        ? 'it'
        : notBefore
          ? 'its second try (a quiet minute after an early refusal)'
          : 'its second try (a fixed window edge may have fallen inside the first walk)';
      reportProbe(p, unjudged(p, `the key's windows had no room for ${why} before the run's end: add keys of the probes' own (extraSecretKeys)`));
      continue;
    }
    wait(start);
    const url = `${base}${p.path}`;
    const tags = { case: 'routes', name: `${p.method} ${p.path}` };
    let refusal: Res | undefined;
    const log = logs[p.publishable ? 'publishable' : 'secret'];
    const walkStart = Date.now();
    const v = probeRoute(
      {
        now: () => Date.now(),
        sleepUntil: wait,
        witness: () => witness(p),
        send: () => {
          const r = p.publishable
            ? http.request(p.method, url, JSON.stringify(p.body ?? {}), {
                headers: { Authorization: `Bearer ${gate.embed!.publishableKey}`, 'Content-Type': 'application/json', Origin: gate.embed!.origin },
                tags,
                responseCallback: http.expectedStatuses({ min: 100, max: 599 }),
              })
            : call(p.method, url, key, { body: p.body, idempotencyKey: p.idempotencyKey ? true : undefined, tags });
          log.push({ t: Date.now(), g: p.group });
          if (r.status === 429 && !refusal) refusal = r as Res;
          if (!p.publishable && r.status >= 200 && r.status < 300) accepted ??= `${r.status} to ${p.method} ${p.path}`;
          return r.status;
        },
      },
      p,
      { firstWindowMs, minuteMs, toleranceMs: tolMs(firstWindowMs) },
      lastTry,
    );
    if (refusal) expect429Envelope(refusal, `${p.item} (${p.group} row)`);
    // An early refusal's next try: once a whole minute window (and its margin) has passed since this walk began.
    if (v.retry) queue.push({ p, lastTry: true, ...(v.early ? { notBefore: walkStart + minuteMs + tolMs(minuteMs) + 1 } : {}) });
    else if (v.credentialRefused) refusedCredential.push({ p, v });
    else reportProbe(p, v);
  }
  if (refusedCredential.length) judgeRefusedCredential(key, logs.secret, refusedCredential, accepted, deadline);
}

/** The probes a key's every answer refused (401/403), judged against whether the target accepts the key at all. */
function judgeRefusedCredential(
  key: string,
  log: Stamp[],
  refused: { p: RouteProbe; v: RouteVerdict }[],
  accepted: string | undefined,
  deadline: number,
): void {
  const causeless = refused.filter(({ p, v }) => !p.publishable && !(p.rail && v.statuses.every((s) => s === 403)));
  if (causeless.length && !accepted) {
    const start = earliestStart(log, 'read60', 1, 1, deadline);
    if (start !== Infinity) {
      if (start > Date.now()) sleep((start - Date.now()) / 1000);
      const r = call('GET', `${base}${CONTROL_PATH}`, key, { tags: { case: 'routes', name: `GET ${CONTROL_PATH}` } });
      log.push({ t: Date.now(), g: 'read60' });
      if (r.status >= 200 && r.status < 300) accepted = `${r.status} to GET ${CONTROL_PATH}`;
    }
  }
  for (const { p, v } of refused) {
    const codes = [...new Set(v.statuses)].join('/');
    if (p.publishable) reportProbe(p, { ...v, detail: `${v.detail} (the publishable key or the origin refused: the profile's embed partner may be wrong)` });
    else if (p.rail && v.statuses.every((s) => s === 403))
      reportProbe(p, { ...v, detail: `${v.detail} (403 may be "rail access not enabled": the load key may lack the rail entitlement)` });
    else if (!accepted) reportProbe(p, { ...v, detail: `${v.detail}; the target accepted this key nowhere else either (check the profile's key)` });
    else
      reportProbe(p, {
        ...v,
        judged: true,
        ok: false,
        detail: `every answer was ${codes} though the target accepts this key (${accepted}) and no documented 401/403 condition reaches ${p.item}: the route was not shown limited, behind a refusal with no cause`,
      });
  }
}

/** Run the route lane of `key`, after the key's own case: once its windows drained (a minute after its last request). */
function lanesAfter(c: 'burst' | 'replacesFirstOnly', deadline: number): void {
  for (const l of lanes.filter((x) => x.after === c)) {
    sleep((minuteMs + tolMs(minuteMs)) / 1000);
    routeLane(keyFor(c), l.probes, { requests: l.hourBase }, deadline);
  }
}

/** One VU per case; the iteration number (unique across execution segments) picks it. */
export const runCase = guarded('rate-limits', (): void => {
  const c = runs[exec.scenario.iterationInTest]!;
  emit({ kind: 'caseStart', case: c, segment: segmentRange(), at: Date.now() });
  // The latest a route probe may start: the run's bound, less a margin for the walk and the summary.
  const deadline = Date.now() + (boundSeconds - 25) * 1000;
  const lane = lanes.find((l) => !l.after && laneName(l) === c);
  if (lane) {
    // The perClient key answers one probe of burst first: start once that default window has passed.
    if (lane.startAfterFirstWindow) sleep((firstWindowMs + tolMs(firstWindowMs)) / 1000 + 1);
    // The perClient key's one request of burst may still be in its minute window.
    routeLane(laneKey(lane), lane.probes, { requests: lane.hourBase, inMinute: lane.startAfterFirstWindow }, deadline);
  } else {
    CASES[c as Exclude<CaseName, 'perClient'>]();
    if (c === 'burst' || c === 'replacesFirstOnly') lanesAfter(c, deadline);
  }
  emit({ kind: 'caseDone', case: c, at: Date.now() });
});

export function handleSummary(data: unknown) {
  return summaryFiles(data);
}
