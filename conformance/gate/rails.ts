// Gate "Endpoints > Rails": pay-outs redeem a locked signed quote; money,
// method and identity never come from the body; another tenant can neither
// read a pay-out nor redeem the quote. Signed quotes are locked through the
// profile's createSignedQuote trigger (POST /quotes body not shown).
import { randomUUID } from 'node:crypto';
import type { Exchange } from '../../src/client/types.js';
import type { GateActor } from '../../src/needs/define.js';
import type { LockSignedQuote } from '../../src/needs/gate/signedQuote.js';
import { check, defineSuite, type CheckTools, type RequirementId } from '../../src/runner/check.js';
import { GATE_LIMITS } from '../../src/model/limits.js';
import { RailPayOut } from '../../src/model/schemas/gate/rails.js';
import { GateSession } from '../../src/model/schemas/gate/sessions.js';
import { expect2xx } from '../../support/expect.js';
import { expectAccountBlocked } from '../../support/gate/accountBlocked.js';
import { expectGateError } from '../../support/gate/errors.js';
import { expectObjectDiscriminator } from '../../support/gate/objects.js';
import {
  expectPaidOut,
  expectProvider,
  expectRedeemed,
  inspectedPayOutLeft,
  lockQuote,
  openSession,
  payIn,
  payOut,
  readQuote,
  releaseChain,
  shownTerms,
  type InspectedPayOut,
  type LockedQuote,
} from '../../support/gate/rails.js';
import { refusedTogether } from '../../support/gate/validation.js';
import { fillDeep } from '../../src/needs/support/triggers.js';
import { sessionPath, stringsIn } from '../../support/gate/sessions.js';
import { decEq } from '../../support/pools/pools.js';

const { gateSessionIdMax, quoteIdMax, referenceMax } = GATE_LIMITS.payOut;

const payOutPath = (id: string) => `/rails/pay_outs/${encodeURIComponent(id)}`;

/**
 * Each extra field on an otherwise valid body must be refused with 400 invalid_request (all of them in one body
 * first: support/gate/validation.ts); then the untouched quote still pays out.
 */
async function refusedThenPaid(t: CheckTools, actor: GateActor, lock: LockSignedQuote, cases: (readonly [RequirementId, string, unknown])[]) {
  // Every refused body and the final redemption go inside the quote's lifetime: one block with the lock, sized for
  // every field sent alone; the slots a joined answer spares are given back.
  const q = await lockQuote(t, actor, lock, 'off_ramp', cases[0]![0], { payOuts: cases.length + 2 });
  const body = { gate_session_id: q.sessionId, quote_id: q.quoteId };
  await refusedTogether(
    t,
    (b) => payOut(actor, b, true, q.quoteId),
    body,
    cases.map(([requirement, field, value]) => ({ field, body: { [field]: value }, requirement })),
  );
  // The refusals were about the body alone: the same quote still redeems.
  const paid = await payOut(actor, body);
  releaseChain(q.quoteId);
  for (const requirement of new Set(cases.map(([r]) => r))) await expectRedeemed(t, paid, q, requirement);
}

/**
 * "max 64" has two sides: 65 chars are refused (the refusals below), 64 are not refused for their length. A 64-char
 * id made by padding a real one names nothing, so the answer to it is a refusal anyway (404 for a missing resource,
 * or 400 where a target reads the padded id as malformed: its id format is not shown). So the same padding one
 * character long is the control: ids of the same shape, only shorter. A 400 for the 64-char ids where the control
 * was refused otherwise (403, 404, 409) can only be about their length, and fails the rule; a 400 for both says the
 * shape is refused whatever the length, and the 64 side cannot be told from it (observed).
 */
async function expectIdsAt64Accepted(
  t: CheckTools,
  send: (b: Record<string, unknown>) => Promise<Exchange>,
  q: LockedQuote,
  requirement: RequirementId,
): Promise<void> {
  const padded = (n: (id: string) => number) => ({
    gate_session_id: q.sessionId.padEnd(n(q.sessionId), 'x'),
    quote_id: q.quoteId.padEnd(n(q.quoteId), 'x'),
  });
  // Ids of 64 chars already: the redemption that ends the check sends them as they are, and judges this side.
  if (q.sessionId.length >= gateSessionIdMax || q.quoteId.length >= quoteIdMax) return;
  const control = await send(padded((id) => id.length + 1));
  const at64 = await send(padded((id) => (id === q.sessionId ? gateSessionIdMax : quoteIdMax)));
  const judged = [403, 404, 409].includes(control.status);
  t.observe(
    'gate-pay-out-64-char-ids',
    { control: control.status, at64: at64.status },
    judged
      ? 'ids naming nothing: the control (one char padded) and the 64-char ids'
      : 'the control was not refused as naming nothing, so the 64-char answer cannot be told apart from it',
  );
  if (!judged) return;
  t.expect.that(
    at64.status !== 400,
    `gate_session_id and quote_id of ${gateSessionIdMax} chars are within the limit: not refused with 400 where ids of the same shape one char long answered ${control.status}`,
    {
      requirement,
      expected: `not 400 (as the control: ${control.status})`,
      actual: at64.status,
      exchange: at64,
    },
  );
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
    check({
      name: "pay-out: 201 rail_pay_out with the quote's amount, 128-char reference, replay, read, then the consumed quote gives 409",
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
      needs: ['gateRails', 'gateSignedQuote'],
      async run({ gateRails: actor, gateSignedQuote: lock }, t: CheckTools) {
        const q = await lockQuote(t, actor, lock, 'off_ramp', 'GATE-RAIL-PAYOUT-201', { payOuts: 3 });
        const reference = `rampart-${randomUUID()}-`.padEnd(referenceMax, 'r');
        const body = { gate_session_id: q.sessionId, quote_id: q.quoteId, reference, metadata: { rampart: 'conformance' } };
        const key = randomUUID();
        const first = await payOut(actor, body, key);
        const p = await expectPaidOut(t, first, q, 'GATE-RAIL-PAYOUT-201');
        t.expect.equal(p.reference, reference, `a ${referenceMax}-char reference is accepted and returned`, {
          requirement: 'GATE-RAIL-PAYOUT-REFERENCE-MAX',
          exchange: first,
        });
        t.observe('gate-pay-out-initial-status', p.status, 'transitions between pay-out states are not shown');
        expectProvider(t, first, 'the pay-out creation');

        const R = 'GATE-RAIL-PAYOUT-IDEMPOTENT-REPLAY';
        const replay = await payOut(actor, body, key);
        t.expect.status(replay, first.status, R);
        const again = t.expect.schema(replay, RailPayOut, R);
        t.expect.equal([again.id, again.amount], [p.id, p.amount], 'the same key and body return the original pay-out', { requirement: R, exchange: replay });

        const G = 'GATE-RAIL-PAYOUT-READ';
        const read = expect2xx(t, await actor.client.get(payOutPath(p.id)), G);
        const stored = t.expect.schema(read, RailPayOut, G);
        // The amount as a decimal: a read may write the money string otherwise than the creation did (its precision is not fixed).
        t.expect.equal([stored.id, stored.quote_id, decEq(stored.amount, p.amount)], [p.id, p.quote_id, true], 'GET /rails/pay_outs/{id} answers the pay-out', {
          requirement: G,
          exchange: read,
        });
        expectProvider(t, read, 'the pay-out read');

        const second = await payOut(actor, { gate_session_id: q.sessionId, quote_id: q.quoteId });
        t.expect.error(second, 409, 'conflict', { requirement: 'GATE-QUOTE-CONSUMED-409' });
      },
    }),
    check({
      name: "pay-out currency and method are the locked quote's, as the lock or GET /quotes/{id} shows them (else: the currency the session's, the method one the sell side offers in it)",
      requirements: ['GATE-RAIL-PAYOUT-CURRENCY-METHOD-FROM-QUOTE'],
      needs: ['gateRails', 'gateSignedQuote'],
      // Runs late: the quote the GET-never-redeems check inspected and then paid out is judged here as it is.
      late: true,
      async run({ gateRails: actor, gateSignedQuote: lock }, t: CheckTools) {
        const M = 'GATE-RAIL-PAYOUT-CURRENCY-METHOD-FROM-QUOTE';
        await t.earlierChecksDone();
        const left = t.take<InspectedPayOut>(inspectedPayOutLeft(actor));
        // The inspection and the pay-out join the quote's block: both inside its lifetime (not shown; a sandbox may declare a short one).
        const q = left?.q ?? (await lockQuote(t, actor, lock, 'off_ramp', M, { reads: 1 }));
        // The signed quote's fields are not shown: what the lock shows, else what its inspection (no redemption, before the pay-out) shows.
        const inspected = left?.inspected ?? (await readQuote(actor, q.quoteId));
        const quote = { ...(inspected.status >= 200 && inspected.status < 300 ? shownTerms(inspected.json) : {}), ...q.shown };
        t.observe('gate-quote-terms-shown', {
          lock: Object.keys(q.shown),
          inspection: inspected.status < 300 ? Object.keys(shownTerms(inspected.json)) : inspected.status,
        });
        const ex = left?.paid ?? (await payOut(actor, { gate_session_id: q.sessionId, quote_id: q.quoteId }));
        const p = await expectPaidOut(t, ex, q, M);
        if (quote.currency !== undefined) {
          t.expect.equal(p.currency, quote.currency.toUpperCase(), "currency is the locked quote's", { requirement: M, exchange: ex });
        } else {
          // "The session fixes amount, currency and flow constraints": a quote locked for the session is in its currency.
          const read = expect2xx(t, await actor.client.get(sessionPath(q.sessionId)), M, 'GET /gate_sessions/{id} (the currency the session fixes)');
          const session = t.expect.schema(read, GateSession, M);
          t.expect.equal(p.currency, session.currency, "currency is the quote's: the one its session fixes (the quote shows none)", {
            requirement: M,
            exchange: ex,
          });
        }
        if (quote.method !== undefined) {
          t.expect.equal(p.method, quote.method, "method is the locked quote's", { requirement: M, exchange: ex });
          return;
        }
        // The quote shows no method (its fields are not shown): a method derived from an off_ramp quote in this currency is a
        // sell-side method of the currency, which GET /capabilities/payout-methods lists (its shape is not shown: any string of it).
        const methods = await actor.client.get('/capabilities/payout-methods', { currency: p.currency });
        const offered = methods.status >= 200 && methods.status < 300 ? stringsIn(methods.json) : [];
        t.observe('gate-payout-method-offered', { method: p.method, payoutMethods: methods.status, listed: offered.includes(p.method) });
        if (offered.length === 0)
          t.unverified(
            `neither the lock nor GET /quotes/{id} shows the quote's method, and GET /capabilities/payout-methods?currency=${p.currency} answered ${methods.status} with no method to compare with (its shape is not shown): the pay-out's method could not be judged (its currency was)`,
          );
        t.expect.that(
          offered.includes(p.method),
          `method ${p.method} is a sell-side method of ${p.currency} (the quote shows none; payout-methods lists them)`,
          {
            requirement: M,
            expected: 'one of the strings GET /capabilities/payout-methods answers',
            actual: p.method,
            exchange: ex,
          },
        );
      },
    }),
    check({
      name: 'another rail-entitled partner cannot redeem the quote (403 or 404) nor read the pay-out (404)',
      requirements: ['GATE-RAIL-PAYOUT-FOREIGN-QUOTE', 'GATE-RAIL-PAYOUT-FOREIGN-404'],
      // The other tenant is rail-entitled, so rail access (403) cannot be why it is refused.
      needs: ['gateRails', 'gateOtherRails', 'gateSignedQuote'],
      async run({ gateRails: owner, gateOtherRails: stranger, gateSignedQuote: lock }, t: CheckTools) {
        const Q = 'GATE-RAIL-PAYOUT-FOREIGN-QUOTE';
        const q = await lockQuote(t, owner, lock, 'off_ramp', Q);
        const body = { gate_session_id: q.sessionId, quote_id: q.quoteId };
        const foreign = await payOut(stranger, body);
        // "A session of another partner gives 403" (Authentication) and "cross-tenant is 404" (Errors): both readings pass.
        t.expect.status(foreign, [403, 404], Q);
        t.expect.error(foreign, foreign.status, foreign.status === 403 ? 'forbidden' : 'not_found', { requirement: Q });
        t.observe('gate-foreign-quote-redemption-status', foreign.status, 'the spec gives 403 (session of another partner) and 404 (cross-tenant)');
        // Refused about tenancy only: the owner still redeems the quote.
        const made = await payOut(owner, body);
        await expectRedeemed(t, made, q, Q);
        const p = t.expect.schema(made, RailPayOut, Q);

        const R = 'GATE-RAIL-PAYOUT-FOREIGN-404';
        t.expect.error(await stranger.client.get(payOutPath(p.id)), 404, 'not_found', { requirement: R });
        // The owner still reads it, so the 404 was about tenancy and not a wrong id.
        expect2xx(t, await owner.client.get(payOutPath(p.id)), R);
      },
    }),
    check({
      // One quote for every refused body: each refusal is its own request, and the one redemption after them
      // proves for all of them that nothing was redeemed (a quote apiece would cost a session, a lock and a pay-out each).
      name: 'pay-out refusals redeem nothing: no Idempotency-Key, a key that is no UUID, metadata that is no object (a string, an array), a missing or 65-char gate_session_id or quote_id, a 129-char reference each give 400 (64-char ids are not refused for their length); the quote then still pays out',
      requirements: [
        'GATE-RAIL-PAYOUT-IDEMPOTENCY-REQUIRED',
        'GATE-RAIL-PAYOUT-IDEMPOTENCY-KEY-UUID',
        'GATE-RAIL-PAYOUT-METADATA-OBJECT',
        'GATE-RAIL-PAYOUT-REQUIRED-400',
        'GATE-RAIL-PAYOUT-ID-MAX',
        'GATE-RAIL-PAYOUT-REFERENCE-MAX',
      ],
      needs: ['gateRails', 'gateSignedQuote'],
      async run({ gateRails: actor, gateSignedQuote: lock }, t: CheckTools) {
        const K = 'GATE-RAIL-PAYOUT-IDEMPOTENCY-KEY-UUID';
        const M = 'GATE-RAIL-PAYOUT-METADATA-OBJECT';
        const N = 'GATE-RAIL-PAYOUT-REQUIRED-400';
        const I = 'GATE-RAIL-PAYOUT-ID-MAX';
        const H = 'GATE-RAIL-PAYOUT-IDEMPOTENCY-REQUIRED';
        const F = 'GATE-RAIL-PAYOUT-REFERENCE-MAX';
        // At most ten refusals, the 64-char probe and its control, and the redemption, inside the quote's lifetime: one
        // block with the lock (the slots joined answers spare are given back).
        const q = await lockQuote(t, actor, lock, 'off_ramp', K, { payOuts: 13 });
        const body = { gate_session_id: q.sessionId, quote_id: q.quoteId };
        const send = (b: Record<string, unknown>) => payOut(actor, b, true, q.quoteId);
        t.expect.error(await payOut(actor, body, false), 400, 'invalid_request', { requirement: H });
        expectGateError(t, await payOut(actor, body, `rampart-${randomUUID().slice(0, 8)}`), 400, K);
        const pad = (id: string, n: number) => id.padEnd(n, 'x');
        await expectIdsAt64Accepted(t, send, q, I);
        // Fields of different rules in one body: each its own validation error (joined with "; ").
        await refusedTogether(t, send, body, [
          { field: 'gate_session_id', body: { gate_session_id: pad(q.sessionId, gateSessionIdMax + 1) }, requirement: I },
          { field: 'quote_id', body: { quote_id: pad(q.quoteId, quoteIdMax + 1) }, requirement: I },
          { field: 'reference', body: { reference: 'r'.repeat(referenceMax + 1) }, requirement: F },
          { field: 'metadata', body: { metadata: 'rampart' }, requirement: M },
        ]);
        expectGateError(t, await send({ ...body, metadata: ['rampart'] }), 400, M);
        await refusedTogether(t, send, body, [
          { field: 'gate_session_id', body: { gate_session_id: undefined }, requirement: N },
          { field: 'quote_id', body: { quote_id: undefined }, requirement: N },
        ]);
        // The refusals were about the body alone: the same quote still redeems, for every rule above.
        const paid = await payOut(actor, { ...body, metadata: { rampart: 'conformance' } });
        releaseChain(q.quoteId);
        for (const R of [H, K, M, N, I, F] as const) await expectRedeemed(t, paid, q, R);
      },
    }),
    check({
      name: 'every money field and every identity or payout-instruction field in a pay-out body gives 400; the quote then still pays out',
      requirements: ['GATE-RAIL-PAYOUT-MONEY-FIELD-400', 'GATE-RAIL-PAYOUT-IDENTITY-FIELD-400'],
      needs: ['gateRails', 'gateSignedQuote'],
      async run({ gateRails: actor, gateSignedQuote: lock }, t: CheckTools) {
        await refusedThenPaid(t, actor, lock, [
          ...Object.entries(MONEY_FIELDS).map(([k, v]) => ['GATE-RAIL-PAYOUT-MONEY-FIELD-400', k, v] as const),
          ...Object.entries(IDENTITY_FIELDS).map(([k, v]) => ['GATE-RAIL-PAYOUT-IDENTITY-FIELD-400', k, v] as const),
        ]);
      },
    }),
    check({
      name: 'a pay-in redeems the quote (a second redemption gives 409); a replay answers the original; the same key with another body gives 409 and redeems nothing',
      requirements: [
        'GATE-RAIL-PAYIN-REDEEMS',
        'GATE-RAIL-PAYIN-IDEMPOTENT-REPLAY',
        'GATE-RAIL-PAYIN-IDEMPOTENCY-CONFLICT-409',
        'GATE-RAIL-PROVIDER-FIELD',
        'GATE-CONV-OBJECT-DISCRIMINATOR',
      ],
      needs: ['gateRails', 'gateSignedQuote', 'gatePayIn'],
      async run({ gateRails: actor, gateSignedQuote: lock, gatePayIn: payInBody }, t: CheckTools) {
        const R = 'GATE-RAIL-PAYIN-REDEEMS';
        const q = await lockQuote(t, actor, lock, 'on_ramp', R, { payIns: 3, payOuts: 1 });
        const body = payInBody({ quoteId: q.quoteId, sessionId: q.sessionId });
        const key = randomUUID();
        const payInWith = (b: Record<string, unknown>, k: string | true, quoteId = q.quoteId) => payIn(actor, quoteId, b, k);
        // The pay-in response is not shown: any 2xx.
        const first = expect2xx(t, await payInWith(body, key), R, 'the pay-in redeeming the quote');
        t.observe('gate-pay-in-status', first.status, 'pay-in response is not shown');
        // Its fields are not shown, but it is a single-object response of a rail: an object discriminator and provider.
        expectObjectDiscriminator(t, first, 'the pay-in creation');
        expectProvider(t, first, 'the pay-in creation');

        // Processed again, the replay would meet a consumed quote (409): the original answer is the only right one.
        const P = 'GATE-RAIL-PAYIN-IDEMPOTENT-REPLAY';
        const replay = await payInWith(body, key);
        t.expect.status(replay, first.status, P);
        if (first.json?.id !== undefined)
          t.expect.equal(replay.json?.id, first.json.id, 'the replay answers the original pay-in', { requirement: P, exchange: replay });
        else t.expect.equal(replay.json, first.json, 'the replay answers the original response', { requirement: P, exchange: replay });

        t.expect.error(await payInWith(body, true), 409, 'conflict', { requirement: R });
        // A pay-out of the pay-in's quote: the quote is consumed, so 409. Whether a pay-out takes an on_ramp quote at all is
        // not shown: another refusal passes only when a fresh on_ramp quote, never redeemed, is refused the same way.
        const out = await payOut(actor, { gate_session_id: q.sessionId, quote_id: q.quoteId });
        t.observe('gate-pay-out-on-pay-in-quote', out.status);
        // A fresh on_ramp quote a pay-out could not redeem is the second quote the conflict below needs: locked once for both.
        let unredeemed: LockedQuote | undefined;
        if (out.status === 409) t.expect.error(out, 409, 'conflict', { requirement: R });
        else {
          const fresh = await lockQuote(t, actor, lock, 'on_ramp', R, { payOuts: 1, payIns: 2 });
          const side = await payOut(actor, { gate_session_id: fresh.sessionId, quote_id: fresh.quoteId });
          t.observe('gate-pay-out-of-on-ramp-quote', side.status, 'whether a pay-out takes an on_ramp quote is not shown');
          t.expect.that(side.status === out.status && out.status >= 400 && out.status < 500, 'a pay-out of the quote the pay-in consumed gives 409 conflict', {
            requirement: R,
            expected: '409 (or the refusal every on_ramp quote gets)',
            actual: `${out.status}; a fresh on_ramp quote's pay-out: ${side.status}`,
            exchange: out,
          });
          unredeemed = fresh;
        }

        // Another quote's pay-in under the used key: a fingerprint mismatch, refused before anything is redeemed.
        const C = 'GATE-RAIL-PAYIN-IDEMPOTENCY-CONFLICT-409';
        const conflictOn = async (q2: LockedQuote) => {
          const body2 = payInBody({ quoteId: q2.quoteId, sessionId: q2.sessionId });
          t.expect.error(await payInWith(body2, key, q2.quoteId), 409, 'conflict', { requirement: C });
          return { body2, redeemed: await payInWith(body2, true, q2.quoteId) };
        };
        let second = await conflictOn(unredeemed ?? (await lockQuote(t, actor, lock, 'on_ramp', C, { payIns: 2, payOuts: 0 })));
        // Whether a refused pay-out leaves an on_ramp quote redeemable is not shown: when the reused one is spent, a quote of its own.
        if (unredeemed && second.redeemed.status === 409) second = await conflictOn(await lockQuote(t, actor, lock, 'on_ramp', C, { payIns: 2, payOuts: 0 }));
        expect2xx(t, second.redeemed, C, 'the second quote, redeemed with a fresh key (the refused request redeemed nothing)');
      },
    }),
    check({
      name: 'GET /rails/pay_ins/{id} reads the pay-in; another rail-entitled partner gets 404',
      requirements: ['GATE-RAIL-PAYIN-READ', 'GATE-RAIL-PAYIN-FOREIGN-404', 'GATE-RAIL-PROVIDER-FIELD'],
      needs: ['gateRails', 'gateSignedQuote', 'gatePayIn', 'gateOtherRails'],
      async run({ gateRails: actor, gateSignedQuote: lock, gatePayIn: payInBody, gateOtherRails: stranger }, t: CheckTools) {
        const R = 'GATE-RAIL-PAYIN-READ';
        const q = await lockQuote(t, actor, lock, 'on_ramp', R, { payIns: 1, payOuts: 0 });
        const made = expect2xx(t, await payIn(actor, q.quoteId, payInBody({ quoteId: q.quoteId, sessionId: q.sessionId }), true), R, 'the pay-in to read');
        const id: unknown = made.json?.id;
        // Pay-in record fields are not shown: the id is the one a single-object response offers.
        if (typeof id !== 'string' || id.length === 0)
          return t.unverified('the pay-in response offers no id (its fields are not shown): there is no pay-in id to read');
        const path = `/rails/pay_ins/${encodeURIComponent(id)}`;
        const read = expect2xx(t, await actor.client.get(path), R);
        t.expect.that(typeof read.json?.object === 'string', 'the pay-in record carries an object discriminator', { requirement: R, exchange: read });
        t.expect.that(stringsIn(read.json).includes(id), 'the record answered is the pay-in asked for (it carries its id)', { requirement: R, exchange: read });
        expectProvider(t, read, 'the pay-in read');
        t.observe('gate-pay-in-record-keys', Object.keys(read.json ?? {}).sort(), 'pay-in record fields are not shown');

        const F = 'GATE-RAIL-PAYIN-FOREIGN-404';
        t.expect.error(await stranger.client.get(path), 404, 'not_found', { requirement: F });
      },
    }),
    check({
      name: "account_blocked: absent until a rail pushes the user past the volume cap, true on that rail; the user's next rail is refused",
      requirements: ['GATE-RAIL-ACCOUNT-BLOCKED'],
      needs: ['gateSignedQuote'],
      budgetMs: 90_000,
      async run({ gateRailVolumeCap: actor, gateSignedQuote: lock }, t: CheckTools) {
        await expectAccountBlocked(t, actor, lock, 'GATE-RAIL-ACCOUNT-BLOCKED');
      },
    }),
    check({
      name: 'every rail route without rail entitlement gives 403: POST /rails/pay_ins and /rails/pay_outs, and the pay-in and pay-out reads',
      requirements: ['GATE-RAIL-ENTITLEMENT-403'],
      needs: ['gateNoRails'],
      async run({ gateNoRails: actor }, t: CheckTools) {
        const R = 'GATE-RAIL-ENTITLEMENT-403';
        const sessionId = await openSession(t, actor, R);
        // The credential (SK plus rail entitlement) is refused before any body or id is looked at: ids that name nothing do.
        const quoteId = `q_rampart_${randomUUID().slice(0, 8)}`;
        const out = await payOut(actor, { gate_session_id: sessionId, quote_id: quoteId });
        t.expect.error(out, 403, 'forbidden', { requirement: R });
        t.observe('gate-rail-not-enabled-code', (out.json as { code?: unknown }).code, 'the spec says the service may return feature_not_available');
        // The pay-in body is not shown: the profile's, where it gives one, else the pay-out's two ids.
        const tpl = t.profile.gate.triggers.payInBody;
        const body = tpl ? (fillDeep(tpl, { quoteId, sessionId }) as Record<string, unknown>) : { gate_session_id: sessionId, quote_id: quoteId };
        t.expect.error(await payIn(actor, quoteId, body, true), 403, 'forbidden', { requirement: R });
        for (const path of [`/rails/pay_ins/${randomUUID()}`, payOutPath(randomUUID())])
          t.expect.error(await actor.client.get(path), 403, 'forbidden', { requirement: R });
      },
    }),
  ],
});
