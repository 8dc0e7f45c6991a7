// The seeded faults of the Gate rate limiter (src/reference/kit/rateLimiter.ts): each breaks one rule of the
// Limits section — a route in another group's window, a window of the wrong count or length, a 429 of the wrong
// type — or tries to turn a failure into "cannot judge": a route no window counts, a route refusing every request
// with 429, a route answering 403 to every request before any window counts it.
import type { RouteGroup } from '../../model/limits.js';
import type { FaultDef } from './faults.js';

/**
 * Targets steering the route probes and the minute window toward "cannot judge" or a pass: each must still fail
 * the rule it breaks. The route of each is answered by GateRateLimiter before any window counts it.
 */
export const STEERING = {
  /** A read60 route no window counts: never refused, whatever comes. */
  unlimited: { name: 'rate-route-dashboard-usage-unlimited', method: 'GET', path: '/dashboard/usage' },
  /** A read60 route answering 429 (the envelope, Retry-After an hour) to every request, paced or not. */
  always429: { name: 'rate-route-dashboard-volume-always-429', method: 'GET', path: '/dashboard/volume' },
  /** A read60 route answering 403 to every request of a valid secret key: its probe would judge nothing. */
  forbidden: { name: 'rate-route-transactions-forbidden', method: 'GET', path: '/transactions' },
  /** A default-row route answering 401 to every valid secret key: the same, with the other refusal. */
  unauthorized: { name: 'rate-route-dashboard-deliveries-unauthorized', method: 'GET', path: '/dashboard/webhook-deliveries' },
} as const;

/** Customer writes, a write30 route, counted in the read60 row (60 per minute instead of 30). */
export const CUSTOMER_WRITES_READ60 = 'rate-route-customer-writes-read60';
/** The 60-per-minute window holds 55. */
export const MINUTE_WINDOW_55 = 'rate-minute-window-55';
/** Capabilities (a read60 route) in a row window of 45 per minute: narrower than its row, wider than the 30 group. */
export const NARROW_READ60 = 'rate-route-capabilities-45-per-minute';

const STEERING_FAULTS: FaultDef[] = [
  {
    name: STEERING.unlimited.name,
    service: 'gate',
    requirements: ['GATE-RATE-ROUTES-READ60'],
    description: 'GET /dashboard/usage (dashboard usage, a read60 route) is counted by no window: 61 back to back all pass.',
    suite: 'load',
  },
  {
    name: STEERING.always429.name,
    service: 'gate',
    requirements: ['GATE-RATE-ROUTES-READ60'],
    description:
      'GET /dashboard/volume (dashboard volume, a read60 route) answers 429 rate_limited with Retry-After 3600 to every request, however far from full its windows are.',
    suite: 'load',
  },
  {
    name: STEERING.forbidden.name,
    service: 'gate',
    requirements: ['GATE-RATE-ROUTES-READ60'],
    description:
      'GET /transactions (transaction reads, a read60 route) answers 403 forbidden to every secret key, before any window counts the request: it is never limited.',
    suite: 'load',
  },
  {
    name: STEERING.unauthorized.name,
    service: 'gate',
    requirements: ['GATE-RATE-ROUTES-DEFAULT'],
    description:
      'GET /dashboard/webhook-deliveries (a default-windows route) answers 401 unauthorized to every secret key, before any window counts the request: it is never limited.',
    suite: 'load',
  },
  {
    name: CUSTOMER_WRITES_READ60,
    service: 'gate',
    requirements: ['GATE-RATE-ROUTES-WRITE30'],
    description: 'Customer writes (a write30 route) are counted in the read60 row: 60 per minute instead of 30.',
    suite: 'load',
  },
  {
    name: NARROW_READ60,
    service: 'gate',
    requirements: ['GATE-RATE-ROUTES-READ60'],
    description:
      "Capabilities (a read60 route) are limited to 45 per minute in their row window: the 46th back to back gets 429 while the key's minute window has room (another route of the key is accepted).",
    suite: 'load',
  },
  {
    name: MINUTE_WINDOW_55,
    service: 'gate',
    requirements: ['GATE-RATE-MINUTE-WINDOW'],
    description: 'The 60-per-minute window of every route holds 55: the 56th request within a minute gets 429.',
    suite: 'load',
  },
];

/**
 * One fault per route a Limits row names (beside the route its group's window is measured on): the route falls
 * into another group — a route missing from the target's table lands in the default windows; a default route
 * gets a route limit of 30 per minute.
 */
export const MISPLACED_ROUTES: { item: string; slug: string; method: string; pattern: RegExp; from: RouteGroup; to: RouteGroup }[] = [
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
export const misplacedName = (r: (typeof MISPLACED_ROUTES)[number]) => `rate-route-${r.slug}-${r.to === 'default' ? 'default-windows' : '30-per-minute'}`;

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
  ...STEERING_FAULTS,
  {
    name: 'rate-429-wrong-type',
    service: 'gate',
    requirements: ['GATE-RATE-429-ENVELOPE'],
    description: 'A 429 carries type invalid_request instead of rate_limited.',
    suite: 'load',
  },
];
