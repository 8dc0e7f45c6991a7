// Gate rate limits per client key (Limits): the first window of a default
// route, the route-specific first windows of the Limits table, the 60/min and
// 300/h windows, and independence of keys. Each case owns one reserved key so
// its windows start empty; requests within a case are sequential so the
// request number of the first 429 is exact.
import { check, sleep } from 'k6';
import { loadConfig, requirementThresholds, summaryFiles, wants } from './lib/config.ts';
import { emit } from './lib/emit.ts';
import { call, isErrorEnvelope, type Res } from './lib/http.ts';
import { SCENARIOS } from './lib/requirements.ts';

const cfg = loadConfig();
const gate = cfg.gate!;
const R = SCENARIOS['rate-limits'].cases;

// One key per case, in this order (the profile reserves them for load).
const KEY_OF = { burst: 0, write10: 1, write30: 2, read60: 3, replacesFirstOnly: 4, minute: 5, perClient: 6, hour: 7 } as const;
type CaseName = keyof typeof KEY_OF;

const wanted = (Object.keys(KEY_OF) as CaseName[]).filter(
  (c) => wants(cfg, c) && (cfg.depth === 'full' || !(SCENARIOS['rate-limits'].fullOnly as readonly string[]).includes(c)),
);

// perClient runs inside burst (it needs the first key throttled at that moment).
const execOf = (c: CaseName) => (c === 'perClient' ? null : c);
const scenarios: Record<string, object> = {};
for (const c of wanted) {
  const exec = execOf(c);
  if (!exec) continue;
  scenarios[c] = { executor: 'per-vu-iterations', vus: 1, iterations: 1, exec, maxDuration: c === 'hour' ? '7m' : '2m' };
}
if (wanted.includes('perClient') && !scenarios.burst) {
  scenarios.burst = { executor: 'per-vu-iterations', vus: 1, iterations: 1, exec: 'burst', maxDuration: '1m' };
}

export const options = {
  scenarios,
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

interface Walk {
  statuses: number[];
  first429: number;
  t0: number;
  last?: Res;
}

/** Send `n` requests sequentially (optionally paced), recording the first 429. */
function walk(c: string, n: number, send: (i: number) => Res, paceMs = 0, t0 = Date.now(), start = 1): Walk {
  const w: Walk = { statuses: [], first429: 0, t0 };
  for (let i = start; i < start + n; i++) {
    if (paceMs) {
      const due = t0 + (i - 1) * paceMs;
      const wait = due - Date.now();
      if (wait > 0) sleep(wait / 1000);
    }
    const r = send(i);
    w.statuses.push(r.status);
    w.last = r;
    if (r.status === 429 && !w.first429) {
      w.first429 = i;
      emit({ kind: 'first429', case: c, request: i, ms: Date.now() - t0 });
    }
  }
  if (!w.first429) emit({ kind: 'first429', case: c, request: null, ms: null, sent: n });
  return w;
}

const passedAll = (statuses: number[]) => statuses.every((s) => s >= 200 && s < 300);

function untilMs(t: number): void {
  const wait = t - Date.now();
  if (wait > 0) sleep(wait / 1000);
}

/** (a) default route: 10 per 10 s pass, the 11th is 429 rate_limited, the window reopens after 10 s; (e) another key meanwhile is unaffected. */
export function burst(): void {
  const url = `${base}/dashboard/webhook-settings`;
  const key = keyFor('burst');
  const w = walk('burst', 11, () => call('GET', url, key, { tags: { case: 'burst', name: 'GET /dashboard/webhook-settings' } }));
  if (wanted.includes('burst')) {
    check(w.statuses.slice(0, 10), { 'default route: the first 10 requests within 10 s pass': (s) => passedAll(s) }, { req: R.burst[0] });
    check(w.statuses[10], { 'default route: the 11th request within 10 s is 429': (s) => s === 429 }, { req: R.burst[0] });
    check(w.last!, { '429 carries the error envelope with type rate_limited and X-Request-Id': (r) => isErrorEnvelope(r, 429, 'rate_limited') }, { req: R.burst[1] });
  }
  if (wanted.includes('perClient')) {
    const other = call('GET', url, keyFor('perClient'), { tags: { case: 'perClient', name: 'GET /dashboard/webhook-settings' } });
    check(other, { 'a second key is unaffected while the first is throttled': (r) => ok2xx(r) }, { req: R.perClient[0] });
  }
  if (wanted.includes('burst')) {
    // Reopens: 10 s after the burst (plus a margin for clock granularity).
    untilMs(w.t0 + 11_000);
    const again = call('GET', url, key, { tags: { case: 'burst', name: 'GET /dashboard/webhook-settings' } });
    check(again, { 'the first window reopens after 10 s': (r) => ok2xx(r) }, { req: R.burst[2] });
  }
}

/** (b) POST /gate_sessions: 10 per minute replaces 10 per 10 s — the 11th is 429 and stays 429 after 10 s. */
export function write10(): void {
  const key = keyFor('write10');
  const send = () =>
    call('POST', `${base}/gate_sessions`, key, { body: gate.sessionBody, idempotencyKey: true, tags: { case: 'write10', name: 'POST /gate_sessions' } });
  const w = walk('write10', 11, send);
  check(w.statuses, {
    'POST /gate_sessions: 10 pass, the 11th within the minute is 429': (s) => passedAll(s.slice(0, 10)) && s[10] === 429,
  }, { req: R.write10[0] });
  untilMs(w.t0 + 11_000);
  const later = send();
  check(later, { 'POST /gate_sessions: still 429 after 10 s (the window is a minute, not 10 s)': (r) => r.status === 429 }, { req: R.write10[0] });
}

/** (b) a route of the 30/min group: 30 quick requests pass (the 10/10 s window is replaced), the 31st is 429. */
export function write30(): void {
  const key = keyFor('write30');
  const w = walk('write30', 31, () => call('PATCH', `${base}/branding`, key, { body: {}, tags: { case: 'write30', name: 'PATCH /branding' } }));
  check(w.statuses, { 'PATCH /branding: 30 within seconds pass, the 31st is 429': (s) => passedAll(s.slice(0, 30)) && s[30] === 429 }, { req: R.write30[0] });
}

/** (b) a route of the 60/min group: 60 quick requests pass, the 61st is 429. */
export function read60(): void {
  const key = keyFor('read60');
  const w = walk('read60', 61, () => call('GET', `${base}/branding`, key, { tags: { case: 'read60', name: 'GET /branding' } }));
  check(w.statuses, { 'GET /branding: 60 within seconds pass, the 61st is 429': (s) => passedAll(s.slice(0, 60)) && s[60] === 429 }, { req: R.read60[0] });
}

/** (b) the route limit replaces only the first window: 30 writes + 30 reads pass, then the 60/min window refuses the 61st. */
export function replacesFirstOnly(): void {
  const key = keyFor('replacesFirstOnly');
  const t0 = Date.now();
  const writes = walk('replacesFirstOnly', 30, () => call('PATCH', `${base}/branding`, key, { body: {}, tags: { case: 'replacesFirstOnly', name: 'PATCH /branding' } }), 0, t0, 1);
  const reads = walk('replacesFirstOnly', 31, () => call('GET', `${base}/branding`, key, { tags: { case: 'replacesFirstOnly', name: 'GET /branding' } }), 0, t0, 31);
  check([...writes.statuses, ...reads.statuses], {
    '30 writes and 30 reads pass; the 61st request in the minute is 429 (the 60/min window still applies)': (s) => passedAll(s.slice(0, 60)) && s[60] === 429,
  }, { req: R.replacesFirstOnly[0] });
}

// Round-robin over three route groups (default, 30/min, 60/min) so that no
// first window can fill under either reading of the Limits table (route
// limits per route or per group): only the longer windows can refuse.
function mixed(c: 'minute' | 'hour', key: string): (i: number) => Res {
  return (i) => {
    const k = i % 3;
    if (k === 1) return call('GET', `${base}/dashboard/webhook-settings`, key, { tags: { case: c, name: 'GET /dashboard/webhook-settings' } });
    if (k === 2) return call('PATCH', `${base}/branding`, key, { body: {}, tags: { case: c, name: 'PATCH /branding' } });
    return call('GET', `${base}/branding`, key, { tags: { case: c, name: 'GET /branding' } });
  };
}

/** (c) 60 per minute at a pace that never trips a first window: 61 requests over about 24 s across three route groups. */
export function minute(): void {
  const key = keyFor('minute');
  // 0.4 s apart: each route sees one request per 1.2 s (≤ 9 per 10 s, ≤ 21 per minute).
  const w = walk('minute', 61, mixed('minute', key), 400);
  check(w.statuses, { '60 paced requests pass, the 61st within the minute is 429': (s) => passedAll(s.slice(0, 60)) && s[60] === 429 }, { req: R.minute[0] });
}

/** (d) 300 per hour, paced under the 60/min window (about 5.5 minutes; --depth full). */
export function hour(): void {
  const key = keyFor('hour');
  // 1.1 s apart: at most 55 per minute.
  const w = walk('hour', 301, mixed('hour', key), 1_100);
  check(w.statuses, { '300 paced requests pass, the 301st within the hour is 429': (s) => passedAll(s.slice(0, 300)) && s[300] === 429 }, { req: R.hour[0] });
}

export function handleSummary(data: unknown) {
  return summaryFiles(data);
}
