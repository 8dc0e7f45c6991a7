// Helpers shared by the Gate session, session-event and embed suites: session
// bodies from the profile, creation, embed bootstrap from an allowed origin,
// and shape-agnostic reading of embed responses (their fields are not shown).
import type { Exchange } from '../../src/client/types.js';
import type { GateActor } from '../../src/needs/define.js';
import type { EmbedActor } from '../../src/needs/gate/embed.js';
import type { CheckTools, RequirementId } from '../../src/runner/check.js';
import { CreatedGateSession, GateSession } from '../../src/model/schemas/gate/sessions.js';
import type { ExpireSession } from '../../src/needs/gate/expireSession.js';
import { CLOCK_BOUNDS } from '../../src/model/limits.js';
import { clockNote, sleepUntilTargetPast, stampCreated, targetNow, type TimeRule } from '../targetTime.js';
import { expect2xx } from '../expect.js';
import { decEq } from '../pools/pools.js';
import { createCustomer } from './customers.js';

/** A session body from the profile's sessionDefaults, with overrides (undefined removes a field). */
export function sessionBody(t: Pick<CheckTools, 'profile'>, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const body: Record<string, unknown> = { ...(t.profile.gate.sessionDefaults ?? {}) };
  delete body.$comment;
  for (const [k, v] of Object.entries(overrides)) {
    if (v === undefined) delete body[k];
    else body[k] = v;
  }
  return body;
}

export interface Created {
  exchange: Exchange;
  session: GateSession & { client_secret: string };
}

/** Create a session (success status not shown: any 2xx) and parse the creation response. */
export async function createSession(t: CheckTools, actor: GateActor, requirement: RequirementId, overrides: Record<string, unknown> = {}): Promise<Created> {
  const exchange = await actor.client.post('/gate_sessions', sessionBody(t, overrides), { idempotencyKey: true });
  expect2xx(t, exchange, requirement);
  const session = t.expect.schema(exchange, CreatedGateSession, requirement);
  // Its created_at is the target's own clock while the request was in flight.
  stampCreated(actor.client, exchange, session.created_at);
  return { exchange, session };
}

export const sessionPath = (id: string, rest = '') => `/gate_sessions/${encodeURIComponent(id)}${rest}`;

/** A session's expires_at, judged on the target's clock, for the rule `requirement`. */
const expiresAtRule = (requirement: RequirementId): TimeRule => ({ requirement, bound: CLOCK_BOUNDS.sessionExpiresAt });

/**
 * Get a session past its expires_at (the profile's trigger or its declared lifetime) and read it once the
 * target's clock is surely past expires_at. When the way to expire it left expires_at surely ahead on the
 * target's clock, nothing can be judged: unverified, with the numbers. A target whose clock jumped, or that
 * shows no clock at all, fails `requirement` (its expires_at stands on nothing).
 */
export async function readPastExpiry(
  t: CheckTools,
  actor: GateActor,
  expire: ExpireSession,
  session: { id: string; expires_at: string },
  requirement: RequirementId,
): Promise<GateSession> {
  const rule = expiresAtRule(requirement);
  await expire(session, actor);
  const read = async () => t.expect.schema(t.expect.status(await actor.client.get(sessionPath(session.id)), 200, requirement), GateSession, requirement);
  let s = await read();
  const exp = Date.parse(s.expires_at);
  const now = targetNow(t, actor.client, rule);
  if (exp > now.high)
    t.unverified(
      `the session's expires_at (${s.expires_at}) is still ${((exp - now.high) / 1000).toFixed(1)} s or more ahead on the target's clock after ${expire.how === 'trigger' ? 'gate.triggers.expireSession' : 'its declared lifetime (timing.sessionLifetimeSeconds)'} (${clockNote(actor.client)})`,
    );
  // Within the clock estimate's uncertainty of expires_at: wait until the target is surely past it, then read again.
  if (exp > now.low) {
    await sleepUntilTargetPast(t, actor.client, exp, 'the session past expires_at on the target clock', rule, 1);
    s = await read();
  }
  return s;
}

/** How old a session is when bootstrapped ahead of its expires_at: a target ending sessions on a timer of its own shows by then. */
export const EARLY_END_PROBE_AGE_MS = 8_000;

/**
 * Expiry happens past expires_at and only then: an open session, let age EARLY_END_PROBE_AGE_MS from its
 * creation's answer and bootstrapped while its expires_at is surely ahead on the target's clock (its own
 * stamps, or its Date headers), is not expired by it. A session whose expires_at is not that far ahead by then
 * has nothing to show here (observed).
 */
export async function expectOpenBeforeExpiresAt(t: CheckTools, actor: EmbedActor, created: Created): Promise<void> {
  const R = 'GATE-SESS-EXPIRE-ON-BOOTSTRAP';
  const ageMs = created.exchange.startedAt + created.exchange.durationMs + EARLY_END_PROBE_AGE_MS - Date.now();
  if (ageMs > 0) await t.sleep(ageMs, 'the session ageing before a bootstrap ahead of its expires_at', 'harness');
  const exp = Date.parse(created.session.expires_at);
  // A session's created_at may be null ("string or null"): where no clock is known yet, a customer's created_at
  // (RFC 3339, always stamped) shows the target's own.
  if (created.session.created_at === null && actor.client.clock.reading().kind !== 'known') await createCustomer(t, actor, R);
  // Ahead by more than the bootstrap's own way there (twice the slowest round trip) and a second.
  const way = 2 * (actor.client.clock.roundTrip()?.p95Ms ?? 0) + 1_000;
  const now = targetNow(t, actor.client, expiresAtRule(R));
  if (!(exp > now.high + way)) {
    t.observe(
      'gate-session-expires-at-near',
      { expiresAt: created.session.expires_at, clock: clockNote(actor.client) },
      'expires_at is not surely ahead: nothing to judge before it',
    );
    return;
  }
  const boot = await bootstrap(actor, { origin: actor.origin }, { clientSecret: created.session.client_secret });
  t.observe('gate-bootstrap-before-expiry-status', boot.status, 'a bootstrap of an open session before its expires_at');
  const after = t.expect.schema(t.expect.status(await actor.client.get(sessionPath(created.session.id)), 200, R), GateSession, R);
  t.expect.that(after.status !== 'expired', "a bootstrap while expires_at is still ahead on the target's clock does not expire the session", {
    requirement: R,
    expected: 'open (expiry only past expires_at)',
    actual: { status: after.status, expiresAt: created.session.expires_at, aheadSeconds: Math.round((exp - now.high) / 1000), clock: clockNote(actor.client) },
    exchange: boot,
  });
}

/** The session terms a partner binds at creation and reads back as sent (currency is compared uppercased elsewhere). */
export const BOUND_TERMS = ['return_url', 'cancel_url', 'flow', 'target_token', 'target_network', 'wallet_address', 'user_reference'] as const;

/**
 * The session binds what was sent: the amount as the same decimal, and every
 * optional term the request carried, as sent. A term not sent is not judged (a
 * target may fill a default, e.g. a flow).
 */
export function expectTermsEchoed(t: CheckTools, session: GateSession, sent: Record<string, unknown>, ex: Exchange, requirement: RequirementId): void {
  if (typeof sent.amount === 'string')
    t.expect.that(decEq(session.amount, sent.amount), `amount is the bound amount sent (${sent.amount})`, {
      requirement,
      expected: sent.amount,
      actual: session.amount,
      exchange: ex,
    });
  for (const k of BOUND_TERMS) {
    if (typeof sent[k] !== 'string') continue;
    t.expect.equal(session[k], sent[k], `${k} reads back as sent`, { requirement, exchange: ex });
  }
}

/**
 * The flow values the spec documents ("`flow` (`on_ramp` is one value)"; the full set is not shown). A session created
 * without a flow may read it null or locked to the one documented value: "string or null | locked flow" allows both.
 */
export const DOCUMENTED_FLOWS: readonly string[] = ['on_ramp'];

/**
 * Every optional term (BOUND_TERMS but return_url, which is required) the request did not carry reads back
 * null: the GateSession types them "string or null", and a redirect, a constraint or a correlation id the
 * partner never gave is none. flow alone may also read its one documented value (a target locking the flow
 * it serves): both readings pass, and which one the target took is observed.
 */
export function expectUnsentTermsNull(t: CheckTools, session: GateSession, sent: Record<string, unknown>, ex: Exchange, requirement: RequirementId): void {
  for (const k of BOUND_TERMS) {
    if (k === 'return_url' || sent[k] !== undefined) continue;
    const v = (session as Record<string, unknown>)[k];
    if (k === 'flow') {
      t.expect.that(
        v === null || (typeof v === 'string' && DOCUMENTED_FLOWS.includes(v)),
        `flow, not sent, reads back null or a documented flow (${DOCUMENTED_FLOWS.join(', ')})`,
        {
          requirement,
          expected: ['null', ...DOCUMENTED_FLOWS].join(' or '),
          actual: v,
          exchange: ex,
        },
      );
      t.observe('gate-session-unsent-flow', v, 'a session created without flow: null, or locked to a documented flow');
      continue;
    }
    t.expect.equal(v, null, `${k}, not sent, reads back null`, { requirement, exchange: ex });
  }
}

/** POST /embed/bootstrap with the publishable key and the given origin headers. */
export function bootstrap(
  actor: EmbedActor | GateActor,
  headers: Record<string, string>,
  body: Record<string, unknown> = {},
  auth: 'publishable' | 'secret' = 'publishable',
): Promise<Exchange> {
  return actor.client.request({ method: 'POST', path: '/embed/bootstrap', body, headers, auth, retry: false });
}

export { findJwt } from '../../src/wire/jwt.js';

/** Every string inside a JSON value (for "the response names this session" checks). */
export function stringsIn(v: unknown, out: string[] = []): string[] {
  if (typeof v === 'string') out.push(v);
  else if (v && typeof v === 'object') for (const x of Object.values(v)) stringsIn(x, out);
  return out;
}
