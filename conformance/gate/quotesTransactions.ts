// Gate "Endpoints > Quotes and transactions": a signed quote is read without
// being redeemed, an expired one cannot be redeemed, POST /quotes needs rail
// access, and a completed session's tx_refid reads as a transaction.
import { randomUUID } from 'node:crypto';
import { defineSuite, type CheckContext } from '../../src/runner/check.js';
import { fill, fillDeep } from '../../src/runner/triggers.js';
import { expectRedeemed, lockQuote, openSession, payOut } from './rails.js';

const quotePath = (id: string) => `/quotes/${encodeURIComponent(id)}`;

export default defineSuite({
  service: 'gate',
  section: 'Endpoints > Quotes and transactions',
  checks: [
    {
      name: 'GET /quotes/{id} never redeems: the quote still pays out after two reads',
      requirements: ['GATE-QUOTE-GET-NO-REDEEM', 'GATE-QUOTE-LOCK'],
      needs: ['gate.rails'],
      async run(ctx: CheckContext) {
        const R = 'GATE-QUOTE-GET-NO-REDEEM';
        const actor = ctx.gate.rails();
        const q = await lockQuote(ctx, actor, 'off_ramp', R);
        for (let i = 0; i < 2; i++) {
          const read = ctx.expect.status(await actor.client.get(quotePath(q.quoteId)), 200, R);
          const fiat = (read.json as { fiat_pay_or_receive?: unknown } | undefined)?.fiat_pay_or_receive;
          // The read's fields are not shown beyond fiat_pay_or_receive; when present it is the locked value.
          if (fiat !== undefined) ctx.expect.equal(fiat, q.fiat, 'the read shows the locked fiat_pay_or_receive', { requirement: 'GATE-QUOTE-LOCK', exchange: read });
        }
        expectRedeemed(ctx, await payOut(actor, { gate_session_id: q.sessionId, quote_id: q.quoteId }), R);

        // Preview exists (SK); its body and response are not shown.
        const defaults = ctx.profile.gate.sessionDefaults ?? {};
        const preview = await actor.client.post('/quotes/preview', { amount: defaults.amount, currency: defaults.currency }, { retry: false });
        ctx.observe('gate-quote-preview-status', preview.status, 'body and response of POST /quotes/preview are not shown');
      },
    },
    {
      name: 'an expired signed quote cannot be redeemed (409)',
      requirements: ['GATE-QUOTE-EXPIRED-409'],
      needs: ['gate.rails', 'gate.trigger.expireQuote'],
      async run(ctx: CheckContext) {
        const R = 'GATE-QUOTE-EXPIRED-409';
        const actor = ctx.gate.rails();
        const q = await lockQuote(ctx, actor, 'off_ramp', R);
        await ctx.trigger('gate', 'expireSignedQuote', { quoteId: q.quoteId, sessionId: q.sessionId }, actor);
        ctx.expect.error(await payOut(actor, { gate_session_id: q.sessionId, quote_id: q.quoteId }), 409, 'conflict', { requirement: R });
      },
    },
    {
      name: 'POST /quotes without rail access gives 403',
      requirements: ['GATE-QUOTE-NO-ENTITLEMENT-403'],
      needs: ['gate.noRails', 'gate.rails'],
      async run(ctx: CheckContext) {
        const R = 'GATE-QUOTE-NO-ENTITLEMENT-403';
        const tpl = ctx.profile.gate.triggers.createSignedQuote!;
        const actor = ctx.gate.noRails();
        const sessionId = await openSession(ctx, actor, R);
        // The lock request exactly as the profile sends it, from a partner without rails.
        const vars = { sessionId, side: 'off_ramp' };
        const ex = await actor.client.request({
          method: tpl.method,
          path: fill(tpl.path, vars),
          body: tpl.body === undefined ? undefined : fillDeep(tpl.body, vars),
          headers: tpl.headers ? (fillDeep(tpl.headers, vars) as Record<string, string>) : undefined,
          idempotencyKey: true,
          retry: false,
        });
        ctx.expect.error(ex, 403, 'forbidden', { requirement: R });
        ctx.observe('gate-quote-not-enabled-code', (ex.json as { code?: unknown }).code);
      },
    },
    {
      name: "a completed session's tx_refid reads as a transaction; another partner gets 404",
      requirements: ['GATE-TXN-READ', 'GATE-TXN-FOREIGN-404'],
      needs: ['gate.webhooks', 'gate.trigger.complete', 'gate.secondPartner'],
      timeoutMs: 90_000,
      async run(ctx: CheckContext) {
        const R = 'GATE-TXN-READ';
        const actor = await ctx.gate.webhooks();
        const sessionId = await openSession(ctx, actor, R);
        await ctx.trigger('gate', 'completeSession', { sessionId }, actor);
        const completed = await ctx.waitForEvent(
          actor.partner.name,
          (e) => e.eventType === 'gate_session.completed' && e.json?.data?.id === sessionId,
          30_000,
          `gate_session.completed for ${sessionId}`,
        );
        const refid = completed.json.data.tx_refid;
        ctx.expect.that(typeof refid === 'string' && refid.length > 0, 'gate_session.completed carries tx_refid', { requirement: R, actual: refid });

        const path = `/transactions/${encodeURIComponent(refid)}`;
        const read = ctx.expect.status(await actor.client.get(path), 200, R);
        // Record fields are not shown; single-object responses carry an object discriminator.
        ctx.expect.that(typeof (read.json as { object?: unknown } | undefined)?.object === 'string', 'the transaction carries an object discriminator', { requirement: R, exchange: read });
        ctx.observe('gate-transaction-object', (read.json as { object?: unknown }).object);

        const list = await actor.client.get('/transactions');
        ctx.observe('gate-transactions-list-status', list.status, 'query parameters and response are not shown');

        ctx.expect.error(await ctx.gate.other().client.get(path), 404, 'not_found', { requirement: 'GATE-TXN-FOREIGN-404' });
      },
    },
    {
      name: 'an unknown transaction refid gives 404',
      requirements: ['GATE-TXN-404'],
      needs: ['gate.partner'],
      async run(ctx: CheckContext) {
        const ex = await ctx.gate.partner().client.get(`/transactions/rampart-missing-${randomUUID()}`);
        ctx.expect.error(ex, 404, 'not_found', { requirement: 'GATE-TXN-404' });
      },
    },
  ],
});
