// The time a run cannot beat: the Gate rate windows force it for the requests
// each key sends (10 per 10 s or the route group's first window, 60 per
// minute, 300 per hour — all scaled by the profile's rateWindowScale), and the
// documented waits (a quote TTL, a declared lifetime, a retry schedule) force it
// for the longest chain inside one check. Both are lower bounds; the run's is
// the larger.
import { gateRouteGroup, scaledWindowsFor, type RouteGroup } from '../model/limits.js';

export interface KeyRequests {
  /** Route-group counts of one rate-limit client (a secret or publishable key). */
  groups: Partial<Record<RouteGroup, number>>;
}

/**
 * Earliest time (ms after the first request) of the n-th request of one
 * sliding window of `limit` per `windowMs`: any schedule that respects the
 * window has request k+limit at least windowMs after request k.
 */
function oneWindow(n: number, limit: number, windowMs: number): number {
  return n <= 0 ? 0 : Math.floor((n - 1) / limit) * windowMs;
}

/**
 * The minute and hour windows count every request of the key together, so
 * they compose: request n is at least a minute after request n−60 and an hour
 * after request n−300 (dynamic programming over the request index).
 */
function sharedWindows(n: number, minute: { limit: number; windowMs: number }, hour: { limit: number; windowMs: number }): number {
  if (n <= 1) return 0;
  const lb = new Float64Array(n + 1);
  for (let i = 2; i <= n; i++) {
    const a = i > minute.limit ? lb[i - minute.limit]! + minute.windowMs : 0;
    const b = i > hour.limit ? lb[i - hour.limit]! + hour.windowMs : 0;
    lb[i] = Math.max(a, b);
  }
  return lb[n]!;
}

const SAMPLE: Record<RouteGroup, [string, string]> = {
  write10: ['POST', '/gate_sessions'],
  write30: ['POST', '/quotes'],
  read60: ['GET', '/gate_sessions'],
  default: ['GET', '/dashboard/webhook-settings'],
};

/**
 * Lower bound (ms) for one key to send its requests under every window at `scale`.
 * With `waitHour: false` (a --depth quick run, whose checks skip rather than wait
 * for the hour window) the key sends at most the hour's limit and the hour
 * window never binds.
 */
export function keyLowerBoundMs(key: KeyRequests, scale = 1, opts: { waitHour?: boolean } = {}): number {
  const waitHour = opts.waitHour ?? true;
  let total = 0;
  let bound = 0;
  let minute = { limit: 60, windowMs: 60_000 * scale };
  let hour = { limit: 300, windowMs: 3_600_000 * scale };
  for (const [group, n] of Object.entries(key.groups) as [RouteGroup, number][]) {
    if (!n) continue;
    total += n;
    const [m, p] = SAMPLE[group];
    const [first, mw, hw] = scaledWindowsFor(m, p, scale);
    minute = mw;
    hour = hw;
    bound = Math.max(bound, oneWindow(waitHour ? n : Math.min(n, hour.limit), first.limit, first.windowMs));
  }
  if (!waitHour) return Math.max(bound, sharedWindows(Math.min(total, hour.limit), minute, { limit: Infinity, windowMs: 0 }));
  return Math.max(bound, sharedWindows(total, minute, hour));
}

/** Group counts from a list of requests (method, path below /v1). */
export function groupCounts(requests: readonly { method: string; path: string }[]): KeyRequests {
  const groups: Partial<Record<RouteGroup, number>> = {};
  for (const r of requests) {
    const g = gateRouteGroup(r.method, r.path);
    groups[g] = (groups[g] ?? 0) + 1;
  }
  return { groups };
}

/**
 * Spread a run's Gate requests over `keys` keys as evenly as possible (the
 * best any scheduler could do): the busiest key carries ⌈n/keys⌉ of each
 * group. Its bound is the run's rate bound.
 */
export function spreadLowerBoundMs(total: KeyRequests, keys: number, scale = 1, opts: { waitHour?: boolean } = {}): number {
  if (keys <= 0) return Infinity;
  const groups: Partial<Record<RouteGroup, number>> = {};
  for (const [g, n] of Object.entries(total.groups) as [RouteGroup, number][]) groups[g] = Math.ceil((n ?? 0) / keys);
  return keyLowerBoundMs({ groups }, scale, opts);
}

/** "1 h 40 min", "3 min 12 s", "45 s". */
export function formatDuration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const r = s % 60;
  if (h > 0) return `${h} h${m ? ` ${m} min` : ''}`;
  return `${m} min${r ? ` ${r} s` : ''}`;
}

/** What a finished run had to spend: its requests per key, its waits, and the partners its checks held. */
export interface SpentStats {
  /** With `at` and `ms` (send time and round trip), a check's requests count in its chain: the target's time to answer. */
  requests: readonly { service: 'gate' | 'pools'; label: string; credential: string; method: string; path: string; check: string; at?: number; ms?: number }[];
  sleeps: readonly { check: string; at?: number; ms: number; kind: 'target' | 'harness' }[];
  holds?: readonly { check: string; partner: string; alone: boolean; since: number }[];
}

/**
 * The lower bound of a finished run from what it really sent: the busiest Gate key's rate bound, and the
 * longest documented waiting: inside one check, or on one partner. A partner held alone is held by nothing
 * else, so the waits of the checks that held it alone add up, and the checks sharing it add their longest.
 */
export function spentLowerBound(stats: SpentStats, scale = 1): { boundMs: number; rateMs: number; waitMs: number; busiestKey: string; heldPartner?: string } {
  const byKey = new Map<string, { method: string; path: string }[]>();
  for (const r of stats.requests) {
    if (r.service !== 'gate' || r.credential === 'none') continue;
    const k = `${r.label} (${r.credential})`;
    byKey.set(k, [...(byKey.get(k) ?? []), r]);
  }
  let rateMs = 0;
  let busiestKey = '';
  for (const [k, reqs] of byKey) {
    const b = keyLowerBoundMs(groupCounts(reqs), scale);
    if (b > rateMs) [rateMs, busiestKey] = [b, k];
  }
  // A check's chain: its documented waits and the round trips of its requests (a burst sent at once counts once).
  const answered = stats.requests.filter((r) => r.at !== undefined && r.ms !== undefined).map((r) => ({ check: r.check, at: r.at!, ms: r.ms! }));
  const target = [...stats.sleeps.filter((s) => s.kind === 'target'), ...answered];
  const checks = new Set(target.map((s) => s.check));
  let waitMs = Math.max(0, ...[...checks].map((c) => coveredMs(target.filter((s) => s.check === c))));
  let heldPartner: string | undefined;
  for (const [partner, holders] of holdersByPartner(stats.holds ?? [])) {
    // Only the waits a check began once it held the partner ran inside that hold.
    const waited = (h: { check: string; since: number }) => coveredMs(target.filter((s) => s.check === h.check && (s.at ?? 0) >= h.since));
    const alone = holders.filter((h) => h.alone).reduce((sum, h) => sum + waited(h), 0);
    const shared = Math.max(0, ...holders.filter((h) => !h.alone).map(waited));
    if (alone > 0 && alone + shared > waitMs) [waitMs, heldPartner] = [alone + shared, partner];
  }
  return { boundMs: Math.max(rateMs, waitMs), rateMs, waitMs, busiestKey, ...(heldPartner ? { heldPartner } : {}) };
}

/** Each partner's holders, one per check (its first hold). */
function holdersByPartner(holds: readonly { check: string; partner: string; alone: boolean; since: number }[]) {
  const by = new Map<string, Map<string, { check: string; alone: boolean; since: number }>>();
  for (const h of holds) {
    const mine = by.get(h.partner) ?? new Map<string, { check: string; alone: boolean; since: number }>();
    by.set(h.partner, mine);
    if (!mine.has(h.check)) mine.set(h.check, h);
  }
  return new Map([...by].map(([p, m]) => [p, [...m.values()]]));
}

/**
 * The requests of one check that had to go one after another: the most of them no two of which overlapped in time
 * (a burst sent at once counts once). Each costs at least one round trip wherever the target is.
 */
export function sequentialRequests(requests: readonly { at: number; ms: number }[]): number {
  let n = 0;
  let end = -Infinity;
  for (const r of [...requests].sort((a, b) => a.at + a.ms - (b.at + b.ms))) {
    if (r.at < end) continue;
    n++;
    end = r.at + r.ms;
  }
  return n;
}

/** Time covered by waits (waits a check ran at once count once); a wait of unknown start counts on its own. */
export function coveredMs(waits: readonly { at?: number; ms: number }[]): number {
  const timed = waits.filter((w) => w.at !== undefined).sort((a, b) => a.at! - b.at!);
  let total = waits.filter((w) => w.at === undefined).reduce((sum, w) => sum + w.ms, 0);
  let end = -Infinity;
  for (const w of timed) {
    const from = Math.max(w.at!, end);
    const to = w.at! + w.ms;
    if (to > from) total += to - from;
    end = Math.max(end, to);
  }
  return total;
}
