// Pools "Authentication" and "Errors": key modes, the entitlement 403 codes,
// 401 for missing or invalid keys, 404 for unknown and cross-tenant ids.
import { randomBytes, randomUUID } from 'node:crypto';
import { defineSuite, type CheckContext, type PoolsActor } from '../../src/runner/check.js';
import type { PoolsPartner } from '../../src/profile/schema.js';
import { PoolsList, Trade, TradesPage } from '../../src/model/schemas/pools/index.js';
import {
  createFirmQuote,
  mainPool,
  poolPath,
  pollPath,
  poolsProfile,
  quoteBody,
  quotePath,
  reservedTrade,
  tradePath,
} from './support/pools.js';

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
/** A well-formed secret key that no target issued. */
function unissuedSecretKey(): string {
  return 'sk_test_' + [...randomBytes(32)].map((b) => ALNUM[b % ALNUM.length]).join('');
}

/** The entitled routes that need no existing object: capabilities, quote, balance. */
async function expectEntitlement403(ctx: CheckContext, actor: PoolsActor, pool: string, code: string, requirement: string) {
  // The legs of the body follow the pool id (<fiat>-<crypto>), so only the entitlement can be wrong.
  const [fiatCurrency, cryptoCurrency] = pool.split('-');
  const body = quoteBody(ctx, { fiatCurrency, cryptoCurrency });
  const exchanges = [
    await actor.client.get(poolPath(pool, '/capabilities')),
    await actor.client.post(poolPath(pool, '/quote'), body),
    await actor.client.get(poolPath(pool, '/balance')),
  ];
  for (const ex of exchanges) ctx.expect.error(ex, 403, 'forbidden', { code, requirement });
}

function stateCheck(state: PoolsPartner['state'], code: string, requirement: string, role: 'pools.notEnabled' | 'pools.suspended' | 'pools.kycPending') {
  return {
    name: `a ${state} partner gets 403 ${code} on capabilities, quote and balance`,
    requirements: [requirement, 'POOLS-ERR-ENVELOPE'],
    needs: [role],
    async run(ctx: CheckContext) {
      const actor = ctx.pools.byState(state);
      await expectEntitlement403(ctx, actor, mainPool(ctx), code, requirement);
    },
  };
}

export default defineSuite({
  service: 'pools',
  section: 'Authentication',
  checks: [
    {
      name: 'a missing or an unissued secret key gives 401',
      requirements: ['POOLS-AUTH-MISSING-KEY-401', 'POOLS-AUTH-INVALID-KEY-401', 'POOLS-ERR-ENVELOPE'],
      needs: ['pools.partner'],
      async run(ctx: CheckContext) {
        const client = ctx.pools.rawClient();
        const missing = await client.request({ method: 'GET', path: '/pools/trades', auth: 'none', retry: false });
        ctx.expect.error(missing, 401, 'unauthorized', { requirement: 'POOLS-AUTH-MISSING-KEY-401' });
        const invalid = await client.request({ method: 'GET', path: '/pools/trades', auth: { bearer: unissuedSecretKey() }, retry: false });
        ctx.expect.error(invalid, 401, 'unauthorized', { requirement: 'POOLS-AUTH-INVALID-KEY-401' });
        const malformed = await client.request({ method: 'GET', path: '/pools/trades', auth: { bearer: 'not-a-key' }, retry: false });
        ctx.expect.error(malformed, 401, 'unauthorized', { requirement: 'POOLS-AUTH-INVALID-KEY-401' });
      },
    },
    {
      name: 'a publishable key lists pools and a secret key does too',
      requirements: ['POOLS-AUTH-PK-DISCOVERY', 'POOLS-DISC-SECRET-KEY'],
      needs: ['pools.publishableKey'],
      async run(ctx: CheckContext) {
        const withPk = poolsProfile(ctx).partners.find((p) => p.publishableKey)!;
        const client = ctx.pools.rawClient();
        const pk = await client.request({ method: 'GET', path: '/pools', auth: { bearer: withPk.publishableKey! } });
        ctx.expect.status(pk, 200, 'POOLS-AUTH-PK-DISCOVERY');
        ctx.expect.schema(pk, PoolsList, 'POOLS-AUTH-PK-DISCOVERY');
        const sk = await client.request({ method: 'GET', path: '/pools', auth: { bearer: withPk.secretKey } });
        ctx.expect.status(sk, 200, 'POOLS-DISC-SECRET-KEY');
        ctx.expect.schema(sk, PoolsList, 'POOLS-DISC-SECRET-KEY');
      },
    },
    {
      name: 'a publishable key on every secret route gives 403 key_mode_mismatch',
      requirements: ['POOLS-AUTH-PK-SECRET-ROUTE-403', 'POOLS-ERR-ENVELOPE'],
      needs: ['pools.publishableKey'],
      async run(ctx: CheckContext) {
        const withPk = poolsProfile(ctx).partners.find((p) => p.publishableKey)!;
        const client = ctx.pools.rawClient();
        const auth = { bearer: withPk.publishableKey! };
        const pool = mainPool(ctx);
        const id = `rampart-${randomUUID()}`;
        const routes = [
          { method: 'GET', path: poolPath(pool, '/capabilities') },
          { method: 'POST', path: poolPath(pool, '/quote'), body: quoteBody(ctx) },
          { method: 'POST', path: poolPath(pool, '/transact'), body: { quoteId: id }, idempotencyKey: true },
          { method: 'GET', path: poolPath(pool, '/balance') },
          { method: 'GET', path: quotePath(id) },
          { method: 'POST', path: quotePath(id, '/reject') },
          { method: 'GET', path: pollPath(id) },
          { method: 'GET', path: '/pools/trades' },
          { method: 'GET', path: tradePath(id) },
          { method: 'GET', path: '/pools/funding' },
          { method: 'GET', path: '/pools/ledger' },
        ] as const;
        for (const r of routes) {
          const ex = await client.request({ ...r, auth, retry: false });
          ctx.expect.error(ex, 403, 'forbidden', { code: 'key_mode_mismatch', requirement: 'POOLS-AUTH-PK-SECRET-ROUTE-403' });
        }
      },
    },
    {
      name: 'a sandbox (test) secret key on the production base gives 403 key_mode_mismatch',
      requirements: ['POOLS-AUTH-KEY-MODE-ENV-403', 'POOLS-ERR-ENVELOPE'],
      needs: ['pools.partner', 'pools.production'],
      async run(ctx: CheckContext) {
        const actor = ctx.pools.partner();
        const prod = ctx.pools.productionClient();
        for (const r of [
          { method: 'GET', path: '/pools/trades' },
          { method: 'GET', path: poolPath(mainPool(ctx), '/capabilities') },
        ] as const) {
          const ex = await prod.request({ ...r, auth: { bearer: actor.partner.secretKey }, retry: false });
          ctx.expect.error(ex, 403, 'forbidden', { code: 'key_mode_mismatch', requirement: 'POOLS-AUTH-KEY-MODE-ENV-403' });
        }
      },
    },
    stateCheck('not_enabled', 'pools_not_enabled', 'POOLS-AUTH-NOT-ENABLED-403', 'pools.notEnabled'),
    stateCheck('suspended', 'pool_access_suspended', 'POOLS-AUTH-SUSPENDED-403', 'pools.suspended'),
    stateCheck('kyc_pending', 'kyc_not_approved', 'POOLS-AUTH-KYC-403', 'pools.kycPending'),
    {
      name: 'a pool outside the allowed set gives 403 pool_not_allowed on capabilities, quote and balance',
      requirements: ['POOLS-AUTH-POOL-NOT-ALLOWED-403', 'POOLS-ERR-ENVELOPE'],
      needs: ['pools.partner', 'pools.notAllowedPool'],
      async run(ctx: CheckContext) {
        await expectEntitlement403(ctx, ctx.pools.partner(), poolsProfile(ctx).pools.notAllowed!, 'pool_not_allowed', 'POOLS-AUTH-POOL-NOT-ALLOWED-403');
      },
    },
    {
      name: 'secret-only read routes answer a KYC-pending partner without an entitlement 403',
      requirements: ['POOLS-AUTH-READ-ROUTES-KEY-MODE-ONLY'],
      needs: ['pools.kycPending'],
      async run(ctx: CheckContext) {
        const actor = ctx.pools.byState('kyc_pending');
        const trades = ctx.expect.status(await actor.client.get('/pools/trades', { limit: 1 }), 200, 'POOLS-AUTH-READ-ROUTES-KEY-MODE-ONLY');
        ctx.expect.schema(trades, TradesPage, 'POOLS-AUTH-READ-ROUTES-KEY-MODE-ONLY');
        const ledger = await actor.client.get('/pools/ledger');
        ctx.expect.status(ledger, 200, 'POOLS-AUTH-READ-ROUTES-KEY-MODE-ONLY');
        const funding = await actor.client.get('/pools/funding');
        // The funding route may 404 by the balance gate; what it must not do is answer an entitlement 403.
        ctx.expect.status(funding, actor.partner.balanceGate ? 200 : 404, 'POOLS-AUTH-READ-ROUTES-KEY-MODE-ONLY');
        const unknown = await actor.client.get(quotePath(`rampart-${randomUUID()}`));
        ctx.expect.error(unknown, 404, 'not_found', { requirement: 'POOLS-AUTH-READ-ROUTES-KEY-MODE-ONLY' });
      },
    },
    {
      name: 'unknown quote, trade and transaction ids give 404',
      requirements: ['POOLS-ERR-UNKNOWN-ID-404', 'POOLS-ERR-ENVELOPE'],
      needs: ['pools.partner'],
      async run(ctx: CheckContext) {
        const actor = ctx.pools.partner();
        const id = `rampart-${randomUUID()}`;
        const exchanges = [
          await actor.client.get(quotePath(id)),
          await actor.client.post(quotePath(id, '/reject')),
          await actor.client.get(pollPath(id)),
          await actor.client.get(tradePath(id)),
          await actor.client.post(poolPath(mainPool(ctx), '/transact'), { quoteId: id }, { idempotencyKey: true }),
        ];
        for (const ex of exchanges) ctx.expect.error(ex, 404, 'not_found', { requirement: 'POOLS-ERR-UNKNOWN-ID-404' });
      },
    },
    {
      name: "another partner's quote, trade and transaction give 404 and stay out of its trades list",
      requirements: ['POOLS-ERR-CROSS-TENANT-404', 'POOLS-TRADES-PARTNER-SCOPED', 'POOLS-ERR-ENVELOPE'],
      needs: ['pools.partner', 'pools.secondPartner'],
      async run(ctx: CheckContext) {
        const owner = ctx.pools.partner();
        const other = ctx.pools.other();
        const R = 'POOLS-ERR-CROSS-TENANT-404';
        // One active quote (reject and transact must not touch it) and one reserved trade.
        const { quote: active } = await createFirmQuote(ctx, owner, R);
        const trade = await reservedTrade(ctx, owner, R);
        const exchanges = [
          await other.client.get(quotePath(active.quoteId)),
          await other.client.post(quotePath(active.quoteId, '/reject')),
          await other.client.post(poolPath(mainPool(ctx), '/transact'), { quoteId: active.quoteId }, { idempotencyKey: true }),
          await other.client.get(pollPath(trade.quoteId)),
          await other.client.get(tradePath(trade.transactId)),
        ];
        for (const ex of exchanges) ctx.expect.error(ex, 404, 'not_found', { requirement: R });
        const still = await owner.client.get(quotePath(active.quoteId));
        ctx.expect.status(still, 200, R);
        ctx.expect.equal(still.json?.status, 'active', "the other partner's reject and transact left the quote active", { requirement: R, exchange: still });

        const ownTrade = ctx.expect.schema(ctx.expect.status(await owner.client.get(tradePath(trade.transactId)), 200, R), Trade, R);
        const page = await other.client.get('/pools/trades', { created_after: ownTrade.createdAt, limit: 100 });
        const list = ctx.expect.schema(ctx.expect.status(page, 200, 'POOLS-TRADES-PARTNER-SCOPED'), TradesPage, 'POOLS-TRADES-PARTNER-SCOPED');
        ctx.expect.that(!list.data.some((t) => t.transactId === trade.transactId), "another partner's trade is absent from the trades list", {
          requirement: 'POOLS-TRADES-PARTNER-SCOPED',
          exchange: page,
        });
      },
    },
  ],
});
