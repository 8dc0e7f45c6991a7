// Every documented limit of both specs, in one place. Code reads these; it
// never repeats the numbers.

export const SPEC_VERSION = '2026-05-25';

export interface RateWindow {
  limit: number;
  windowMs: number;
}

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** Gate "Limits": three concurrent windows per client; a route limit replaces only the first. */
export const GATE_RATE_WINDOWS = {
  first: { limit: 10, windowMs: 10 * SECOND },
  minute: { limit: 60, windowMs: MINUTE },
  hour: { limit: 300, windowMs: HOUR },
} as const satisfies Record<string, RateWindow>;

export type RouteGroup = 'write10' | 'write30' | 'read60' | 'default';

/** The short (first) window of each route group of the Limits table. */
export const ROUTE_GROUP_FIRST_WINDOW: Record<RouteGroup, RateWindow> = {
  write10: { limit: 10, windowMs: MINUTE },
  write30: { limit: 30, windowMs: MINUTE },
  read60: { limit: 60, windowMs: MINUTE },
  default: GATE_RATE_WINDOWS.first,
};

interface GroupRule {
  method: string;
  pattern: RegExp;
  group: RouteGroup;
}

// Order matters: the first matching rule wins. Paths are relative to /v1.
const GROUP_RULES: GroupRule[] = [
  { method: 'POST', pattern: /^\/gate_sessions$/, group: 'write10' },
  { method: 'POST', pattern: /^\/dashboard\/webhook-secret\/rotate$/, group: 'write10' },
  { method: 'POST', pattern: /^\/webhooks\/test$/, group: 'write10' },
  { method: 'POST', pattern: /^\/quotes\/preview$/, group: 'write30' },
  { method: 'POST', pattern: /^\/quotes$/, group: 'write30' },
  { method: 'POST', pattern: /^\/rails\/pay_ins$/, group: 'write30' },
  { method: 'POST', pattern: /^\/rails\/pay_outs$/, group: 'write30' },
  { method: 'POST', pattern: /^\/embed\/bootstrap$/, group: 'write30' },
  { method: 'POST', pattern: /^\/gate_sessions\/[^/]+\/cancel$/, group: 'write30' },
  { method: 'POST', pattern: /^\/customers$/, group: 'write30' },
  { method: 'PATCH', pattern: /^\/customers\/[^/]+$/, group: 'write30' },
  { method: 'DELETE', pattern: /^\/customers\/[^/]+$/, group: 'write30' },
  { method: 'PATCH', pattern: /^\/branding$/, group: 'write30' },
  { method: 'POST', pattern: /^\/webhooks\/deliveries\/[^/]+\/replay$/, group: 'write30' },
  { method: 'GET', pattern: /^\/gate_sessions(\/[^/]+)?$/, group: 'read60' },
  { method: 'GET', pattern: /^\/capabilities(\/.*)?$/, group: 'read60' },
  { method: 'GET', pattern: /^\/transactions(\/[^/]+)?$/, group: 'read60' },
  { method: 'GET', pattern: /^\/quotes\/[^/]+$/, group: 'read60' },
  { method: 'GET', pattern: /^\/rails\/(pay_ins|pay_outs)\/[^/]+$/, group: 'read60' },
  { method: 'GET', pattern: /^\/customers(\/[^/]+)?$/, group: 'read60' },
  { method: 'GET', pattern: /^\/branding$/, group: 'read60' },
  { method: 'GET', pattern: /^\/dashboard\/(volume|usage)$/, group: 'read60' },
  { method: 'GET', pattern: /^\/webhooks\/deliveries$/, group: 'read60' },
  // GET/PATCH /dashboard/webhook-settings, GET /dashboard/webhook-deliveries and
  // anything unlisted keep the default windows.
];

/** The Limits-table group of a Gate route (path relative to /v1, query stripped). */
export function gateRouteGroup(method: string, path: string): RouteGroup {
  const p = path.split('?')[0]!.replace(/\/+$/, '') || '/';
  const m = method.toUpperCase();
  for (const r of GROUP_RULES) if (r.method === m && r.pattern.test(p)) return r.group;
  return 'default';
}

/** The three windows that apply to one Gate route: its first window, then 60/min and 300/h. */
export function gateWindowsFor(method: string, path: string): [RateWindow, RateWindow, RateWindow] {
  return [ROUTE_GROUP_FIRST_WINDOW[gateRouteGroup(method, path)], GATE_RATE_WINDOWS.minute, GATE_RATE_WINDOWS.hour];
}

/**
 * The three windows of a route at a declared time scale (profile timing.rateWindowScale):
 * the limits stay the spec's, only the window lengths shrink.
 */
export function scaledWindowsFor(method: string, path: string, scale: number): [RateWindow, RateWindow, RateWindow] {
  const [a, b, c] = gateWindowsFor(method, path);
  if (scale === 1) return [a, b, c];
  const s = (w: RateWindow): RateWindow => ({ limit: w.limit, windowMs: w.windowMs * scale });
  return [s(a), s(b), s(c)];
}

export const GATE_LIMITS = {
  deliveries: { limitMin: 1, limitMax: 200, limitDefault: 50, skipMin: 0 },
  branding: { logoUrlMax: 2048, brandNameMax: 64, colorPattern: /^#[0-9a-fA-F]{6}$/ },
  customers: { nameMax: 128, countryCodePattern: /^[A-Za-z]{2}$/ },
  payOut: { gateSessionIdMax: 64, quoteIdMax: 64, referenceMax: 128 },
  webhook: {
    attemptTimeoutMs: 10 * SECOND,
    maxAttempts: 5,
    /** Delay before attempts 2, 3, 4 and 5. */
    retryScheduleMs: [1 * MINUTE, 5 * MINUTE, 30 * MINUTE, 2 * HOUR],
    signatureSkewSeconds: 300,
  },
  embedTokenLifetimeMs: HOUR,
  keyPattern: /^(sk|pk)_(test|live)_[A-Za-z0-9]{32}$/,
  /** Characters after sk_<test|live>_ / pk_<test|live>_ (Authentication: `<32 chars>`). */
  keyBodyLength: 32,
  clientSecretPrefix: 'gsec_',
} as const;

/** How loosely rampart may know a target's clock and still judge a time rule on it. */
export interface ClockBound {
  /** The widest offset uncertainty (± ms) a pass may stand on. */
  maxUncertaintyMs: number;
  why: string;
}

/**
 * Per time rule, the clock uncertainty it can afford. Known more loosely, a rule that some reading of the clock keeps
 * ends unverified with the numbers (a broken target could hide inside the slack); a rule every reading breaks fails
 * whatever the uncertainty. The stated bounds are fractions of what the rule itself allows.
 */
export const CLOCK_BOUNDS = {
  poolsQuoteTtl: {
    maxUncertaintyMs: 1 * SECOND,
    why: 'a second of the firm quote\'s "about 15 seconds" (half the profile\'s TTL tolerance when that is tighter)',
  },
  signatureSkew: { maxUncertaintyMs: 30 * SECOND, why: 'a tenth of the 300 s signature skew' },
  embedTokenLifetime: { maxUncertaintyMs: 30 * SECOND, why: 'half the minute the 1 hour embed token lifetime is judged to' },
  sessionExpiresAt: { maxUncertaintyMs: 10 * SECOND, why: "what a check's budget affords waiting past a session's expires_at" },
  objectOrder: { maxUncertaintyMs: 1 * SECOND, why: 'telling an object made before a refusal from one made after it, the two 2 s apart' },
} as const satisfies Record<string, ClockBound>;

export const POOLS_LIMITS = {
  quoteTtlSeconds: 15,
  trades: { limitMin: 1, limitMax: 100, limitDefault: 50 },
  fundingCurrency: 'EUR',
  cryptoNetworks: ['tron', 'ethereum', 'bsc', 'polygon', 'solana'] as const,
  defaultCryptoNetwork: 'tron',
  evmAddressPattern: /^0x[0-9a-fA-F]{40}$/,
  velocityWindowMs: 24 * HOUR,
} as const;
