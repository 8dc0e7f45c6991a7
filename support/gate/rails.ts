// Rails for checks of every area: a session to lock a signed quote on, the
// quote itself (through the profile's createSignedQuote trigger: POST /quotes
// is not shown), and pay-outs redeeming it. A signed quote lives a short time
// (its lifetime is not shown; a sandbox may declare it): the session, the lock
// and every request that uses the quote are granted by the pacer as one block
// before the first is sent, so none of them waits behind other checks'.
import type { ChainStep, Exchange, Reservation } from '../../src/client/types.js';
import type { GateActor } from '../../src/needs/define.js';
import type { LockSignedQuote } from '../../src/needs/gate/signedQuote.js';
import type { CheckTools, RequirementId } from '../../src/runner/check.js';
import { RailPayOut } from '../../src/model/schemas/gate/rails.js';
import { sendWith } from '../../src/needs/support/triggers.js';
import { expect2xx } from '../expect.js';
import { decEq } from '../pools/pools.js';
import { sessionBody } from './sessions.js';

/** Open a session with the profile's creation defaults (success status not shown: any 2xx). */
export async function openSession(t: CheckTools, actor: GateActor, requirement: RequirementId): Promise<string> {
  const ex = await actor.client.post('/gate_sessions', sessionBody(t), { idempotencyKey: true });
  expect2xx(t, ex, requirement);
  const id = (ex.json as { id?: unknown } | undefined)?.id;
  t.expect.that(typeof id === 'string' && id.length > 0, 'the created session has an id', { requirement, exchange: ex });
  return id;
}

/** Requests a check sends with a locked quote, inside its lifetime (they join the lock's block). */
export interface QuoteUses {
  payOuts?: number;
  payIns?: number;
  /** GET /quotes/{id} reads. */
  reads?: number;
}

const STEP = {
  session: { method: 'POST', path: '/gate_sessions' },
  payOut: { method: 'POST', path: '/rails/pay_outs' },
  payIn: { method: 'POST', path: '/rails/pay_ins' },
  read: { method: 'GET', path: '/quotes/id' },
} satisfies Record<string, ChainStep>;

/** The block of a quote's chain: its session, its lock (the profile's template), then the uses. */
function chainSteps(t: CheckTools, uses: QuoteUses, withSession: boolean): ChainStep[] {
  const tpl = t.profile.gate.triggers.createSignedQuote;
  const lockStep = tpl ? { method: tpl.method, path: tpl.path } : { method: 'POST', path: '/quotes' };
  const n = (k: number | undefined, s: ChainStep) => Array.from({ length: k ?? 0 }, () => s);
  return [...(withSession ? [STEP.session] : []), lockStep, ...n(uses.payOuts ?? 1, STEP.payOut), ...n(uses.payIns, STEP.payIn), ...n(uses.reads, STEP.read)];
}

/** Each locked quote's block, by quote id: the requests that redeem or read it take their slots from it. */
const chains = new Map<string, Reservation>();

/** A quote a check inspected (GET /quotes/{id}) and then paid out, left for a check that judges that pay-out too. */
export interface InspectedPayOut {
  q: LockedQuote;
  inspected: Exchange;
  paid: Exchange;
}
export const inspectedPayOutLeft = (actor: GateActor) => `inspected and paid-out quote of gate partner ${actor.partner.name}`;

/** Give back the slots of a quote's block its check did not use (a chain sized for its worst case). */
export function releaseChain(quoteId: string): void {
  chains.get(quoteId)?.release();
}

/** Run requests on a quote inside its chain's block (when the quote has one): they take its granted slots. */
export function inChain<T>(quoteId: unknown, send: () => Promise<T>): Promise<T> {
  const res = typeof quoteId === 'string' ? chains.get(quoteId) : undefined;
  return res ? res.within(send) : send();
}

export interface LockedQuote {
  sessionId: string;
  quoteId: string;
  /** The quote's fiat_pay_or_receive (decimal string). */
  fiat: string;
  /** rampart's clock when the lock's answer came: the target made the quote before it (declared lifetimes count from here). */
  lockedAt: number;
  /** rampart's clock when the lock request was sent: the quote was made after it (it cannot expire before this plus its lifetime). */
  lockSentAt: number;
  /** The quote's currency and method, where the lock response shows them (its fields are not shown beyond fiat_pay_or_receive). */
  shown: { currency?: string; method?: string };
  /** The lock's answer (the profile's createSignedQuote request), when this module locked it. */
  lock?: Exchange;
  /** The partner that locked it: it may inspect the quote (GET /quotes/{id}) when a redemption is refused late. */
  owner?: GateActor;
}

/**
 * Lock a signed quote for a new session. Pay-outs pay the customer, so they
 * redeem an off_ramp (sell) quote; pay-ins redeem an on_ramp one.
 */
export async function lockQuote(
  t: CheckTools,
  actor: GateActor,
  lock: LockSignedQuote,
  side: 'on_ramp' | 'off_ramp',
  requirement: RequirementId,
  uses: QuoteUses = {},
): Promise<LockedQuote> {
  const block = await actor.client.reserve(chainSteps(t, uses, true));
  const sessionId = await block.within(() => openSession(t, actor, requirement));
  return lockInBlock(t, actor, lock, sessionId, side, block);
}

/** Lock a signed quote for an open session of the actor's (one pay-out unless `uses` says otherwise). */
export async function lockQuoteFor(
  t: CheckTools,
  actor: GateActor,
  lock: LockSignedQuote,
  sessionId: string,
  side: 'on_ramp' | 'off_ramp',
  uses: QuoteUses = {},
): Promise<LockedQuote> {
  return lockInBlock(t, actor, lock, sessionId, side, await actor.client.reserve(chainSteps(t, uses, false)));
}

async function lockInBlock(
  t: CheckTools,
  actor: GateActor,
  lock: LockSignedQuote,
  sessionId: string,
  side: 'on_ramp' | 'off_ramp',
  block: Reservation,
): Promise<LockedQuote> {
  const q = await block.within(() => lock({ sessionId, side }, actor));
  chains.set(q.id, block);
  const lockSentAt = q.exchange.startedAt;
  const lockedAt = q.exchange.startedAt + q.exchange.durationMs;
  t.expect.that(
    typeof q.fiatPayOrReceive === 'string' && /^\d+(\.\d+)?$/.test(q.fiatPayOrReceive),
    'the locked quote carries fiat_pay_or_receive as a decimal string',
    {
      requirement: 'GATE-QUOTE-LOCK',
      actual: q.fiatPayOrReceive,
      exchange: q.exchange,
    },
  );
  return { sessionId, quoteId: q.id, fiat: q.fiatPayOrReceive!, lockedAt, lockSentAt, shown: shownTerms(q.exchange.json), lock: q.exchange, owner: actor };
}

/** POST /rails/pay_outs, never retried; inside the block of the quote it redeems (`quoteId`, by default the body's quote_id). */
export function payOut(
  actor: GateActor,
  body: Record<string, unknown>,
  idempotencyKey: string | boolean = true,
  quoteId: unknown = body.quote_id,
): Promise<Exchange> {
  return inChain(quoteId, () => actor.client.post('/rails/pay_outs', body, { idempotencyKey, retry: false }));
}

/** POST /rails/pay_ins (its body is the profile's: not shown) redeeming `quoteId`, inside the quote's block. */
export function payIn(actor: GateActor, quoteId: string, body: Record<string, unknown>, idempotencyKey: string | true): Promise<Exchange> {
  return inChain(quoteId, () => actor.client.post('/rails/pay_ins', body, { idempotencyKey, retry: false }));
}

/** GET /quotes/{id}, inside the quote's block. */
export function readQuote(actor: GateActor, quoteId: string): Promise<Exchange> {
  return inChain(quoteId, () => actor.client.get(`/quotes/${encodeURIComponent(quoteId)}`));
}

/**
 * A redemption refused with 409 after the quote's declared lifetime could have run out (counted from the lock's
 * send, the earliest the quote was made) may be the expiry. The block grant keeps a chain well inside any lifetime
 * a sandbox declares; this is the guard when it did not — and a profile declaring a lifetime shorter than its
 * chains cannot turn a wrong 409 into "cannot judge": the quote is inspected (GET /quotes/{id} never redeems it).
 * Where it shows itself neither consumed nor expired (the two states the spec names for a quote that cannot be
 * redeemed), the 409 is wrong and the rule fails; where it shows one of them, or no state, the check ends unverified.
 */
async function expiredOnTheWay(t: CheckTools, ex: Exchange, q: LockedQuote, requirement: RequirementId): Promise<void> {
  const lifetimeS = t.profile.timing.signedQuoteLifetimeSeconds;
  if (ex.status !== 409 || lifetimeS === undefined) return;
  const elapsedMs = ex.startedAt + ex.durationMs - q.lockSentAt;
  if (elapsedMs < lifetimeS * 1000) return;
  const late = `the redemption came ${(elapsedMs / 1000).toFixed(1)} s after the lock, past the quote's declared ${lifetimeS} s lifetime (timing.signedQuoteLifetimeSeconds)`;
  const seen = q.owner ? await readQuote(q.owner, q.quoteId) : undefined;
  const body = (seen?.json && typeof seen.json === 'object' ? seen.json : {}) as Record<string, unknown>;
  const state = [body.state, body.status].find((v): v is string => typeof v === 'string');
  if (seen && seen.status >= 200 && seen.status < 300 && state !== undefined && state !== 'consumed' && state !== 'expired')
    t.expect.that(false, `${late}, yet the quote reads ${state}, neither consumed nor expired: the 409 refused a redeemable quote`, {
      requirement,
      expected: 'a redemption of a quote that is neither consumed nor expired',
      actual: `409, and GET /quotes/${q.quoteId} shows ${JSON.stringify(state)}`,
      exchange: ex,
    });
  t.unverified(`${late}: its 409 may be the expiry${state ? ` (the quote reads ${state})` : ' (the quote shows no state)'}`);
}

/** A successful pay-out: 201 with a rail_pay_out whose amount is the quote's fiat_pay_or_receive (currency and method: conformance/gate/rails.ts). */
export async function expectPaidOut(t: CheckTools, ex: Exchange, q: LockedQuote, requirement: RequirementId) {
  await expiredOnTheWay(t, ex, q, requirement);
  t.expect.status(ex, 201, requirement);
  const p = t.expect.schema(ex, RailPayOut, requirement);
  t.expect.equal([p.gate_session_id, p.quote_id], [q.sessionId, q.quoteId], 'the pay-out names the session and quote redeemed', { requirement, exchange: ex });
  // Equal as decimals: each answer writes its money string its own way ("101.5" is "101.50"; the precision is not fixed).
  t.expect.that(decEq(p.amount, q.fiat), "amount equals the quote's fiat_pay_or_receive", {
    requirement: 'GATE-RAIL-PAYOUT-AMOUNT-FROM-QUOTE',
    expected: q.fiat,
    actual: p.amount,
    exchange: ex,
  });
  return p;
}

/** The currency and method a quote response shows, where it shows them (the signed quote's fields are not shown). */
export function shownTerms(json: unknown): { currency?: string; method?: string } {
  const body = (json && typeof json === 'object' ? json : {}) as { currency?: unknown; method?: unknown };
  return {
    ...(typeof body.currency === 'string' ? { currency: body.currency } : {}),
    ...(typeof body.method === 'string' ? { method: body.method } : {}),
  };
}

/**
 * The quote redeemed: any 2xx. Used where the point is that an earlier step left
 * the quote redeemable; the exact 201 and the amount are the pay-out check's.
 */
export async function expectRedeemed(t: CheckTools, ex: Exchange, q: LockedQuote, requirement: RequirementId): Promise<void> {
  await expiredOnTheWay(t, ex, q, requirement);
  t.expect.that(ex.status >= 200 && ex.status < 300, 'the untouched quote still pays out', { requirement, expected: '2xx', actual: ex.status, exchange: ex });
}

/**
 * The profile's quote-lock request (gate.triggers.createSignedQuote) sent as
 * `actor`, whatever it answers: for checks that expect the lock refused.
 */
export async function lockRequest(t: CheckTools, actor: GateActor, vars: { sessionId: string; side: 'on_ramp' | 'off_ramp' }): Promise<Exchange> {
  const tpl = t.profile.gate.triggers.createSignedQuote;
  if (!tpl) return t.skip('gate.triggers.createSignedQuote is missing (declare need gateSignedQuote)');
  return (await sendWith(actor.client, tpl, { ...vars, partner: actor.partner.name })).exchange;
}

/**
 * "Rail responses carry a `provider` field" (its type is not shown: present is the rule) — a pay-out's and a pay-in's.
 * The sentence stands in the Rails section's pay-out rules; a signed quote's fields are not shown (observeQuoteProvider).
 */
export function expectProvider(t: CheckTools, ex: Exchange, what: string): void {
  const json = ex.json;
  t.expect.that(!!json && typeof json === 'object' && 'provider' in json, `${what} carries provider`, {
    requirement: 'GATE-RAIL-PROVIDER-FIELD',
    actual: json && typeof json === 'object' ? Object.keys(json).sort() : json,
    exchange: ex,
  });
}

/**
 * Whether a signed quote carries provider: observed, never judged. "Request and response of POST /quotes and GET
 * /quotes/{id}: not shown", and the provider rule stands in the pay-out rules: a quote without it is a documented reading.
 */
export function observeQuoteProvider(t: CheckTools, ex: Exchange, what: string): void {
  const json = ex.json;
  const present = !!json && typeof json === 'object' && 'provider' in json;
  t.observe('gate-signed-quote-provider', { what, provider: present ? 'present' : 'absent' }, "the signed quote's fields are not shown");
}
