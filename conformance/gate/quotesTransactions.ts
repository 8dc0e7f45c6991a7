// Gate "Endpoints > Quotes and transactions": a signed quote is read without
// being redeemed, an expired one cannot be redeemed, POST /quotes needs rail
// access, and a completed session's tx_refid reads as a transaction. Success
// statuses of these reads are not shown: any 2xx.
import { randomUUID } from 'node:crypto';
import { check, defineSuite, type CheckTools } from '../../src/runner/check.js';
import { expect2xx } from '../../support/expect.js';
import { sessionBody } from '../../support/gate/sessions.js';
import { expectRedeemed, lockQuote, lockRequest, openSession, payOut } from '../../support/gate/rails.js';

const quotePath = (id: string) => `/quotes/${encodeURIComponent(id)}`;

export default defineSuite({
  service: 'gate',
  section: 'Endpoints > Quotes and transactions',
  checks: [
    check({
      name: 'GET /quotes/{id} never redeems: the quote still pays out after two reads',
      requirements: ['GATE-QUOTE-GET-NO-REDEEM', 'GATE-QUOTE-LOCK'],
      needs: ['gateRails', 'gateSignedQuote'],
      async run({ gateRails: actor, gateSignedQuote: lock }, t: CheckTools) {
        const R = 'GATE-QUOTE-GET-NO-REDEEM';
        const q = await lockQuote(t, actor, lock, 'off_ramp', R);
        for (let i = 0; i < 2; i++) {
          const read = expect2xx(t, await actor.client.get(quotePath(q.quoteId)), R);
          const fiat = (read.json as { fiat_pay_or_receive?: unknown } | undefined)?.fiat_pay_or_receive;
          // The read's fields are not shown beyond fiat_pay_or_receive; when present it is the locked value.
          if (fiat !== undefined) t.expect.equal(fiat, q.fiat, 'the read shows the locked fiat_pay_or_receive', { requirement: 'GATE-QUOTE-LOCK', exchange: read });
        }
        expectRedeemed(t, await payOut(actor, { gate_session_id: q.sessionId, quote_id: q.quoteId }), R);

        // Preview exists (SK); its body and response are not shown.
        const defaults = sessionBody(t);
        const preview = await actor.client.post('/quotes/preview', { amount: defaults.amount, currency: defaults.currency }, { retry: false });
        t.observe('gate-quote-preview-status', preview.status, 'body and response of POST /quotes/preview are not shown');
      },
    }),
    check({
      name: 'an expired signed quote cannot be redeemed (409)',
      requirements: ['GATE-QUOTE-EXPIRED-409'],
      needs: ['gateRails', 'gateSignedQuote', 'gateExpireSignedQuote'],
      async run({ gateRails: actor, gateSignedQuote: lock, gateExpireSignedQuote: expire }, t: CheckTools) {
        const R = 'GATE-QUOTE-EXPIRED-409';
        const q = await lockQuote(t, actor, lock, 'off_ramp', R);
        await expire({ id: q.quoteId, lockedAt: q.lockedAt }, actor);
        t.observe('gate-signed-quote-expiry', expire.how, 'how the quote was expired: the profile trigger or its declared lifetime');
        t.expect.error(await payOut(actor, { gate_session_id: q.sessionId, quote_id: q.quoteId }), 409, 'conflict', { requirement: R });
      },
    }),
    check({
      name: 'POST /quotes without rail access gives 403',
      requirements: ['GATE-QUOTE-NO-ENTITLEMENT-403'],
      // The lock request is the profile's createSignedQuote template, sent by a partner without rails.
      needs: ['gateNoRails', 'gateSignedQuote'],
      async run({ gateNoRails: actor }, t: CheckTools) {
        const R = 'GATE-QUOTE-NO-ENTITLEMENT-403';
        const sessionId = await openSession(t, actor, R);
        const ex = await lockRequest(t, actor, { sessionId, side: 'off_ramp' });
        t.expect.error(ex, 403, 'forbidden', { requirement: R });
        t.observe('gate-quote-not-enabled-code', (ex.json as { code?: unknown }).code, 'the spec says the service may return feature_not_available');
      },
    }),
    check({
      name: "a completed session's tx_refid reads as a transaction; another partner gets 404",
      requirements: ['GATE-TXN-READ', 'GATE-TXN-FOREIGN-404'],
      needs: ['gateWebhooks', 'gateCompleteSession', 'gateOtherTenant'],
      budgetMs: 90_000,
      async run({ gateWebhooks: actor, gateCompleteSession: complete, gateOtherTenant: other }, t: CheckTools) {
        const R = 'GATE-TXN-READ';
        const sessionId = await openSession(t, actor, R);
        await complete(sessionId, actor);
        const completed = await actor.hooks.waitFor(
          (e) => e.eventType === 'gate_session.completed' && e.json?.data?.id === sessionId,
          30_000,
          `gate_session.completed for ${sessionId}`,
          R,
        );
        const refid: unknown = completed.json?.data?.tx_refid;
        t.expect.that(typeof refid === 'string' && refid.length > 0, 'gate_session.completed carries tx_refid', { requirement: R, actual: refid });

        const path = `/transactions/${encodeURIComponent(refid)}`;
        const read = expect2xx(t, await actor.client.get(path), R);
        // Record fields are not shown; single-object responses carry an object discriminator.
        t.expect.that(typeof (read.json as { object?: unknown } | undefined)?.object === 'string', 'the transaction carries an object discriminator', { requirement: R, exchange: read });
        t.observe('gate-transaction-object', (read.json as { object?: unknown }).object);

        const list = await actor.client.get('/transactions');
        t.observe('gate-transactions-list-status', list.status, 'query parameters and response are not shown');

        t.expect.error(await other.client.get(path), 404, 'not_found', { requirement: 'GATE-TXN-FOREIGN-404' });
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
