// Gate "Endpoints > Quotes and transactions": a signed quote is read without
// being redeemed, an expired one cannot be redeemed, POST /quotes needs rail
// access, and a completed session's tx_refid reads as a transaction. Success
// statuses of these reads are not shown: any 2xx.
import { randomUUID } from 'node:crypto';
import type { Exchange } from '../../src/client/types.js';
import type { GateActor, GateWebhookActor } from '../../src/needs/define.js';
import type { SessionTrigger } from '../../src/needs/support/sessionTrigger.js';
import { check, defineSuite, type CheckTools, type RequirementId } from '../../src/runner/check.js';
import { expect2xx } from '../../support/expect.js';
import { sessionBody, stringsIn } from '../../support/gate/sessions.js';
import { UnshapedList } from '../../src/model/schemas/gate/capabilities.js';
import { expectListUrl, walkList } from '../../support/gate/lists.js';
import { firstAnswered } from '../../support/gate/unshownInput.js';
import { expectObjectDiscriminator } from '../../support/gate/objects.js';
import { expectRedeemed, inspectedPayOutLeft, lockQuote, lockRequest, observeQuoteProvider, openSession, payOut, readQuote } from '../../support/gate/rails.js';

const quotePath = (id: string) => `/quotes/${encodeURIComponent(id)}`;
/** Pages of GET /transactions walked (a partner's sandbox may hold a long history). */
const MAX_TXN_PAGES = 10;

/** Complete a new session and take its tx_refid from gate_session.completed (the completion trigger's answer is not a documented read). */
async function completedRefid(t: CheckTools, actor: GateWebhookActor, complete: SessionTrigger, requirement: RequirementId): Promise<string> {
  const sessionId = await openSession(t, actor, requirement);
  await complete(sessionId, actor);
  const completed = await actor.hooks.waitFor(
    (e) => e.eventType === 'gate_session.completed' && e.json?.data?.id === sessionId,
    30_000,
    `gate_session.completed for ${sessionId}`,
    requirement,
  );
  const refid: unknown = completed.json?.data?.tx_refid;
  t.expect.that(typeof refid === 'string' && refid.length > 0, 'gate_session.completed carries tx_refid', { requirement, actual: refid });
  return refid;
}

/**
 * POST /quotes/preview, once per partner: its body is not shown, so rampart sends the amount and currency a session
 * binds (the least an indicative preview can price), then the same with the side an Asset names (on_ramp) for a preview
 * that wants it. The credential and the envelope are judged on every answer (GATE-QUOTE-PREVIEW-SK); the 2xx answer,
 * if one came, is what the response rules are judged on.
 */
function sharedPreview(t: CheckTools, actor: GateActor): Promise<{ answered: Exchange | undefined; status: number[] }> {
  return t.shared(`quote preview of gate partner ${actor.partner.name}`, async () => {
    const defaults = sessionBody(t);
    const least = { amount: defaults.amount, currency: defaults.currency };
    const status: number[] = [];
    const answered = await firstAnswered(
      t,
      [least, { ...least, side: 'on_ramp' }],
      async (body) => {
        const ex = await actor.client.post('/quotes/preview', body, { retry: false });
        status.push(ex.status);
        return ex;
      },
      'GATE-QUOTE-PREVIEW-SK',
      'POST /quotes/preview with the secret key',
      'gate-quote-preview-input',
    );
    return { answered, status };
  });
}

export default defineSuite({
  service: 'gate',
  section: 'Endpoints > Quotes and transactions',
  checks: [
    check({
      name: "GET /quotes/{id} never redeems: the quote still pays out after two reads; the lock and the reads carry an object discriminator (provider observed: the quote's fields are not shown)",
      requirements: ['GATE-QUOTE-GET-NO-REDEEM', 'GATE-QUOTE-LOCK', 'GATE-CONV-OBJECT-DISCRIMINATOR'],
      needs: ['gateRails', 'gateSignedQuote'],
      async run({ gateRails: actor, gateSignedQuote: lock }, t: CheckTools) {
        const R = 'GATE-QUOTE-GET-NO-REDEEM';
        const q = await lockQuote(t, actor, lock, 'off_ramp', R, { reads: 2 });
        // The lock is the documented POST /quotes only when the profile's template sends it there (else a sandbox helper's answer).
        const tpl = t.profile.gate.triggers.createSignedQuote;
        if (q.lock && tpl?.method === 'POST' && tpl.path.split('?')[0] === '/quotes') {
          expectObjectDiscriminator(t, q.lock, 'the signed quote POST /quotes answers');
          observeQuoteProvider(t, q.lock, 'the signed quote POST /quotes answers');
        } else t.observe('gate-quote-lock-object', 'the profile locks quotes through another request than POST /quotes: its answer is not judged');
        let read: Exchange | undefined;
        for (let i = 0; i < 2; i++) {
          read = expect2xx(t, await readQuote(actor, q.quoteId), R);
          expectObjectDiscriminator(t, read, 'the signed quote GET /quotes/{id} answers');
          // "Rail responses carry a provider field" stands in the pay-out rules; a quote's fields are not shown: provider is observed.
          observeQuoteProvider(t, read, 'the signed quote GET /quotes/{id} answers');
          const fiat = (read.json as { fiat_pay_or_receive?: unknown } | undefined)?.fiat_pay_or_receive;
          // The read's fields are not shown beyond fiat_pay_or_receive; when present it is the locked value.
          if (fiat !== undefined)
            t.expect.equal(fiat, q.fiat, 'the read shows the locked fiat_pay_or_receive', { requirement: 'GATE-QUOTE-LOCK', exchange: read });
        }
        const paid = await payOut(actor, { gate_session_id: q.sessionId, quote_id: q.quoteId });
        await expectRedeemed(t, paid, q, R);
        // An inspected quote, then its pay-out: what the currency-and-method check of the rails judges.
        t.offer(inspectedPayOutLeft(actor), { q, inspected: read!, paid });
      },
    }),
    check({
      name: 'POST /quotes/preview answers a secret key (any 2xx, or a 4xx about the body it was sent: the body is not shown)',
      requirements: ['GATE-QUOTE-PREVIEW-SK'],
      needs: ['gatePartner'],
      async run({ gatePartner: actor }, t: CheckTools) {
        const { status } = await sharedPreview(t, actor);
        t.observe('gate-quote-preview-status', status, 'body and response of POST /quotes/preview are not shown');
      },
    }),
    check({
      name: 'POST /quotes/preview answers with an object discriminator',
      requirements: ['GATE-CONV-OBJECT-DISCRIMINATOR'],
      needs: ['gatePartner'],
      async run({ gatePartner: actor }, t: CheckTools) {
        const { answered } = await sharedPreview(t, actor);
        if (!answered)
          t.unverified(
            'every body rampart guessed for POST /quotes/preview got a 4xx about it (its body is not shown; a 400 for a malformed field is documented): no preview answer to judge',
          );
        expectObjectDiscriminator(t, answered, 'POST /quotes/preview', { shapeNotShown: true });
        t.observe(
          'gate-quote-preview',
          { status: answered.status, keys: Object.keys(answered.json ?? {}).sort() },
          'body and response of POST /quotes/preview are not shown',
        );
      },
    }),
    check({
      name: 'an expired signed quote cannot be redeemed (409)',
      requirements: ['GATE-QUOTE-EXPIRED-409'],
      needs: ['gateRails', 'gateSignedQuote', 'gateExpireSignedQuote'],
      async run({ gateRails: actor, gateSignedQuote: lock, gateExpireSignedQuote: expire }, t: CheckTools) {
        const R = 'GATE-QUOTE-EXPIRED-409';
        // The pay-out comes after the expiry: it is no step of the quote's block.
        const q = await lockQuote(t, actor, lock, 'off_ramp', R, { payOuts: 0 });
        await expire({ id: q.quoteId, lockedAt: q.lockedAt }, actor);
        t.observe('gate-signed-quote-expiry', expire.how, 'how the quote was expired: the profile trigger or its declared lifetime');
        t.expect.error(await payOut(actor, { gate_session_id: q.sessionId, quote_id: q.quoteId }), 409, 'conflict', { requirement: R });
      },
    }),
    check({
      name: 'POST /quotes and GET /quotes/{id} without rail access give 403',
      requirements: ['GATE-QUOTE-NO-ENTITLEMENT-403', 'GATE-QUOTE-GET-NO-ENTITLEMENT-403'],
      // The lock request is the profile's createSignedQuote template, sent by a partner without rails.
      needs: ['gateNoRails', 'gateSignedQuote'],
      async run({ gateNoRails: actor }, t: CheckTools) {
        const R = 'GATE-QUOTE-NO-ENTITLEMENT-403';
        const sessionId = await openSession(t, actor, R);
        const ex = await lockRequest(t, actor, { sessionId, side: 'off_ramp' });
        t.expect.error(ex, 403, 'forbidden', { requirement: R });
        t.observe('gate-quote-not-enabled-code', (ex.json as { code?: unknown }).code, 'the spec says the service may return feature_not_available');
        // GET /quotes/{id} is a rail route too: the credential (SK plus rail entitlement) is refused before any id is looked up.
        const G = 'GATE-QUOTE-GET-NO-ENTITLEMENT-403';
        const read = await actor.client.get(quotePath(`quote_rampart_${randomUUID().replace(/-/g, '')}`));
        t.expect.error(read, 403, 'forbidden', { requirement: G });
      },
    }),
    check({
      name: "a completed session's tx_refid reads as that transaction; another partner gets 404",
      requirements: ['GATE-TXN-READ', 'GATE-TXN-FOREIGN-404'],
      needs: ['gateWebhooks', 'gateCompleteSession', 'gateOtherTenant'],
      budgetMs: 90_000,
      async run({ gateWebhooks: actor, gateCompleteSession: complete, gateOtherTenant: other }, t: CheckTools) {
        const R = 'GATE-TXN-READ';
        const refid = await completedRefid(t, actor, complete, R);

        const path = `/transactions/${encodeURIComponent(refid)}`;
        const read = expect2xx(t, await actor.client.get(path), R);
        // Record fields are not shown; single-object responses carry an object discriminator, and the record is identified by refid.
        t.expect.that(typeof (read.json as { object?: unknown } | undefined)?.object === 'string', 'the transaction carries an object discriminator', {
          requirement: R,
          exchange: read,
        });
        t.expect.that(stringsIn(read.json).includes(refid), 'the record answered is the transaction asked for (it carries the refid)', {
          requirement: R,
          exchange: read,
        });
        t.observe('gate-transaction-object', (read.json as { object?: unknown }).object);

        t.expect.error(await other.client.get(path), 404, 'not_found', { requirement: 'GATE-TXN-FOREIGN-404' });
      },
    }),
    check({
      name: "the reconciliation list holds a completed session's transaction (walked to its end); another partner's list never shows it",
      requirements: ['GATE-TXN-LIST', 'GATE-TXN-LIST-TENANT'],
      needs: ['gateWebhooks', 'gateCompleteSession', 'gateOtherTenant'],
      budgetMs: 90_000,
      async run({ gateWebhooks: actor, gateCompleteSession: complete, gateOtherTenant: other }, t: CheckTools) {
        const L = 'GATE-TXN-LIST';
        const T = 'GATE-TXN-LIST-TENANT';
        const refid = await completedRefid(t, actor, complete, L);
        // A cursor-style list in the list envelope of the Conventions; its query parameters are not shown, so the walk
        // follows the API's starting_after convention with the items' refid (or id) and stops short where that fails.
        const first = expect2xx(t, await actor.client.get('/transactions'), L);
        t.expect.schema(first, UnshapedList, L);
        expectListUrl(t, first, '/transactions', L);
        const idOf = (x: Record<string, unknown>) => x.refid ?? x.id;
        // Which value the cursor takes is not shown: the refid (the record's identity), else an id of the record's own.
        const cursorsOf = (x: Record<string, unknown>) => [x.refid, x.id];
        const mine = await walkList(t, actor, '/transactions', { requirement: L, maxPages: MAX_TXN_PAGES, idOf, cursorsOf });
        if (mine.cursorTaken !== undefined)
          t.observe(
            'gate-transactions-cursor',
            mine.cursorTaken === 0 ? 'refid' : "the record's own id",
            "the transaction list's query parameters are not shown",
          );
        const listed = mine.items.some((x) => stringsIn(x).includes(refid));
        if (mine.complete)
          t.expect.that(listed, 'the whole list holds the completed transaction', { requirement: L, actual: `absent from all ${mine.items.length} listed` });

        const theirs = await walkList(t, other, '/transactions', { requirement: T, maxPages: MAX_TXN_PAGES, idOf, cursorsOf });
        t.expect.that(!theirs.items.some((x) => stringsIn(x).includes(refid)), "another partner's transaction list does not show the transaction", {
          requirement: T,
          actual: `${refid} is listed`,
        });
        const short = [
          ...(!listed && !mine.complete ? [`the partner's own list: ${mine.stopped}, and the transaction was not among the ${mine.items.length} seen`] : []),
          ...(!theirs.complete ? [`another partner's list: ${theirs.stopped}; the transaction was not among the ${theirs.items.length} seen`] : []),
        ];
        if (short.length) t.unverified(`the whole list was not seen — ${short.join('; ')}`);
      },
    }),
    check({
      name: 'an unknown transaction refid gives 404',
      requirements: ['GATE-TXN-404'],
      needs: ['gatePartner'],
      async run({ gatePartner: actor }, t: CheckTools) {
        const ex = await actor.client.get(`/transactions/rampart-missing-${randomUUID()}`);
        t.expect.error(ex, 404, 'not_found', { requirement: 'GATE-TXN-404' });
      },
    }),
  ],
});
