// Gate "Endpoints > Rails": pay-outs redeem a locked signed quote; money,
// method and identity never come from the body. Signed quotes are locked
// through the profile's createSignedQuote trigger (POST /quotes body not shown).
import { randomUUID } from 'node:crypto';
import type { Exchange } from '../../src/client/types.js';
import { defineSuite, type CheckContext, type GateActor } from '../../src/runner/check.js';
import { fillDeep } from '../../src/runner/triggers.js';
import { GATE_LIMITS } from '../../src/model/limits.js';
import { RailPayOut } from '../../src/model/schemas/gate/rails.js';

const { gateSessionIdMax, quoteIdMax, referenceMax } = GATE_LIMITS.payOut;
const MAX_OTHER_LEASES = 6;

/** Open a session with the profile's creation defaults (success status not shown: any 2xx). */
export async function openSession(ctx: CheckContext, actor: GateActor, requirement: string): Promise<string> {
  const ex = await actor.client.post('/gate_sessions', { ...(ctx.profile.gate.sessionDefaults ?? {}) }, { idempotencyKey: true });
  ctx.expect.status(ex, [200, 201], requirement);
  const id = (ex.json as { id?: unknown } | undefined)?.id;
  ctx.expect.that(typeof id === 'string' && id.length > 0, 'the created session has an id', { requirement, exchange: ex });
  return id;
}

export interface LockedQuote {
  sessionId: string;
  quoteId: string;
  /** The quote's fiat_pay_or_receive (decimal string). */
  fiat: string;
}

/**
 * Lock a signed quote for a new session. Pay-outs pay the customer, so they
 * redeem an off_ramp (sell) quote; pay-ins redeem an on_ramp one.
 */
export async function lockQuote(ctx: CheckContext, actor: GateActor, side: 'on_ramp' | 'off_ramp', requirement: string): Promise<LockedQuote> {
  const sessionId = await openSession(ctx, actor, requirement);
  const { values, exchange } = await ctx.trigger('gate', 'createSignedQuote', { sessionId, side }, actor);
  const quoteId = values.id;
  const fiat = values.fiat_pay_or_receive;
  ctx.expect.that(typeof quoteId === 'string' && quoteId.length > 0, 'the locked quote has an id', { requirement: 'GATE-QUOTE-LOCK', exchange });
  ctx.expect.that(typeof fiat === 'string' && /^\d+(\.\d+)?$/.test(fiat), 'the locked quote carries fiat_pay_or_receive as a decimal string', {
    requirement: 'GATE-QUOTE-LOCK',
    actual: fiat,
    exchange,
  });
  return { sessionId, quoteId, fiat };
}

export function payOut(actor: GateActor, body: Record<string, unknown>, idempotencyKey: string | boolean = true): Promise<Exchange> {
  return actor.client.post('/rails/pay_outs', body, { idempotencyKey, retry: false });
}

/** A successful pay-out: 201 with a rail_pay_out whose amount is the quote's fiat_pay_or_receive. */
export async function expectPaidOut(ctx: CheckContext, ex: Exchange, q: LockedQuote, requirement: string) {
  ctx.expect.status(ex, 201, requirement);
  const p = ctx.expect.schema(ex, RailPayOut, requirement);
  ctx.expect.equal([p.gate_session_id, p.quote_id], [q.sessionId, q.quoteId], 'the pay-out names the session and quote redeemed', { requirement, exchange: ex });
  ctx.expect.equal(p.amount, q.fiat, "amount equals the quote's fiat_pay_or_receive", { requirement: 'GATE-RAIL-PAYOUT-AMOUNT-FROM-QUOTE', exchange: ex });
  return p;
}

/**
 * The quote redeemed: any 2xx. Used where the point is that an earlier step left
 * the quote redeemable; the exact 201 and the amount are the pay-out check's.
 */
export function expectRedeemed(ctx: CheckContext, ex: Exchange, requirement: string): void {
  ctx.expect.that(ex.status >= 200 && ex.status < 300, 'the untouched quote still pays out', { requirement, expected: '2xx', actual: ex.status, exchange: ex });
}

/** Every body must be refused with 400 invalid_request; then the untouched quote still pays out. */
async function refusedThenPaid(ctx: CheckContext, requirement: string, bodies: (q: LockedQuote) => Record<string, unknown>[], headerless = false) {
  const actor = ctx.gate.rails();
  const q = await lockQuote(ctx, actor, 'off_ramp', requirement);
  for (const body of bodies(q)) {
    const ex = await payOut(actor, body, headerless ? false : true);
    ctx.expect.error(ex, 400, 'invalid_request', { requirement });
  }
  // The refusals were about the body alone: the same quote still redeems.
  expectRedeemed(ctx, await payOut(actor, { gate_session_id: q.sessionId, quote_id: q.quoteId }), requirement);
}

const MONEY_FIELDS: Record<string, unknown> = {
  amount: '1.00',
  currency: 'EUR',
  method: 'sepa',
  fee: '0.10',
  fiat_amount: '1.00',
  payment_method: 'sepa',
  payout_method: 'sepa',
};

const IDENTITY_FIELDS: Record<string, unknown> = {
  iban: 'DE89370400440532013000',
  bic: 'COBADEFFXXX',
  account_number: '0532013000',
  routing_number: '110000000',
  name: 'Ada Lovelace',
  first_name: 'Ada',
  last_name: 'Lovelace',
  email: 'ada@example.test',
  phone: '+4915112345678',
  address: '1 Analytical Row, London',
  wallet_address: '0x52908400098527886E0F7030069857D2E4169EE7',
};

export default defineSuite({
  service: 'gate',
  section: 'Endpoints > Rails',
  checks: [
    {
      name: 'pay-out: 201 rail_pay_out with the quote amount, 128-char reference, replay, read, then the consumed quote gives 409',
      requirements: [
        'GATE-QUOTE-LOCK',
        'GATE-RAIL-PAYOUT-201',
        'GATE-RAIL-PAYOUT-AMOUNT-FROM-QUOTE',
        'GATE-RAIL-PROVIDER-FIELD',
        'GATE-RAIL-PAYOUT-REFERENCE-MAX',
        'GATE-RAIL-PAYOUT-IDEMPOTENT-REPLAY',
        'GATE-RAIL-PAYOUT-READ',
        'GATE-QUOTE-CONSUMED-409',
      ],
      needs: ['gate.rails'],
      async run(ctx: CheckContext) {
        const actor = ctx.gate.rails();
        const q = await lockQuote(ctx, actor, 'off_ramp', 'GATE-RAIL-PAYOUT-201');
        const reference = `rampart-${randomUUID()}-`.padEnd(referenceMax, 'r');
        const body = { gate_session_id: q.sessionId, quote_id: q.quoteId, reference, metadata: { rampart: 'conformance' } };
        const key = randomUUID();
        const first = await payOut(actor, body, key);
        const p = await expectPaidOut(ctx, first, q, 'GATE-RAIL-PAYOUT-201');
        ctx.expect.equal(p.reference, reference, `a ${referenceMax}-char reference is accepted and returned`, { requirement: 'GATE-RAIL-PAYOUT-REFERENCE-MAX', exchange: first });
        ctx.observe('gate-pay-out-initial-status', p.status);
        ctx.expect.that('provider' in (first.json as object), 'the rail response carries provider', { requirement: 'GATE-RAIL-PROVIDER-FIELD', exchange: first });

        const R = 'GATE-RAIL-PAYOUT-IDEMPOTENT-REPLAY';
        const replay = await payOut(actor, body, key);
        ctx.expect.status(replay, first.status, R);
        const again = ctx.expect.schema(replay, RailPayOut, R);
        ctx.expect.equal([again.id, again.amount], [p.id, p.amount], 'the same key and body return the original pay-out', { requirement: R, exchange: replay });

        const G = 'GATE-RAIL-PAYOUT-READ';
        const read = ctx.expect.status(await actor.client.get(`/rails/pay_outs/${encodeURIComponent(p.id)}`), 200, G);
        const stored = ctx.expect.schema(read, RailPayOut, G);
        ctx.expect.equal([stored.id, stored.amount, stored.quote_id], [p.id, p.amount, p.quote_id], 'GET /rails/pay_outs/{id} answers the pay-out', { requirement: G, exchange: read });

        const second = await payOut(actor, { gate_session_id: q.sessionId, quote_id: q.quoteId });
        ctx.expect.error(second, 409, 'conflict', { requirement: 'GATE-QUOTE-CONSUMED-409' });
      },
    },
    {
      name: "another partner's pay-out reads as 404",
      requirements: ['GATE-RAIL-PAYOUT-FOREIGN-404'],
      needs: ['gate.rails', 'gate.secondPartner'],
      async run(ctx: CheckContext) {
        const R = 'GATE-RAIL-PAYOUT-FOREIGN-404';
        const actor = ctx.gate.rails();
        const q = await lockQuote(ctx, actor, 'off_ramp', R);
        const made = await payOut(actor, { gate_session_id: q.sessionId, quote_id: q.quoteId });
        expectRedeemed(ctx, made, R);
        const p = ctx.expect.schema(made, RailPayOut, R);
        // A rail-entitled other tenant, so rail access (403) cannot be the reason. Bounded: at most
        // MAX_OTHER_LEASES leases, enough to pass the few partners a profile declares without rails.
        let other = ctx.gate.other();
        for (let i = 1; i < MAX_OTHER_LEASES && other.partner.rails !== true; i++) {
          try {
            other = ctx.gate.other();
          } catch {
            break; // no further tenant to lease: keep the one we have
          }
        }
        const ex = await other.client.get(`/rails/pay_outs/${encodeURIComponent(p.id)}`);
        if (other.partner.rails !== true && ex.status === 403) {
          ctx.expect.error(ex, 403, 'forbidden', { requirement: R });
          ctx.observe('gate-foreign-pay-out-without-rails', 403, 'the other tenant lacks rails: rail access is refused before tenancy');
          return;
        }
        ctx.expect.error(ex, 404, 'not_found', { requirement: R });
      },
    },
    {
      name: 'pay-out without an Idempotency-Key gives 400',
      requirements: ['GATE-RAIL-PAYOUT-IDEMPOTENCY-REQUIRED'],
      needs: ['gate.rails'],
      async run(ctx: CheckContext) {
        await refusedThenPaid(ctx, 'GATE-RAIL-PAYOUT-IDEMPOTENCY-REQUIRED', (q) => [{ gate_session_id: q.sessionId, quote_id: q.quoteId }], true);
      },
    },
    {
      name: 'pay-out without gate_session_id or quote_id gives 400',
      requirements: ['GATE-RAIL-PAYOUT-REQUIRED-400'],
      needs: ['gate.rails'],
      async run(ctx: CheckContext) {
        await refusedThenPaid(ctx, 'GATE-RAIL-PAYOUT-REQUIRED-400', (q) => [{ quote_id: q.quoteId }, { gate_session_id: q.sessionId }]);
      },
    },
    {
      name: 'pay-out with a 65-char gate_session_id or quote_id gives 400',
      requirements: ['GATE-RAIL-PAYOUT-ID-MAX'],
      needs: ['gate.rails'],
      async run(ctx: CheckContext) {
        const R = 'GATE-RAIL-PAYOUT-ID-MAX';
        const actor = ctx.gate.rails();
        const q = await lockQuote(ctx, actor, 'off_ramp', R);
        const pad = (id: string, n: number) => id.padEnd(n, 'x');
        // 64 chars is within the limit; such an id names nothing, so what follows is not shown: observed.
        const at64 = await payOut(actor, { gate_session_id: q.sessionId, quote_id: pad(q.quoteId, quoteIdMax) });
        ctx.observe('gate-pay-out-64-char-unknown-quote-id', at64.status);
        for (const body of [
          { gate_session_id: pad(q.sessionId, gateSessionIdMax + 1), quote_id: q.quoteId },
          { gate_session_id: q.sessionId, quote_id: pad(q.quoteId, quoteIdMax + 1) },
        ]) {
          ctx.expect.error(await payOut(actor, body), 400, 'invalid_request', { requirement: R });
        }
        expectRedeemed(ctx, await payOut(actor, { gate_session_id: q.sessionId, quote_id: q.quoteId }), R);
      },
    },
    {
      name: 'pay-out with a 129-char reference gives 400',
      requirements: ['GATE-RAIL-PAYOUT-REFERENCE-MAX'],
      needs: ['gate.rails'],
      async run(ctx: CheckContext) {
        await refusedThenPaid(ctx, 'GATE-RAIL-PAYOUT-REFERENCE-MAX', (q) => [
          { gate_session_id: q.sessionId, quote_id: q.quoteId, reference: 'r'.repeat(referenceMax + 1) },
        ]);
      },
    },
    {
      name: 'every money field in a pay-out body gives 400',
      requirements: ['GATE-RAIL-PAYOUT-MONEY-FIELD-400'],
      needs: ['gate.rails'],
      async run(ctx: CheckContext) {
        await refusedThenPaid(ctx, 'GATE-RAIL-PAYOUT-MONEY-FIELD-400', (q) =>
          Object.entries(MONEY_FIELDS).map(([k, v]) => ({ gate_session_id: q.sessionId, quote_id: q.quoteId, [k]: v })),
        );
      },
    },
    {
      name: 'every identity or payout-instruction field in a pay-out body gives 400',
      requirements: ['GATE-RAIL-PAYOUT-IDENTITY-FIELD-400'],
      needs: ['gate.rails'],
      timeoutMs: 90_000,
      async run(ctx: CheckContext) {
        await refusedThenPaid(ctx, 'GATE-RAIL-PAYOUT-IDENTITY-FIELD-400', (q) =>
          Object.entries(IDENTITY_FIELDS).map(([k, v]) => ({ gate_session_id: q.sessionId, quote_id: q.quoteId, [k]: v })),
        );
      },
    },
    {
      name: 'a pay-in redeems the quote: a second redemption gives 409',
      requirements: ['GATE-RAIL-PAYIN-REDEEMS'],
      needs: ['gate.rails', 'gate.payIn'],
      async run(ctx: CheckContext) {
        const R = 'GATE-RAIL-PAYIN-REDEEMS';
        const actor = ctx.gate.rails();
        const q = await lockQuote(ctx, actor, 'on_ramp', R);
        const body = fillDeep(ctx.profile.gate.triggers.payInBody, { sessionId: q.sessionId, quoteId: q.quoteId });
        const payIn = await actor.client.post('/rails/pay_ins', body, { idempotencyKey: true, retry: false });
        ctx.expect.that(payIn.status >= 200 && payIn.status < 300, 'the pay-in redeeming the quote succeeds', { requirement: R, actual: payIn.status, exchange: payIn });
        ctx.observe('gate-pay-in-status', payIn.status, 'pay-in response is not shown');
        const again = await actor.client.post('/rails/pay_ins', body, { idempotencyKey: true, retry: false });
        ctx.expect.error(again, 409, 'conflict', { requirement: R });
        // A pay-out on a pay-in's quote: consumed (409), or refused for the quote's side (not shown).
        const out = await payOut(actor, { gate_session_id: q.sessionId, quote_id: q.quoteId });
        ctx.expect.that(out.status === 409 || out.status === 400, 'a pay-out on the redeemed quote is refused', { requirement: R, actual: out.status, exchange: out });
        ctx.observe('gate-pay-out-on-pay-in-quote', out.status);
      },
    },
    {
      name: 'a pay-out without rail entitlement gives 403',
      requirements: ['GATE-RAIL-ENTITLEMENT-403'],
      needs: ['gate.noRails'],
      async run(ctx: CheckContext) {
        const R = 'GATE-RAIL-ENTITLEMENT-403';
        const actor = ctx.gate.noRails();
        const sessionId = await openSession(ctx, actor, R);
        const ex = await payOut(actor, { gate_session_id: sessionId, quote_id: `q_rampart_${randomUUID().slice(0, 8)}` });
        ctx.expect.error(ex, 403, 'forbidden', { requirement: R });
        ctx.observe('gate-rail-not-enabled-code', (ex.json as { code?: unknown }).code, 'the spec says the service may return feature_not_available');
      },
    },
  ],
});
