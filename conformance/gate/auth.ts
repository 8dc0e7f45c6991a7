// Gate "Authentication": missing, malformed, revoked and mode-mismatched
// credentials (secret keys, and publishable keys on the embed bootstrap), a
// publishable key on secret-key routes, and tenancy: a
// resource of another partner reads as 404 (never 403) and cannot be changed.
// Cross-tenant reads of customers, transactions and pay-outs and delivery
// replay are checked with their endpoints; here: sessions, signed quotes, the
// deliveries list and customer writes.
import { randomBytes, randomUUID } from 'node:crypto';
import type { ApiRequest } from '../../src/client/types.js';
import type { GateActor } from '../../src/needs/define.js';
import { check, defineSuite, type CheckTools } from '../../src/runner/check.js';
import { GateSession } from '../../src/model/schemas/gate/sessions.js';
import { expect2xx } from '../../support/expect.js';
import { createCustomer, customerPath } from '../../support/gate/customers.js';
import { expectGateError } from '../../support/gate/errors.js';
import { lockQuote, readQuote } from '../../support/gate/rails.js';
import { createSession, sessionBody, sessionPath } from '../../support/gate/sessions.js';

const ALNUM = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** A well-formed key no target issued: sk_test_ plus 32 random characters. */
function unknownTestKey(): string {
  return 'sk_test_' + Array.from(randomBytes(32), (b) => ALNUM[b % ALNUM.length]).join('');
}

/** A cheap secret-key read every partner may make. */
const PROBE: Pick<ApiRequest, 'method' | 'path'> = { method: 'GET', path: '/gate_sessions' };

/**
 * One request per secret-key group of the Authentication table ("sessions, capabilities, quotes, rails,
 * transactions, customers, branding, webhook tools, dashboard"): refused for the credential before any body or
 * id is looked at, so a cheap one serves.
 */
function secretKeyGroups(t: CheckTools): { group: string; req: Pick<ApiRequest, 'method' | 'path' | 'body'> }[] {
  const { amount, currency } = sessionBody(t);
  return [
    { group: 'sessions', req: PROBE },
    { group: 'capabilities', req: { method: 'GET', path: '/capabilities/countries' } },
    { group: 'quotes', req: { method: 'POST', path: '/quotes/preview', body: { amount, currency } } },
    { group: 'rails', req: { method: 'GET', path: `/rails/pay_outs/po_rampart_${randomUUID().slice(0, 8)}` } },
    { group: 'transactions', req: { method: 'GET', path: '/transactions' } },
    { group: 'customers', req: { method: 'GET', path: '/customers' } },
    { group: 'branding', req: { method: 'GET', path: '/branding' } },
    { group: 'webhook tools', req: { method: 'GET', path: '/webhooks/deliveries' } },
    { group: 'dashboard', req: { method: 'GET', path: '/dashboard/usage' } },
  ];
}

export default defineSuite({
  service: 'gate',
  section: 'Authentication',
  checks: [
    check({
      name: 'a request without credentials gives 401 unauthorized, on every secret-key group (sessions, capabilities, quotes, rails, transactions, customers, branding, webhook tools, dashboard)',
      requirements: ['GATE-AUTH-MISSING-401', 'GATE-ERR-401-UNAUTHORIZED'],
      needs: ['gateRaw'],
      async run({ gateRaw: raw }, t: CheckTools) {
        for (const { group, req } of secretKeyGroups(t)) {
          // Retried (its 429 too): keyless requests share one client (an address, say) whose windows rampart cannot pace.
          const ex = await raw.request({ ...req, auth: 'none' });
          t.expect.that(ex.status === 401, `${req.method} ${req.path} (${group}) without credentials gives 401`, {
            requirement: 'GATE-AUTH-MISSING-401',
            expected: 401,
            actual: ex.status,
            exchange: ex,
          });
          expectGateError(t, ex, 401, 'GATE-AUTH-MISSING-401');
        }
      },
    }),
    check({
      name: 'a malformed Authorization header or an unknown key gives 401 unauthorized',
      requirements: ['GATE-AUTH-MALFORMED-401', 'GATE-ERR-401-UNAUTHORIZED'],
      needs: ['gateRaw'],
      async run({ gateRaw: raw }, t: CheckTools) {
        const credentials: { what: string; auth: ApiRequest['auth'] }[] = [
          { what: 'a Basic header', auth: { header: 'Basic cmFtcGFydDpyYW1wYXJ0' } },
          { what: 'a bearer that is not a key', auth: { bearer: 'not-an-api-key' } },
          { what: 'a well-formed key the target never issued', auth: { bearer: unknownTestKey() } },
        ];
        for (const c of credentials) {
          const ex = await raw.request({ ...PROBE, auth: c.auth, retry: false });
          t.expect.that(ex.status === 401, `${c.what} gives 401`, { requirement: 'GATE-AUTH-MALFORMED-401', expected: 401, actual: ex.status, exchange: ex });
          expectGateError(t, ex, 401, 'GATE-AUTH-MALFORMED-401');
        }
      },
    }),
    check({
      name: 'a revoked secret key gives 403 forbidden',
      requirements: ['GATE-AUTH-REVOKED-403', 'GATE-ERR-403-FORBIDDEN'],
      needs: ['gateRevokedKey', 'gateRaw'],
      async run({ gateRevokedKey: revoked, gateRaw: raw }, t: CheckTools) {
        expectGateError(t, await raw.request({ ...PROBE, auth: { bearer: revoked.key }, retry: false }), 403, 'GATE-AUTH-REVOKED-403');
      },
    }),
    check({
      name: 'a test key on the production base gives 403 forbidden',
      requirements: ['GATE-AUTH-MODE-MISMATCH-403', 'GATE-ERR-403-FORBIDDEN'],
      needs: ['gatePartner', 'gateProduction'],
      async run({ gatePartner: actor, gateProduction: production }, t: CheckTools) {
        const ex = await production.request({ ...PROBE, auth: { bearer: actor.partner.secretKey }, retry: false });
        expectGateError(t, ex, 403, 'GATE-AUTH-MODE-MISMATCH-403');
      },
    }),
    check({
      name: 'a live key on the sandbox base gives 403 forbidden',
      requirements: ['GATE-AUTH-MODE-MISMATCH-403', 'GATE-ERR-403-FORBIDDEN'],
      needs: ['gateLiveKey', 'gateRaw'],
      async run({ gateLiveKey: live, gateRaw: raw }, t: CheckTools) {
        expectGateError(t, await raw.request({ ...PROBE, auth: { bearer: live.key }, retry: false }), 403, 'GATE-AUTH-MODE-MISMATCH-403');
      },
    }),
    check({
      name: 'an embed bootstrap with a revoked publishable key, from an allowed origin, gives 403 forbidden',
      requirements: ['GATE-AUTH-REVOKED-403', 'GATE-ERR-403-FORBIDDEN'],
      needs: ['gateRevokedPublishableKey', 'gateRaw'],
      async run({ gateRevokedPublishableKey: revoked, gateRaw: raw }, t: CheckTools) {
        const ex = await raw.request({
          method: 'POST',
          path: '/embed/bootstrap',
          body: {},
          headers: { origin: revoked.origin },
          auth: { bearer: revoked.key },
          retry: false,
        });
        expectGateError(t, ex, 403, 'GATE-AUTH-REVOKED-403');
      },
    }),
    check({
      name: 'an embed bootstrap on the sandbox with a live publishable key gives 403 forbidden',
      requirements: ['GATE-AUTH-MODE-MISMATCH-403', 'GATE-ERR-403-FORBIDDEN'],
      needs: ['gateLivePublishableKey', 'gateRaw'],
      async run({ gateLivePublishableKey: live, gateRaw: raw }, t: CheckTools) {
        const ex = await raw.request({
          method: 'POST',
          path: '/embed/bootstrap',
          body: {},
          headers: { origin: live.origin },
          auth: { bearer: live.key },
          retry: false,
        });
        expectGateError(t, ex, 403, 'GATE-AUTH-MODE-MISMATCH-403');
      },
    }),
    check({
      name: 'an embed bootstrap on the production base with a test publishable key gives 403 forbidden',
      requirements: ['GATE-AUTH-MODE-MISMATCH-403', 'GATE-ERR-403-FORBIDDEN'],
      needs: ['gateEmbed', 'gateProduction'],
      async run({ gateEmbed: actor, gateProduction: production }, t: CheckTools) {
        const ex = await production.request({
          method: 'POST',
          path: '/embed/bootstrap',
          body: {},
          headers: { origin: actor.origin },
          auth: { bearer: actor.publishableKey },
          retry: false,
        });
        expectGateError(t, ex, 403, 'GATE-AUTH-MODE-MISMATCH-403');
      },
    }),
    check({
      name: 'a publishable key cannot list or create sessions nor move money, nor call any other secret-key group (401 or 403)',
      requirements: ['GATE-AUTH-PK-SECRET-ROUTE'],
      needs: ['gateEmbed'],
      async run({ gateEmbed: actor }, t: CheckTools) {
        const R = 'GATE-AUTH-PK-SECRET-ROUTE';
        // "POST /embed/bootstrap only": every group of the secret key's row refuses it (the session list is the sessions probe).
        const groups = [];
        for (const { group, req } of secretKeyGroups(t).filter((g) => g.group !== 'sessions'))
          groups.push({ group, ex: await actor.client.request({ ...req, auth: 'publishable', retry: false }) });
        for (const { group, ex } of groups) {
          t.expect.that(
            ex.status === 401 || ex.status === 403,
            `${ex.request.method} ${new URL(ex.request.url).pathname} (${group}) refuses a publishable key`,
            {
              requirement: R,
              expected: '401 or 403',
              actual: ex.status,
              exchange: ex,
            },
          );
          expectGateError(t, ex, ex.status, R);
        }
        const list = await actor.client.request({ ...PROBE, auth: 'publishable', retry: false });
        const create = await actor.client.request({
          method: 'POST',
          path: '/gate_sessions',
          body: sessionBody(t),
          idempotencyKey: true,
          auth: 'publishable',
          retry: false,
        });
        // Moving money: a pay-out, refused for the credential before its body (an unknown quote) is looked at.
        const money = await actor.client.request({
          method: 'POST',
          path: '/rails/pay_outs',
          body: { gate_session_id: `gs_rampart_${randomUUID().slice(0, 8)}`, quote_id: `q_rampart_${randomUUID().slice(0, 8)}` },
          idempotencyKey: true,
          auth: 'publishable',
          retry: false,
        });
        // The rule says a publishable key is for bootstrap only; whether the refusal is 401 (not a credential for this
        // route) or 403 (a known key without the right) is not shown.
        for (const ex of [list, create, money]) {
          t.expect.status(ex, [401, 403], R);
          expectGateError(t, ex, ex.status, R);
          t.observe('gate-publishable-key-on-secret-route', ex.status, `${ex.request.method} /gate_sessions with a publishable key`);
        }
      },
    }),
    check({
      name: "another rail-entitled partner's signed quote reads as 404; the owner still reads it",
      requirements: ['GATE-AUTH-CROSS-TENANT-QUOTE'],
      // Both tenants rail-entitled: the other's answer is about tenancy, never about rail access (403).
      needs: ['gateRails', 'gateSignedQuote', 'gateOtherRails'],
      async run({ gateRails: owner, gateSignedQuote: lock, gateOtherRails: other }, t: CheckTools) {
        const R = 'GATE-AUTH-CROSS-TENANT-QUOTE';
        const q = await lockQuote(t, owner, lock, 'on_ramp', R, { payOuts: 0, reads: 1 });
        const path = `/quotes/${encodeURIComponent(q.quoteId)}`;
        expectGateError(t, await other.client.get(path), 404, R);
        // The owner still reads it (the read's status is not shown: any 2xx), so the 404 was about tenancy and not a wrong id.
        expect2xx(t, await readQuote(owner, q.quoteId), R, "the owner's GET /quotes/{id}");
      },
    }),
    check({
      name: "another partner's deliveries list does not show the partner's delivery",
      requirements: ['GATE-AUTH-CROSS-TENANT-DELIVERY'],
      needs: ['gateWebhooks', 'gateOtherTenant'],
      async run({ gateWebhooks: owner, gateOtherTenant: other }, t: CheckTools) {
        const R = 'GATE-AUTH-CROSS-TENANT-DELIVERY';
        const made = expect2xx(t, await owner.client.post('/webhooks/test', undefined, { retry: false }), R, 'POST /webhooks/test (a delivery of the owner)');
        const deliveryId: unknown = made.json?.id;
        t.expect.that(typeof deliveryId === 'string' && deliveryId.length > 0, 'the test delivery has an id', { requirement: R, exchange: made });
        const ids = async (actor: GateActor) => {
          const ex = expect2xx(t, await actor.client.get('/webhooks/deliveries', { limit: 200 }), R);
          const data: unknown = ex.json?.data;
          t.expect.that(Array.isArray(data), 'the deliveries list has a data array', { requirement: R, exchange: ex });
          return (data as { id?: unknown }[]).map((d) => d?.id);
        };
        // Most recent first: the owner's new delivery is on its first page, and so would a leaked one be on another's.
        t.expect.that((await ids(owner)).includes(deliveryId), "the owner's list shows its new delivery", { requirement: R, actual: deliveryId });
        t.expect.that(!(await ids(other)).includes(deliveryId), "another partner's list does not show the delivery", { requirement: R, actual: deliveryId });
      },
    }),
    check({
      name: "another partner's customer cannot be patched or deleted (404, unchanged)",
      requirements: ['GATE-AUTH-CROSS-TENANT-CUSTOMER-WRITE'],
      needs: ['gatePartner', 'gateOtherTenant'],
      async run({ gatePartner: owner, gateOtherTenant: other }, t: CheckTools) {
        const R = 'GATE-AUTH-CROSS-TENANT-CUSTOMER-WRITE';
        const { customer } = await createCustomer(t, owner, R);
        const path = customerPath(customer.id);
        expectGateError(t, await other.client.patch(path, { first_name: `Mallory-${randomUUID().slice(0, 8)}` }, { retry: false }), 404, R);
        expectGateError(t, await other.client.delete(path, { retry: false }), 404, R);
        // Still there (a deleted customer would read as 404) and unchanged.
        const after = expect2xx(t, await owner.client.get(path), R, "the owner's GET /customers/{id}");
        t.expect.equal(after.json?.first_name, customer.first_name, "another partner's PATCH leaves first_name unchanged", { requirement: R, exchange: after });
        t.expect.that(after.json?.deleted !== true, "another partner's DELETE leaves the customer in place", { requirement: R, exchange: after });
      },
    }),
  ],
});
