// Gate rate limiting: three concurrent sliding windows per client (the
// credential presented), 10/10 s, 60/min and 300/h, where a route-specific
// limit from the Limits table replaces only the first window.
import { gateRouteGroup, GATE_RATE_WINDOWS, ROUTE_GROUP_FIRST_WINDOW, scaledWindowsFor, type RateWindow, type RouteGroup } from '../../model/limits.js';
import type { Clock } from './clock.js';
import type { ActiveFaults, FaultDef } from './faults.js';
import { HttpError } from './http.js';

/**
 * One fault per route a Limits row names (beside the route its group's window is measured on): the route falls
 * into another group — a route missing from the target's table lands in the default windows; a default route
 * gets a route limit of 30 per minute.
 */
const MISPLACED_ROUTES: { item: string; slug: string; method: string; pattern: RegExp; from: RouteGroup; to: RouteGroup }[] = [
  { item: 'POST /webhooks/test', slug: 'webhooks-test', method: 'POST', pattern: /^\/webhooks\/test$/, from: 'write10', to: 'default' },
  {
    item: 'POST /dashboard/webhook-secret/rotate',
    slug: 'secret-rotate',
    method: 'POST',
    pattern: /^\/dashboard\/webhook-secret\/rotate$/,
    from: 'write10',
    to: 'default',
  },
  { item: 'POST /quotes/preview', slug: 'quote-preview', method: 'POST', pattern: /^\/quotes\/preview$/, from: 'write30', to: 'default' },
  { item: 'POST /quotes', slug: 'quote-lock', method: 'POST', pattern: /^\/quotes$/, from: 'write30', to: 'default' },
  { item: 'POST /rails/pay_ins', slug: 'pay-ins', method: 'POST', pattern: /^\/rails\/pay_ins$/, from: 'write30', to: 'default' },
  { item: 'POST /rails/pay_outs', slug: 'pay-outs', method: 'POST', pattern: /^\/rails\/pay_outs$/, from: 'write30', to: 'default' },
  { item: 'POST /embed/bootstrap', slug: 'bootstrap', method: 'POST', pattern: /^\/embed\/bootstrap$/, from: 'write30', to: 'default' },
  { item: 'POST /gate_sessions/{id}/cancel', slug: 'cancel', method: 'POST', pattern: /^\/gate_sessions\/[^/]+\/cancel$/, from: 'write30', to: 'default' },
  { item: 'customer writes', slug: 'customer-writes', method: '*', pattern: /^\/customers(\/[^/]+)?$/, from: 'write30', to: 'default' },
  { item: 'webhook replay', slug: 'replay', method: 'POST', pattern: /^\/webhooks\/deliveries\/[^/]+\/replay$/, from: 'write30', to: 'default' },
  { item: 'session reads', slug: 'session-reads', method: 'GET', pattern: /^\/gate_sessions(\/[^/]+)?$/, from: 'read60', to: 'default' },
  { item: 'capabilities', slug: 'capabilities', method: 'GET', pattern: /^\/capabilities(\/.*)?$/, from: 'read60', to: 'default' },
  { item: 'transaction reads', slug: 'transaction-reads', method: 'GET', pattern: /^\/transactions(\/[^/]+)?$/, from: 'read60', to: 'default' },
  {
    item: 'quote and rail reads',
    slug: 'quote-rail-reads',
    method: 'GET',
    pattern: /^\/(quotes|rails\/(pay_ins|pay_outs))\/[^/]+$/,
    from: 'read60',
    to: 'default',
  },
  { item: 'customer reads', slug: 'customer-reads', method: 'GET', pattern: /^\/customers(\/[^/]+)?$/, from: 'read60', to: 'default' },
  { item: 'dashboard volume', slug: 'dashboard-volume', method: 'GET', pattern: /^\/dashboard\/volume$/, from: 'read60', to: 'default' },
  { item: 'dashboard usage', slug: 'dashboard-usage', method: 'GET', pattern: /^\/dashboard\/usage$/, from: 'read60', to: 'default' },
  { item: 'GET /webhooks/deliveries', slug: 'deliveries-list', method: 'GET', pattern: /^\/webhooks\/deliveries$/, from: 'read60', to: 'default' },
  {
    item: 'PATCH /dashboard/webhook-settings',
    slug: 'settings-patch',
    method: 'PATCH',
    pattern: /^\/dashboard\/webhook-settings$/,
    from: 'default',
    to: 'write30',
  },
  {
    item: 'GET /dashboard/webhook-deliveries',
    slug: 'dashboard-deliveries',
    method: 'GET',
    pattern: /^\/dashboard\/webhook-deliveries$/,
    from: 'default',
    to: 'write30',
  },
];
const ROUTES_ID: Record<RouteGroup, string> = {
  write10: 'GATE-RATE-ROUTES-WRITE10',
  write30: 'GATE-RATE-ROUTES-WRITE30',
  read60: 'GATE-RATE-ROUTES-READ60',
  default: 'GATE-RATE-ROUTES-DEFAULT',
};
const misplacedName = (r: (typeof MISPLACED_ROUTES)[number]) => `rate-route-${r.slug}-${r.to === 'default' ? 'default-windows' : '30-per-minute'}`;

/** Faults on the 429 of one window: its envelope carries type invalid_request. */
const WINDOW_429_FAULTS: Record<string, string> = {
  'rate-429-write10-wrong-type': 'the 10-per-minute route window',
  'rate-429-write30-wrong-type': 'the 30-per-minute route window',
  'rate-429-read60-wrong-type': 'the 60-per-minute route window',
  'rate-429-minute-wrong-type': 'the 60-per-minute window of every route',
};

export const RATE_LIMIT_FAULTS: FaultDef[] = [
  ...MISPLACED_ROUTES.map((r) => ({
    name: misplacedName(r),
    service: 'gate' as const,
    requirements: [ROUTES_ID[r.from]],
    description: `${r.item} is limited by ${r.to === 'default' ? 'the default windows (10 per 10 s)' : 'a route limit of 30 per minute'} instead of its ${r.from === 'default' ? 'default windows' : `${r.from} row`}.`,
    suite: 'load' as const,
  })),
  ...Object.entries(WINDOW_429_FAULTS).map(([name, what]) => ({
    name,
    service: 'gate' as const,
    requirements: ['GATE-RATE-429-ENVELOPE'],
    description: `A 429 of ${what} carries type invalid_request instead of rate_limited.`,
    suite: 'load' as const,
  })),
  {
    name: 'rate-first-window-off-by-one',
    service: 'gate',
    requirements: ['GATE-RATE-FIRST-WINDOW'],
    description: 'The 10 per 10 s window lets an 11th request through.',
    suite: 'load',
  },
  {
    name: 'rate-first-window-20s',
    service: 'gate',
    requirements: ['GATE-RATE-FIRST-WINDOW-LENGTH', 'GATE-RATE-FIRST-WINDOW-REOPENS'],
    description: 'The first default window spans 20 s instead of 10 s.',
    suite: 'load',
  },
  {
    name: 'rate-first-window-5s',
    service: 'gate',
    requirements: ['GATE-RATE-FIRST-WINDOW-LENGTH'],
    description: 'The first default window spans 5 s instead of 10 s (the limit is right, the window rolls over early).',
    suite: 'load',
  },
  {
    name: 'rate-minute-window-30s',
    service: 'gate',
    requirements: ['GATE-RATE-MINUTE-WINDOW-LENGTH'],
    description: 'The 60 per minute window spans 30 s.',
    suite: 'load',
  },
  {
    name: 'rate-write10-window-30s',
    service: 'gate',
    requirements: ['GATE-RATE-ROUTE-WRITE10-LENGTH'],
    description: 'The 10 per minute window of POST /gate_sessions (and the other write10 routes) spans 30 s.',
    suite: 'load',
  },
  {
    name: 'rate-write30-window-90s',
    service: 'gate',
    requirements: ['GATE-RATE-ROUTE-WRITE30-LENGTH'],
    description: 'The 30 per minute window of the write30 routes spans 90 s.',
    suite: 'load',
  },
  {
    name: 'rate-read60-window-90s',
    service: 'gate',
    requirements: ['GATE-RATE-ROUTE-READ60-LENGTH'],
    // A shorter read60 window would be masked by the 60/min window (same limit, same length): only a longer one shows.
    description: 'The 60 per minute window of the read60 routes spans 90 s.',
    suite: 'load',
  },
  {
    name: 'rate-hour-window-off-by-one',
    service: 'gate',
    requirements: ['GATE-RATE-HOUR-WINDOW'],
    description: 'The 300 per hour window lets a 301st request through (caught at --depth full, where the hour case runs).',
    suite: 'load',
  },
  {
    name: 'rate-hour-window-30min',
    service: 'gate',
    requirements: ['GATE-RATE-HOUR-WINDOW-LENGTH'],
    description: 'The 300 per hour window spans 30 minutes (caught at --depth full, where the hour case runs).',
    suite: 'load',
  },
  {
    name: 'rate-sessions-create-default-group',
    service: 'gate',
    requirements: ['GATE-RATE-ROUTE-WRITE10'],
    description: 'POST /gate_sessions uses the default 10 per 10 s window instead of 10 per minute.',
    suite: 'load',
  },
  {
    name: 'rate-route-limit-replaces-all-windows',
    service: 'gate',
    requirements: ['GATE-RATE-ROUTE-REPLACES-FIRST-ONLY'],
    description: 'A route-specific limit replaces all three windows, so the 60/min and 300/h windows no longer apply to it.',
    suite: 'load',
  },
  {
    name: 'rate-windows-shared-across-keys',
    service: 'gate',
    requirements: ['GATE-RATE-PER-CLIENT'],
    description: 'All clients share one set of windows instead of one per client.',
    suite: 'load',
  },
  {
    name: 'rate-write30-default-group',
    service: 'gate',
    requirements: ['GATE-RATE-ROUTE-WRITE30'],
    description: 'The 30/min write routes use the default 10 per 10 s window.',
    suite: 'load',
  },
  {
    name: 'rate-read60-default-group',
    service: 'gate',
    requirements: ['GATE-RATE-ROUTE-READ60'],
    description: 'The 60/min read routes use the default 10 per 10 s window.',
    suite: 'load',
  },
  {
    name: 'rate-minute-window-off',
    service: 'gate',
    requirements: ['GATE-RATE-MINUTE-WINDOW'],
    description: 'The 60 per minute window is not enforced.',
    suite: 'load',
  },
  {
    name: 'rate-windows-shared-double-limit',
    service: 'gate',
    requirements: ['GATE-RATE-PER-CLIENT'],
    description:
      'All clients share one set of windows of twice the limits: one key alone makes 20 requests per 10 s, and a throttled key throttles the others.',
    suite: 'load',
  },
  {
    name: 'rate-429-wrong-type',
    service: 'gate',
    requirements: ['GATE-RATE-429-ENVELOPE'],
    description: 'A 429 carries type invalid_request instead of rate_limited.',
    suite: 'load',
  },
];

/** Timestamps of accepted requests in one window, oldest first (bounded by the window limit). */
class WindowLog {
  private readonly stamps: number[] = [];
  private head = 0;
  constructor(readonly spec: RateWindow) {}

  private prune(now: number): void {
    while (this.head < this.stamps.length && this.stamps[this.head]! <= now - this.spec.windowMs) this.head++;
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
    return oldest === undefined ? 0 : Math.max(0, oldest + this.spec.windowMs - now);
  }

  add(now: number): void {
    this.stamps.push(now);
  }
}

export class GateRateLimiter {
  private readonly logs = new Map<string, WindowLog>();

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
  ) {}

  private log(key: string, spec: RateWindow): WindowLog {
    let l = this.logs.get(key);
    if (!l) this.logs.set(key, (l = new WindowLog(spec)));
    return l;
  }

  /**
   * Count one request of `client` on a route; throws 429 (rate_limited) when any window is full.
   * `routeKey` names the operation (method + route pattern) so each route-specific first window is its own.
   */
  check(client: string, method: string, path: string, routeKey: string): void {
    const now = this.clock.now();
    const doubled = this.faults.has('rate-windows-shared-double-limit');
    const who = this.faults.has('rate-windows-shared-across-keys') || doubled ? '*' : client;
    let group = gateRouteGroup(method, path);
    const sc = (w: RateWindow): RateWindow => ({ limit: w.limit, windowMs: w.windowMs * this.scale });
    let windows: RateWindow[] = scaledWindowsFor(method, path, this.scale);
    const p = path.split('?')[0]!.replace(/\/+$/, '');
    const misplaced = MISPLACED_ROUTES.find(
      (r) => (r.method === '*' ? method !== 'GET' : r.method === method) && r.pattern.test(p) && this.faults.has(misplacedName(r)),
    );
    if (misplaced) {
      group = misplaced.to;
      windows = [sc(ROUTE_GROUP_FIRST_WINDOW[misplaced.to]), sc(GATE_RATE_WINDOWS.minute), sc(GATE_RATE_WINDOWS.hour)];
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
    if (this.faults.has('rate-hour-window-30min') && windows.length > 2) windows[2] = { ...windows[2]!, windowMs: windows[2]!.windowMs / 2 };
    if (this.faults.has('rate-hour-window-off-by-one') && windows.length > 2) windows[2] = { ...windows[2]!, limit: windows[2]!.limit + 1 };
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
        throw new HttpError(
          429,
          'Too many requests: rate limit exceeded.',
          'rate_limited',
          this.faults.has('rate-429-wrong-type') || this.windowFault(i, group) ? 'invalid_request' : 'rate_limited',
          {
            'retry-after': String(retryAfter),
          },
        );
      }
    }
    for (const l of logs) l.add(now);
  }
}
