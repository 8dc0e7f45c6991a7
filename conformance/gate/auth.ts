// Gate "Authentication": missing, malformed, revoked and mode-mismatched
// credentials, a publishable key on secret-key routes, and tenancy: a
// resource of another partner reads as 404 (never 403) and cannot be changed.
// Cross-tenant reads of customers, transactions and pay-outs and delivery
// replay are checked with their endpoints (customers.ts, quotesTransactions.ts,
// rails.ts, webhook operations); here: sessions, quotes, the deliveries list
// and customer writes.
import { randomBytes, randomUUID } from 'node:crypto';
import type { ApiRequest } from '../../src/client/types.js';
import { defineSuite, type CheckContext, type GateActor } from '../../src/runner/check.js';
import { createCustomer } from './customers.js';
import { expectGateError } from './errors.js';
import { lockQuote, openSession } from './rails.js';

/** Enough leases to pass the partners a profile declares without rails (bounded). */
const MAX_OTHER_LEASES = 6;
const ALNUM = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** A well-formed key no target issued: sk_test_ plus 32 random characters. */
function unknownTestKey(): string {
  return 'sk_test_' + Array.from(randomBytes(32), (b) => ALNUM[b % ALNUM.length]).join('');
}

/** A cheap secret-key read every partner may make. */
const PROBE: Pick<ApiRequest, 'method' | 'path'> = { method: 'GET', path: '/gate_sessions' };

/** Another tenant with rail entitlement, so rail access (403) cannot be the reason for its answer. */
function otherRailPartner(ctx: CheckContext): GateActor {
  let other = ctx.gate.other();
  for (let i = 1; i < MAX_OTHER_LEASES && other.partner.rails !== true; i++) {
    try {
      other = ctx.gate.other();
    } catch {
      break; // no further tenant: keep the one we have
    }
  }
  return other;
}

const sessionPath = (id: string) => `/gate_sessions/${encodeURIComponent(id)}`;

export default defineSuite({
  service: 'gate',
  section: 'Authentication',
  checks: [
    {
      name: 'a request without credentials gives 401 unauthorized',
      requirements: ['GATE-AUTH-MISSING-401', 'GATE-ERR-401-UNAUTHORIZED'],
      needs: ['gate.partner'],
      async run(ctx: CheckContext) {
        const ex = await ctx.gate.rawClient().request({ ...PROBE, auth: 'none', retry: false });
        expectGateError(ctx, ex, 401, 'GATE-AUTH-MISSING-401');
      },
    },
    {
      name: 'a malformed Authorization header or an unknown key gives 401 unauthorized',
      requirements: ['GATE-AUTH-MALFORMED-401', 'GATE-ERR-401-UNAUTHORIZED'],
      needs: ['gate.partner'],
      async run(ctx: CheckContext) {
        const raw = ctx.gate.rawClient();
        const credentials: { what: string; auth: ApiRequest['auth'] }[] = [
          { what: 'a Basic header', auth: { header: 'Basic cmFtcGFydDpyYW1wYXJ0' } },
          { what: 'a bearer that is not a key', auth: { bearer: 'not-an-api-key' } },
          { what: 'a well-formed key the target never issued', auth: { bearer: unknownTestKey() } },
        ];
        for (const c of credentials) {
          const ex = await raw.request({ ...PROBE, auth: c.auth, retry: false });
          ctx.expect.that(ex.status === 401, `${c.what} gives 401`, { requirement: 'GATE-AUTH-MALFORMED-401', expected: 401, actual: ex.status, exchange: ex });
          expectGateError(ctx, ex, 401, 'GATE-AUTH-MALFORMED-401');
        }
      },
    },
    {
      name: 'a revoked secret key gives 403 forbidden',
      requirements: ['GATE-AUTH-REVOKED-403', 'GATE-ERR-403-FORBIDDEN'],
      needs: ['gate.revokedKey'],
      async run(ctx: CheckContext) {
        const revoked = ctx.profile.gate.partners.find((p) => p.revokedSecretKey)!.revokedSecretKey!;
        const ex = await ctx.gate.rawClient().request({ ...PROBE, auth: { bearer: revoked }, retry: false });
        expectGateError(ctx, ex, 403, 'GATE-AUTH-REVOKED-403');
      },
    },
    {
      name: 'a test key on the production base gives 403 forbidden',
      requirements: ['GATE-AUTH-MODE-MISMATCH-403', 'GATE-ERR-403-FORBIDDEN'],
      needs: ['gate.partner', 'gate.production'],
      async run(ctx: CheckContext) {
        const { partner } = ctx.gate.partner();
        const ex = await ctx.gate.productionClient().request({ ...PROBE, auth: { bearer: partner.secretKey }, retry: false });
        expectGateError(ctx, ex, 403, 'GATE-AUTH-MODE-MISMATCH-403');
      },
    },
    {
      name: 'a live key on the sandbox base gives 403 forbidden',
      requirements: ['GATE-AUTH-MODE-MISMATCH-403', 'GATE-ERR-403-FORBIDDEN'],
      needs: ['gate.liveKey'],
      async run(ctx: CheckContext) {
        const live = ctx.profile.gate.partners.find((p) => p.liveSecretKey)!.liveSecretKey!;
        const ex = await ctx.gate.rawClient().request({ ...PROBE, auth: { bearer: live }, retry: false });
        expectGateError(ctx, ex, 403, 'GATE-AUTH-MODE-MISMATCH-403');
      },
    },
    {
      name: 'a publishable key cannot list or create sessions',
      requirements: ['GATE-AUTH-PK-SECRET-ROUTE'],
      needs: ['gate.publishableKey'],
      async run(ctx: CheckContext) {
        const R = 'GATE-AUTH-PK-SECRET-ROUTE';
        const { client } = ctx.gate.embed();
        const list = await client.request({ ...PROBE, auth: 'publishable', retry: false });
        // The rule says a publishable key is for bootstrap only; whether the refusal is 401
        // (not a credential for this route) or 403 (a known key without the right) is not shown.
        const create = await client.request({
          method: 'POST',
          path: '/gate_sessions',
          body: { ...(ctx.profile.gate.sessionDefaults ?? {}) },
          idempotencyKey: true,
          auth: 'publishable',
          retry: false,
        });
        for (const ex of [list, create]) {
          ctx.expect.status(ex, [401, 403], R);
          expectGateError(ctx, ex, ex.status, R);
          ctx.observe('gate-publishable-key-on-secret-route', ex.status, `${ex.request.method} /gate_sessions with a publishable key`);
        }
      },
    },
    {
      name: "another partner's session reads and cancels as 404 and stays open",
      requirements: ['GATE-ERR-CROSS-TENANT-404'],
      needs: ['gate.partner', 'gate.secondPartner'],
      async run(ctx: CheckContext) {
        const R = 'GATE-ERR-CROSS-TENANT-404';
        const owner = ctx.gate.partner();
        const id = await openSession(ctx, owner, R);
        const other = ctx.gate.other();
        // Endpoints: "Partner-scoped ids of another partner return 404"; Errors: "cross-tenant is 404, never 403".
        // The 403 of Authentication rule 3 is the clientSecret of another partner's session on bootstrap (Embed).
        expectGateError(ctx, await other.client.get(sessionPath(id)), 404, R);
        expectGateError(ctx, await other.client.post(`${sessionPath(id)}/cancel`, undefined, { retry: false }), 404, R);
        const after = ctx.expect.status(await owner.client.get(sessionPath(id)), 200, R);
        ctx.expect.equal(after.json?.status, 'open', "another partner's cancel leaves the session open", { requirement: R, exchange: after });
      },
    },
    {
      name: "another partner's signed quote reads as 404",
      requirements: ['GATE-AUTH-CROSS-TENANT-QUOTE'],
      needs: ['gate.rails', 'gate.secondPartner'],
      async run(ctx: CheckContext) {
        const R = 'GATE-AUTH-CROSS-TENANT-QUOTE';
        const owner = ctx.gate.rails();
        const q = await lockQuote(ctx, owner, 'on_ramp', R);
        const path = `/quotes/${encodeURIComponent(q.quoteId)}`;
        const other = otherRailPartner(ctx);
        const foreign = await other.client.get(path);
        if (other.partner.rails !== true && foreign.status === 403) {
          expectGateError(ctx, foreign, 403, R);
          ctx.observe('gate-foreign-quote-without-rails', 403, 'the other tenant lacks rails: rail access is refused before tenancy');
        } else {
          expectGateError(ctx, foreign, 404, R);
        }
        // The owner still reads it, so the 404 was about tenancy and not a wrong id.
        ctx.expect.status(await owner.client.get(path), 200, R);
      },
    },
    {
      name: "another partner's deliveries list does not show the partner's delivery",
      requirements: ['GATE-AUTH-CROSS-TENANT-DELIVERY'],
      needs: ['gate.webhooks', 'gate.secondPartner'],
      async run(ctx: CheckContext) {
        const R = 'GATE-AUTH-CROSS-TENANT-DELIVERY';
        const owner = await ctx.gate.webhooks();
        const made = await owner.client.post('/webhooks/test', undefined, { retry: false });
        ctx.expect.that(made.status >= 200 && made.status < 300, 'POST /webhooks/test enqueues a delivery', { requirement: R, expected: '2xx', actual: made.status, exchange: made });
        const deliveryId = made.json?.id;
        ctx.expect.that(typeof deliveryId === 'string' && deliveryId.length > 0, 'the test delivery has an id', { requirement: R, exchange: made });
        const ids = async (actor: GateActor) => {
          const ex = ctx.expect.status(await actor.client.get('/webhooks/deliveries', { limit: 200 }), 200, R);
          const data: unknown = ex.json?.data;
          ctx.expect.that(Array.isArray(data), 'the deliveries list has a data array', { requirement: R, exchange: ex });
          return (data as { id?: unknown }[]).map((d) => d?.id);
        };
        // Most recent first: the owner's new delivery is on its first page.
        ctx.expect.that((await ids(owner)).includes(deliveryId), "the owner's list shows its new delivery", { requirement: R, actual: deliveryId });
        const other = ctx.gate.other();
        ctx.expect.that(!(await ids(other)).includes(deliveryId), "another partner's list does not show the delivery", { requirement: R, actual: deliveryId });
      },
    },
    {
      name: "another partner's customer cannot be patched or deleted (404, unchanged)",
      requirements: ['GATE-AUTH-CROSS-TENANT-CUSTOMER-WRITE'],
      needs: ['gate.partner', 'gate.secondPartner'],
      async run(ctx: CheckContext) {
        const R = 'GATE-AUTH-CROSS-TENANT-CUSTOMER-WRITE';
        const owner = ctx.gate.partner();
        const { customer } = await createCustomer(ctx, owner, R);
        const path = `/customers/${encodeURIComponent(customer.id)}`;
        const other = ctx.gate.other();
        expectGateError(ctx, await other.client.patch(path, { first_name: `Mallory-${randomUUID().slice(0, 8)}` }, { retry: false }), 404, R);
        expectGateError(ctx, await other.client.delete(path, { retry: false }), 404, R);
        const after = ctx.expect.status(await owner.client.get(path), 200, R);
        ctx.expect.equal(after.json?.first_name, customer.first_name, "another partner's PATCH leaves first_name unchanged", { requirement: R, exchange: after });
      },
    },
  ],
});
