// Rails for checks of every area: a session to lock a signed quote on, the
// quote itself (through the profile's createSignedQuote trigger: POST /quotes
// is not shown), and pay-outs redeeming it.
import type { Exchange } from '../../src/client/types.js';
import type { GateActor } from '../../src/needs/define.js';
import type { LockSignedQuote } from '../../src/needs/gate/signedQuote.js';
import type { CheckTools, RequirementId } from '../../src/runner/check.js';
import { RailPayOut } from '../../src/model/schemas/gate/rails.js';
import { sendWith } from '../../src/needs/support/triggers.js';
import { expect2xx } from '../expect.js';
import { sessionBody } from './sessions.js';

/** Open a session with the profile's creation defaults (success status not shown: any 2xx). */
export async function openSession(t: CheckTools, actor: GateActor, requirement: RequirementId): Promise<string> {
  const ex = await actor.client.post('/gate_sessions', sessionBody(t), { idempotencyKey: true });
  expect2xx(t, ex, requirement);
  const id = (ex.json as { id?: unknown } | undefined)?.id;
  t.expect.that(typeof id === 'string' && id.length > 0, 'the created session has an id', { requirement, exchange: ex });
  return id;
}

export interface LockedQuote {
  sessionId: string;
  quoteId: string;
  /** The quote's fiat_pay_or_receive (decimal string). */
  fiat: string;
  /** Client clock when the quote was locked (declared lifetimes count from here). */
  lockedAt: number;
  /** The quote's currency and method, where the lock response shows them (its fields are not shown beyond fiat_pay_or_receive). */
  shown: { currency?: string; method?: string };
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
): Promise<LockedQuote> {
  return lockQuoteFor(t, actor, lock, await openSession(t, actor, requirement), side);
}

/** Lock a signed quote for an open session of the actor's. */
export async function lockQuoteFor(
  t: CheckTools,
  actor: GateActor,
  lock: LockSignedQuote,
  sessionId: string,
  side: 'on_ramp' | 'off_ramp',
): Promise<LockedQuote> {
  const lockedAt = Date.now();
  const q = await lock({ sessionId, side }, actor);
  t.expect.that(
    typeof q.fiatPayOrReceive === 'string' && /^\d+(\.\d+)?$/.test(q.fiatPayOrReceive),
    'the locked quote carries fiat_pay_or_receive as a decimal string',
    {
      requirement: 'GATE-QUOTE-LOCK',
      actual: q.fiatPayOrReceive,
      exchange: q.exchange,
    },
  );
  return { sessionId, quoteId: q.id, fiat: q.fiatPayOrReceive!, lockedAt, shown: shownTerms(q.exchange.json) };
}

export function payOut(actor: GateActor, body: Record<string, unknown>, idempotencyKey: string | boolean = true): Promise<Exchange> {
  return actor.client.post('/rails/pay_outs', body, { idempotencyKey, retry: false });
}

/** A successful pay-out: 201 with a rail_pay_out whose amount is the quote's fiat_pay_or_receive (currency and method: conformance/gate/rails.ts). */
export function expectPaidOut(t: CheckTools, ex: Exchange, q: LockedQuote, requirement: RequirementId) {
  t.expect.status(ex, 201, requirement);
  const p = t.expect.schema(ex, RailPayOut, requirement);
  t.expect.equal([p.gate_session_id, p.quote_id], [q.sessionId, q.quoteId], 'the pay-out names the session and quote redeemed', { requirement, exchange: ex });
  t.expect.equal(p.amount, q.fiat, "amount equals the quote's fiat_pay_or_receive", { requirement: 'GATE-RAIL-PAYOUT-AMOUNT-FROM-QUOTE', exchange: ex });
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
export function expectRedeemed(t: CheckTools, ex: Exchange, requirement: RequirementId): void {
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
