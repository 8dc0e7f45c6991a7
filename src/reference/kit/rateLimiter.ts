// Gate rate limiting: three concurrent windows per client (the credential
// presented), 10/10 s, 60/min and 300/h, where a route-specific limit from the
// Limits table replaces only the first window. Where the spec leaves the
// windows open (src/model/openPoints/gate/limits.ts) the world's choice
// decides: sliding windows or fixed buckets, whether a refused request counts,
// whether a partner's keys carry requests from before the run, and which
// header (if any) a 429 says when to retry with.
import { gateRouteGroup, GATE_RATE_WINDOWS, ROUTE_GROUP_FIRST_WINDOW, scaledWindowsFor, type RateWindow, type RouteGroup } from '../../model/limits.js';
import type { Profile } from '../../profile/schema.js';
import type { Clock } from './clock.js';
import { choiceOf } from './dialect.js';
import type { ActiveFaults } from './faults.js';
import { HttpError } from './http.js';
import { CUSTOMER_WRITES_READ60, MINUTE_WINDOW_55, MISPLACED_ROUTES, misplacedName, NARROW_READ60, STEERING } from './rateLimitFaults.js';
import { rateWindowRaceGap } from '../gate/raceFaults.js';

/** Timestamps of counted requests in one window, oldest first (bounded by the window limit). */
class WindowLog {
  private readonly stamps: number[] = [];
  private head = 0;
  constructor(
    readonly spec: RateWindow,
    /** Fixed buckets (every count starts again at a multiple of the window on the target's clock), else sliding. */
    private readonly fixed = false,
  ) {}

  /** The earliest time a counted request still counts at `now`. */
  private since(now: number): number {
    return this.fixed ? Math.floor(now / this.spec.windowMs) * this.spec.windowMs : now - this.spec.windowMs + 1;
  }

  private prune(now: number): void {
    const since = this.since(now);
    while (this.head < this.stamps.length && this.stamps[this.head]! < since) this.head++;
    if (this.head > 1024 && this.head * 2 > this.stamps.length) {
      this.stamps.splice(0, this.head);
      this.head = 0;
    }
  }

  count(now: number): number {
    this.prune(now);
    return this.stamps.length - this.head;
  }

  /** ms until one slot frees. */
  retryAfterMs(now: number): number {
    this.prune(now);
    const oldest = this.stamps[this.head];
    if (oldest === undefined) return 0;
    return Math.max(0, (this.fixed ? this.since(now) : oldest) + this.spec.windowMs - now);
  }

  add(now: number): void {
    this.stamps.push(now);
  }
}

/** Requests each key of a lived-in sandbox sent before the run: in its hour window, sent 60 to 55 minutes before. */
const LIVED_IN_REQUESTS = 100;
const LIVED_IN_SPAN = 5 / 60;

/** The 429's header saying when to retry, as the world's choice spells it (none: no header). */
function retryHeaders(profile: Profile | undefined, seconds: number): Record<string, string> {
  const how = profile ? choiceOf(profile, 'gate.limits.retryDelay') : 'retry-after';
  if (how === 'none') return {};
  return how === 'ratelimit-reset' ? { 'ratelimit-reset': String(seconds) } : { 'retry-after': String(seconds) };
}

export class GateRateLimiter {
  private readonly logs = new Map<string, WindowLog>();
  /** Fixed buckets instead of sliding windows (gate.limits.windows). */
  private readonly fixed: boolean;
  /** A refused request counts in its windows too (gate.limits.counted). */
  private readonly countRefused: boolean;

  /** Whether a fault breaks the envelope of the 429 of window `i` (0: the route's first, 1: the minute) of `group`. */
  private windowFault(i: number, group: RouteGroup): boolean {
    if (i === 1) return this.faults.has('rate-429-minute-wrong-type');
    return i === 0 && group !== 'default' && this.faults.has(`rate-429-${group}-wrong-type`);
  }
  constructor(
    private readonly clock: Clock,
    private readonly faults: ActiveFaults,
    /** The declared rate-window scale (profile timing.rateWindowScale): window lengths shrink, limits stay. */
    private readonly scale = 1,
    /** The world's profile: its choices at the Limits' open points (absent: the reference's own). */
    private readonly profile?: Profile,
  ) {
    this.fixed = !!profile && choiceOf(profile, 'gate.limits.windows') === 'fixed';
    this.countRefused = !!profile && choiceOf(profile, 'gate.limits.counted') === 'every-request';
    if (profile && choiceOf(profile, 'gate.limits.atStart') === 'lived-in') this.liveIn(profile);
  }

  /**
   * A lived-in sandbox: each secret key of the partners not reserved for load already sent requests in its hour
   * window before the run (none in its minute), leaving it over the run's first minutes.
   */
  private liveIn(profile: Profile): void {
    const hour = { limit: GATE_RATE_WINDOWS.hour.limit, windowMs: GATE_RATE_WINDOWS.hour.windowMs * this.scale };
    const now = this.clock.now();
    const keys = profile.gate.partners.filter((p) => p.reservedFor !== 'load').flatMap((p) => [p.secretKey, ...(p.extraSecretKeys ?? [])]);
    for (const key of keys) {
      const l = this.log(`auth:Bearer ${key}\u0000hour`, hour);
      for (let i = 0; i < LIVED_IN_REQUESTS; i++) l.add(now - hour.windowMs + 1 + Math.round(((i + 1) / LIVED_IN_REQUESTS) * LIVED_IN_SPAN * hour.windowMs));
    }
  }

  private log(key: string, spec: RateWindow): WindowLog {
    let l = this.logs.get(key);
    if (!l) this.logs.set(key, (l = new WindowLog(spec, this.fixed)));
    return l;
  }

  /**
   * The steering faults' routes, answered before any window counts them: true when the request is let through
   * uncounted (a route no window counts); throws the 429, 403 or 401 every request of the route gets.
   */
  private steered(client: string, method: string, path: string): boolean {
    const on = (s: (typeof STEERING)[keyof typeof STEERING]) => this.faults.has(s.name) && method === s.method && path === s.path;
    if (on(STEERING.always429)) throw new HttpError(429, 'Too many requests: rate limit exceeded.', 'rate_limited', 'rate_limited', { 'retry-after': '3600' });
    const secret = client.startsWith('auth:Bearer sk_');
    if (on(STEERING.forbidden) && secret) throw new HttpError(403, 'This key may not call this route.', 'forbidden', 'forbidden');
    if (on(STEERING.unauthorized) && secret) throw new HttpError(401, 'Invalid credential.', 'unauthorized', 'unauthorized');
    return on(STEERING.unlimited);
  }

  /**
   * Count one request of `client` on a route; throws 429 (rate_limited) when any window is full.
   * `routeKey` names the operation (method + route pattern) so each route-specific first window is its own.
   */
  check(client: string, method: string, path: string, routeKey: string): void | Promise<void> {
    const now = this.clock.now();
    const doubled = this.faults.has('rate-windows-shared-double-limit');
    const who = this.faults.has('rate-windows-shared-across-keys') || doubled ? '*' : client;
    let group = gateRouteGroup(method, path);
    const sc = (w: RateWindow): RateWindow => ({ limit: w.limit, windowMs: w.windowMs * this.scale });
    let windows: RateWindow[] = scaledWindowsFor(method, path, this.scale);
    const p = path.split('?')[0]!.replace(/\/+$/, '');
    if (this.steered(client, method, p)) return;
    const misplaced = MISPLACED_ROUTES.find(
      (r) => (r.method === '*' ? method !== 'GET' : r.method === method) && r.pattern.test(p) && this.faults.has(misplacedName(r)),
    );
    if (misplaced) {
      group = misplaced.to;
      windows = [sc(ROUTE_GROUP_FIRST_WINDOW[misplaced.to]), sc(GATE_RATE_WINDOWS.minute), sc(GATE_RATE_WINDOWS.hour)];
    }
    if (group === 'write30' && /^\/customers(\/[^/]+)?$/.test(p) && this.faults.has(CUSTOMER_WRITES_READ60)) {
      group = 'read60';
      windows = [sc(ROUTE_GROUP_FIRST_WINDOW.read60), sc(GATE_RATE_WINDOWS.minute), sc(GATE_RATE_WINDOWS.hour)];
    }
    if (group === 'write10' && method === 'POST' && routeKey === 'POST /gate_sessions' && this.faults.has('rate-sessions-create-default-group')) {
      group = 'default';
      windows = [sc(GATE_RATE_WINDOWS.first), sc(GATE_RATE_WINDOWS.minute), sc(GATE_RATE_WINDOWS.hour)];
    }
    if ((group === 'write30' && this.faults.has('rate-write30-default-group')) || (group === 'read60' && this.faults.has('rate-read60-default-group'))) {
      group = 'default';
      windows = [sc(GATE_RATE_WINDOWS.first), sc(GATE_RATE_WINDOWS.minute), sc(GATE_RATE_WINDOWS.hour)];
    }
    if (group === 'default') {
      let first = windows[0]!;
      if (this.faults.has('rate-first-window-off-by-one')) first = { ...first, limit: first.limit + 1 };
      if (this.faults.has('rate-first-window-20s')) first = { ...first, windowMs: first.windowMs * 2 };
      if (this.faults.has('rate-first-window-5s')) first = { ...first, windowMs: first.windowMs / 2 };
      windows = [first, windows[1]!, windows[2]!];
    } else if (group === 'write10' && this.faults.has('rate-write10-window-30s')) {
      windows = [{ ...windows[0]!, windowMs: windows[0]!.windowMs / 2 }, ...windows.slice(1)];
    } else if (group === 'write30' && this.faults.has('rate-write30-window-90s')) {
      windows = [{ ...windows[0]!, windowMs: windows[0]!.windowMs * 1.5 }, ...windows.slice(1)];
    } else if (group === 'read60' && this.faults.has('rate-read60-window-90s')) {
      windows = [{ ...windows[0]!, windowMs: windows[0]!.windowMs * 1.5 }, ...windows.slice(1)];
    }
    if (group === 'read60' && /^\/capabilities(\/.*)?$/.test(p) && this.faults.has(NARROW_READ60))
      windows = [{ ...windows[0]!, limit: 45 }, ...windows.slice(1)];
    if (this.faults.has('rate-hour-window-30min') && windows.length > 2) windows[2] = { ...windows[2]!, windowMs: windows[2]!.windowMs / 2 };
    if (this.faults.has('rate-hour-window-off-by-one') && windows.length > 2) windows[2] = { ...windows[2]!, limit: windows[2]!.limit + 1 };
    if (this.faults.has(MINUTE_WINDOW_55) && windows.length > 1) windows[1] = { ...windows[1]!, limit: 55 };
    if (this.faults.has('rate-minute-window-30s') && windows.length > 1) windows[1] = { ...windows[1]!, windowMs: windows[1]!.windowMs / 2 };
    if (group !== 'default' && this.faults.has('rate-route-limit-replaces-all-windows')) {
      windows = [windows[0]!];
    }
    const firstKey = group === 'default' ? `${who}\u0000default` : `${who}\u0000${routeKey}`;
    const logs = [
      this.log(firstKey, windows[0]!),
      ...(windows.length > 1 ? [this.log(`${who}\u0000minute`, windows[1]!), this.log(`${who}\u0000hour`, windows[2]!)] : []),
    ];
    for (let i = 0; i < logs.length; i++) {
      const l = logs[i]!;
      if (i === 1 && this.faults.has('rate-minute-window-off')) continue;
      const limit = windows[i]!.limit * (doubled ? 2 : 1);
      if (l.count(now) >= limit) {
        const retryAfter = Math.max(1, Math.ceil(l.retryAfterMs(now) / 1000));
        if (this.countRefused) for (const x of logs) x.add(now);
        throw new HttpError(
          429,
          'Too many requests: rate limit exceeded.',
          'rate_limited',
          this.faults.has('rate-429-wrong-type') || this.windowFault(i, group) ? 'invalid_request' : 'rate_limited',
          retryHeaders(this.profile, retryAfter),
        );
      }
    }
    // Race fault: the request was counted in; it is recorded a round trip later (requests arriving in between find the window as it was).
    const gap = rateWindowRaceGap(this.faults, group);
    if (gap) return gap.then(() => logs.forEach((l) => l.add(now)));
    for (const l of logs) l.add(now);
  }
}
