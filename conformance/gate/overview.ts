// Gate "What the service does": every resource is scoped to the partner and
// the environment of the credential. partner_id names the owning partner (the
// profile does not name partner ids, so it is compared across the partner's own
// objects and another partner's), and a live key on the production base never
// sees what a test key made. Reads only with the live key: nothing is created live.
import { check, defineSuite, type CheckTools } from '../../src/runner/check.js';
import { GateSessionList } from '../../src/model/schemas/gate/sessions.js';
import { expect2xx } from '../../support/expect.js';
import { createCustomer, customerPath, newCustomerInput } from '../../support/gate/customers.js';
import { expectGateError } from '../../support/gate/errors.js';
import { createSession, sessionBody, sessionPath } from '../../support/gate/sessions.js';

export default defineSuite({
  service: 'gate',
  section: 'What the service does',
  checks: [
    check({
      name: "partner_id names the owning partner: the same on a partner's session and customer, another on another partner's session",
      requirements: ['GATE-TENANT-PARTNER-ID'],
      needs: ['gatePartner', 'gateOtherTenant'],
      async run({ gatePartner: owner, gateOtherTenant: other }, t: CheckTools) {
        const R = 'GATE-TENANT-PARTNER-ID';
        const mine = await createSession(t, owner, R);
        const { customer } = await createCustomer(t, owner, R);
        const theirs = await createSession(t, other, R);
        t.expect.that(mine.session.partner_id.length > 0, 'partner_id names a partner', { requirement: R, exchange: mine.exchange });
        t.expect.equal(customer.partner_id, mine.session.partner_id, "the partner's customer and session carry the same partner_id", { requirement: R });
        t.expect.that(theirs.session.partner_id !== mine.session.partner_id, "another partner's session carries another partner_id", {
          requirement: R,
          actual: `${mine.session.partner_id} on both`,
          exchange: theirs.exchange,
        });
      },
    }),
    check({
      name: "a partner's live key on production never reads or lists what its test key made, and lists only live sessions",
      requirements: ['GATE-TENANT-LIVE-ISOLATION'],
      needs: ['gateLiveKey', 'gateProduction', 'gateRaw'],
      async run({ gateLiveKey: live, gateProduction: production, gateRaw: sandbox }, t: CheckTools) {
        const R = 'GATE-TENANT-LIVE-ISOLATION';
        const asTest = { bearer: live.partner.secretKey };
        const asLive = { bearer: live.key };
        // The same partner's test objects: another environment of one partner, not another partner.
        const made = expect2xx(
          t,
          await sandbox.request({ method: 'POST', path: '/gate_sessions', body: sessionBody(t), idempotencyKey: true, auth: asTest }),
          R,
          'POST /gate_sessions with the test key',
        );
        const sessionId: unknown = made.json?.id;
        t.expect.that(typeof sessionId === 'string' && sessionId.length > 0, 'the test session has an id', { requirement: R, exchange: made });
        const cust = await sandbox.request({ method: 'POST', path: '/customers', body: newCustomerInput(t), idempotencyKey: true, auth: asTest });
        const customerId: unknown = cust.status >= 200 && cust.status < 300 ? cust.json?.id : undefined;

        expectGateError(t, await production.request({ method: 'GET', path: sessionPath(sessionId), auth: asLive }), 404, R);
        if (typeof customerId === 'string' && customerId.length > 0)
          expectGateError(t, await production.request({ method: 'GET', path: customerPath(customerId), auth: asLive }), 404, R);
        else
          t.observe('gate-live-isolation-customer', cust.status, 'the customer creation offered no id to read with the live key (its response is not shown)');

        // The live list, first page: the test session is not on it and every session on it is live (order and paging are not shown).
        const ex = expect2xx(t, await production.request({ method: 'GET', path: '/gate_sessions', auth: asLive }), R, 'GET /gate_sessions with the live key');
        const page = t.expect.schema(ex, GateSessionList, R);
        t.expect.that(!page.data.some((s) => s.id === sessionId), 'the live list does not show the test session', { requirement: R, exchange: ex });
        const notLive = page.data.filter((s) => s.mode !== 'live').map((s) => `${s.id} (${s.mode})`);
        t.expect.equal(notLive, [], 'every session a live key lists is mode live', { requirement: R, exchange: ex });
        t.observe('gate-live-session-list-size', page.data.length);
      },
    }),
  ],
});
