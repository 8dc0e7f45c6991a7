// Every route a row of the Limits table names, probed in its group by count:
// the cheapest walk that tells the group apart from the others, and shows the
// route limited at all, under every reading of "L per W" (sliding, fixed
// buckets, a window from the first request, refused requests counted or not). The groups' windows were
// measured by length on one route each (rate-limits.ts); here each other
// route shows which window it is in. Plain code with no k6 imports: the
// scenario drives it with k6's clock and http, a unit test with a virtual one.

export type RouteGroup = 'write10' | 'write30' | 'read60' | 'default';

/** One route of a Limits row: `item` as the row names it, and the request that stands for it. */
export interface RouteProbe {
  item: string;
  group: RouteGroup;
  method: string;
  path: string;
  body?: unknown;
  idempotencyKey?: boolean;
  /** The publishable key (POST /embed/bootstrap): its own rate-limit client. */
  publishable?: boolean;
  /** A rail route: a 403 may be the documented "rail access not enabled" (a key without the rail entitlement). */
  rail?: boolean;
}

/** The requirement each group's route probes assert. */
export const ROUTE_GROUP_IDS: Record<RouteGroup, string> = {
  write10: 'GATE-RATE-ROUTES-WRITE10',
  write30: 'GATE-RATE-ROUTES-WRITE30',
  read60: 'GATE-RATE-ROUTES-READ60',
  default: 'GATE-RATE-ROUTES-DEFAULT',
};

/**
 * The routes of the Limits table besides the one each group's window is measured on (POST /gate_sessions,
 * PATCH /branding, GET /branding, GET /dashboard/webhook-settings). Ids that name nothing are cheap stand-ins:
 * the limiter counts the request wherever the route answers it (404, or 403 without rail entitlement).
 */
export function routeProbes(sessionBody: Record<string, unknown>): RouteProbe[] {
  const nothing = 'rampart_probe_0000';
  return [
    { item: 'POST /webhooks/test', group: 'write10', method: 'POST', path: '/webhooks/test' },
    { item: 'POST /dashboard/webhook-secret/rotate', group: 'write10', method: 'POST', path: '/dashboard/webhook-secret/rotate' },
    {
      item: 'POST /quotes/preview',
      group: 'write30',
      method: 'POST',
      path: '/quotes/preview',
      body: { amount: sessionBody.amount, currency: sessionBody.currency },
    },
    { item: 'POST /quotes', group: 'write30', method: 'POST', path: '/quotes', body: { gate_session_id: nothing, side: 'off_ramp' }, rail: true },
    {
      item: 'POST /rails/pay_ins',
      group: 'write30',
      method: 'POST',
      path: '/rails/pay_ins',
      body: { quote_id: nothing },
      idempotencyKey: true,
      rail: true,
    },
    {
      item: 'POST /rails/pay_outs',
      group: 'write30',
      method: 'POST',
      path: '/rails/pay_outs',
      body: { gate_session_id: nothing, quote_id: nothing },
      idempotencyKey: true,
      rail: true,
    },
    { item: 'POST /embed/bootstrap', group: 'write30', method: 'POST', path: '/embed/bootstrap', body: {}, publishable: true },
    { item: 'POST /gate_sessions/{id}/cancel', group: 'write30', method: 'POST', path: `/gate_sessions/${nothing}/cancel` },
    { item: 'customer writes', group: 'write30', method: 'PATCH', path: `/customers/${nothing}`, body: { first_name: 'Rampart' } },
    { item: 'webhook replay', group: 'write30', method: 'POST', path: `/webhooks/deliveries/${nothing}/replay`, body: {}, idempotencyKey: true },
    { item: 'session reads', group: 'read60', method: 'GET', path: '/gate_sessions' },
    { item: 'capabilities', group: 'read60', method: 'GET', path: '/capabilities/countries' },
    { item: 'transaction reads', group: 'read60', method: 'GET', path: '/transactions' },
    { item: 'quote and rail reads', group: 'read60', method: 'GET', path: `/rails/pay_outs/${nothing}`, rail: true },
    { item: 'customer reads', group: 'read60', method: 'GET', path: '/customers' },
    { item: 'dashboard volume', group: 'read60', method: 'GET', path: '/dashboard/volume' },
    { item: 'dashboard usage', group: 'read60', method: 'GET', path: '/dashboard/usage' },
    { item: 'GET /webhooks/deliveries', group: 'read60', method: 'GET', path: '/webhooks/deliveries' },
    { item: 'PATCH /dashboard/webhook-settings', group: 'default', method: 'PATCH', path: '/dashboard/webhook-settings', body: {} },
    { item: 'GET /dashboard/webhook-deliveries', group: 'default', method: 'GET', path: '/dashboard/webhook-deliveries' },
  ];
}

/**
 * Requests a probe sends back to back: one past the group's short limit. A read60 route sends 61: 60 pass and the
 * 61st is refused by the row's window or by the key's minute window — both apply to it, both hold 60 — so a route
 * no window counts shows (31, one past the 30 group, told it apart from that group but not from no limit at all).
 */
export const PROBE_REQUESTS: Record<RouteGroup, number> = { write10: 11, default: 11, write30: 31, read60: 61 };
/** The most requests one probe sends in all (write10 may refill its window once and look again). */
export const PROBE_MAX_SENDS: Record<RouteGroup, number> = { write10: 23, default: 12, write30: 31, read60: 61 };
/**
 * Slots of the key's minute window a probe needs free when it starts: each request it expects to pass. A read60
 * probe needs the window empty: its 61st request is the one the minute window (or the row's) must refuse.
 */
export const PROBE_MINUTE_ROOM: Record<RouteGroup, number> = { write10: 23, default: 12, write30: 31, read60: 60 };

export interface RouteProbeIO {
  now(): number;
  sleepUntil(t: number): void;
  /** Send the probe's request once; the status answered. */
  send(): number;
  /**
   * Send one side-effect-free request of the same key on a route of another group, right after a refusal: its
   * status, or undefined when none can be sent inside every window rampart's own requests of the key leave room in
   * (under every reading: refused requests counted). Accepted, it shows the key's minute and hour windows had room.
   */
  witness?(): number | undefined;
}

export interface RouteTiming {
  /** The default first window (10 s) at the declared scale, ms. */
  firstWindowMs: number;
  /** The route groups' minute at the declared scale, ms. */
  minuteMs: number;
  /** Allowed error on a window edge, ms. */
  toleranceMs: number;
}

export interface RouteVerdict {
  /** false: nothing could be told (every answer refused the credential, so none may have been counted). */
  judged: boolean;
  /**
   * Every answer was 401 or 403 (no 429): whether that tells anything depends on the key (scenario: a key the
   * target accepts elsewhere, on a route no documented 401/403 condition reaches, is refused without cause).
   */
  credentialRefused?: boolean;
  ok: boolean;
  /** Try again later (a fixed bucket may have rolled over inside the walk): the scenario gives one more try. */
  retry?: boolean;
  /**
   * The retry is for a refusal before the row's count: the key's windows may have held requests the probe did not
   * know of (sent before the scenario, or from outside the run). The scenario starts the next try only once a whole
   * minute window has passed since this walk began, so none of them can still be in any window but the hour's.
   */
  early?: boolean;
  statuses: number[];
  detail: string;
}

const refused = (s: number) => s === 429;
const credentialRefused = (statuses: number[]) => statuses.length > 0 && statuses.every((s) => s === 401 || s === 403);

/**
 * Probe one route:
 * - read60: 60 back to back pass and the 61st is refused (not the 30 group nor a 10 one, and limited at all: the
 *   row's window and the key's minute window both hold 60 and both count it);
 * - write30: 30 pass, the 31st is refused (not the 60 group, nor a 10 one);
 * - write10 / default: 10 pass, the 11th is refused (not a 30 or 60 group); then, one default window later, the
 *   next request is refused for write10 (its window is a minute) and accepted for default (10 s).
 * A walk whose last request passed may have straddled a fixed bucket's edge: `retry` (judged on the next try);
 * `lastTry` turns that into a failure. A walk refused before the row's count may have met requests of the key the
 * probe could not count (rampart's preflight, a request of another case, traffic from outside the run): `retry`,
 * `early` — the next try starts a quiet minute window later. Refused early again, it is judged with a witness (a
 * request of the key on another route group): accepted, the key's minute and hour windows had room, and the route
 * refused on its own, twice, a quiet minute apart — it fails; refused too, the key was limited as a whole (its hour
 * window, or traffic from outside the run): the route is not judged. A walk answered 401/403 throughout judged
 * nothing by itself: it ends at once, `credentialRefused` (the scenario judges it against what the key met elsewhere).
 */
export function probeRoute(io: RouteProbeIO, probe: RouteProbe, timing: RouteTiming, lastTry: boolean): RouteVerdict {
  const n = PROBE_REQUESTS[probe.group];
  const limit = n - 1;
  const statuses: number[] = [];
  let refusedAt = 0;
  for (let i = 1; i <= n; i++) {
    const s = io.send();
    statuses.push(s);
    if (refused(s)) {
      refusedAt = i;
      break;
    }
  }
  const v = (ok: boolean, detail: string, extra: Partial<RouteVerdict> = {}): RouteVerdict => ({
    judged: true,
    ok,
    statuses: [...statuses],
    detail,
    ...extra,
  });
  if (!refusedAt && credentialRefused(statuses))
    return {
      judged: false,
      ok: false,
      credentialRefused: true,
      statuses,
      detail: `every answer refused the credential (${[...new Set(statuses)].join(', ')}), none was 429: none may have been counted`,
    };
  if (refusedAt && refusedAt <= limit) return early(io, probe, refusedAt, lastTry, v);
  if (!refusedAt) {
    if (!lastTry) return v(false, `request ${n} passed`, { retry: true });
    return probe.group === 'read60'
      ? v(false, `request ${n} passed on two tries: no window of 60 per minute counts the route (neither the row's nor the minute window)`)
      : v(false, `request ${n} passed on two tries: more than ${limit} per window (the window of another group)`);
  }
  if (probe.group === 'write30' || probe.group === 'read60') return v(true, `${limit} pass, request ${n} refused`);
  // write10 and default count alike: the window's length tells them apart.
  io.sleepUntil(io.now() + timing.firstWindowMs + timing.toleranceMs);
  const later = io.send();
  statuses.push(later);
  if (probe.group === 'default')
    return refused(later)
      ? v(false, `still refused one default window (${timing.firstWindowMs} ms) after the limit: not the 10-per-10-s window`)
      : v(true, `${limit} pass, request ${n} refused, capacity back one default window later`);
  if (refused(later)) return v(true, `${limit} pass, request ${n} refused, still refused one default window later (a minute window)`);
  // Accepted: a fixed minute bucket may have rolled over within the default window; then the bucket is fresh
  // and holds this request. Fill it and look again: the next minute edge is far, so a minute window still refuses.
  let second = 0;
  for (let i = 2; i <= n; i++) {
    const s = io.send();
    statuses.push(s);
    if (refused(s)) {
      second = i;
      break;
    }
  }
  if (second === 0 || second <= limit)
    return v(false, `after a capacity back one default window later, the refill refused at ${second || 'no'} request: not a 10-per-minute window`);
  io.sleepUntil(io.now() + timing.firstWindowMs + timing.toleranceMs);
  const again = io.send();
  statuses.push(again);
  return refused(again)
    ? v(true, `capacity came back once within the default window (a fixed minute edge), and not again: a minute window`)
    : v(false, `capacity came back one default window after the limit twice: the 10-per-10-s window, not 10 per minute`);
}

type Verdict = (ok: boolean, detail: string, extra?: Partial<RouteVerdict>) => RouteVerdict;

/** A walk refused at request `at`, before the row's count: tried once more a quiet minute later, then judged with a witness. */
function early(io: RouteProbeIO, probe: RouteProbe, at: number, lastTry: boolean, v: Verdict): RouteVerdict {
  const n = PROBE_REQUESTS[probe.group];
  const what =
    at === 1
      ? `refused at its first request of ${n}: no window lets the route through`
      : `refused at request ${at} of ${n}: fewer than ${n - 1} pass, a window narrower than the ${probe.group} row's${
          probe.group === 'read60' && at <= 30 ? ' (the window of the 30 or 10 group)' : probe.group === 'read60' ? '' : ' (the window of another group)'
        }`;
  if (!lastTry)
    return v(false, `${what} (the key may have held requests the probe could not count: tried again a quiet minute later)`, { retry: true, early: true });
  const w = io.witness?.();
  if (w === 429)
    return {
      ...v(
        false,
        `${what} on both tries, a quiet minute window apart, and another route of the key was refused too: the key was limited as a whole (its hour window, or traffic from outside the run), not the route alone`,
      ),
      judged: false,
    };
  const witness = w === undefined ? 'no request of another route could be sent inside the windows' : `another route of the key answered ${w}`;
  return v(false, `${what}, on both tries, a quiet minute window apart (${witness})`);
}
