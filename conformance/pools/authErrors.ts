// Pools "Authentication" and "Errors": key modes, the entitlement 403 codes,
// 401 for missing or invalid keys, 404 for unknown and cross-tenant ids.
import { randomBytes } from 'node:crypto';
import { check, defineSuite, type CheckTools, type RequirementId } from '../../src/runner/check.js';
import type { PoolsActor } from '../../src/needs/define.js';
import { PoolsList, Trade, TradesPage } from '../../src/model/schemas/pools/index.js';
import { expect2xx } from '../../support/expect.js';
import { expectPoolsError } from '../../support/pools/errors.js';
import {
  createFirmQuote,
  mainPool,
  poolPath,
  pollPath,
  quoteBody,
  quotePath,
  readTrade,
  reservedTrade,
  tradePath,
  unknownLike,
} from '../../support/pools/pools.js';

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
/** A well-formed secret key that no target issued. */
function unissuedSecretKey(): string {
  return 'sk_test_' + [...randomBytes(32)].map((b) => ALNUM[b % ALNUM.length]).join('');
}

/** An id that names nothing and follows no target's format. */
const noSuchId = () => `rampart${randomBytes(12).toString('hex')}`;

/**
 * The four entitled routes: capabilities, quote and balance need no object and
 * must give the 403 code; transact needs a quote — the partner's own on the
 * main pool where it can make one, else an id naming nothing — and where the
 * id is also wrong (another pool's quote, an unknown one) the precedence is not
 * shown: its 400 or 404 is observed, any other answer must be the 403 code.
 */
async function expectEntitlement403(t: CheckTools, actor: PoolsActor, pool: string, code: string, requirement: RequirementId) {
  // The legs of the body follow the pool id (<fiat>-<crypto>), so only the entitlement can be wrong.
  const [fiatCurrency, cryptoCurrency] = pool.split('-');
  const body = quoteBody(t, { fiatCurrency, cryptoCurrency });
  const exchanges = [
    await actor.client.get(poolPath(pool, '/capabilities')),
    await actor.client.post(poolPath(pool, '/quote'), body, { retry: false }),
    await actor.client.get(poolPath(pool, '/balance')),
  ];
  for (const ex of exchanges) expectPoolsError(t, ex, 403, { code, requirement });
  const own = pool === mainPool(t) ? undefined : await actor.client.post(poolPath(mainPool(t), '/quote'), quoteBody(t, { type: 'firm' }), { retry: false });
  const quoteId = own && own.status >= 200 && own.status < 300 && typeof own.json?.quoteId === 'string' ? (own.json.quoteId as string) : noSuchId();
  const tx = await actor.client.post(poolPath(pool, '/transact'), { quoteId }, { idempotencyKey: true, retry: false });
  if (tx.status === 400 || tx.status === 404)
    t.observe(
      'pools-entitlement-transact',
      { status: tx.status, code: tx.json?.code },
      'transact of a quote the route cannot take: which refusal comes first is not shown',
    );
  else expectPoolsError(t, tx, 403, { code, requirement });
}

/**
 * Every secret-only read route (funding, ledger, trades, quotes, transactions, reject), asked by a partner an
 * entitled route refuses (`state`): only key_mode_mismatch may refuse a secret-only read, and a valid sandbox
 * secret key on the sandbox base leaves no key mode to mismatch, so no 403 at all.
 */
async function expectReadsWithout403(t: CheckTools, actor: PoolsActor, state: string): Promise<void> {
  const R = 'POOLS-AUTH-READ-ROUTES-KEY-MODE-ONLY';
  // The partner cannot quote, so the object routes are probed with an id that names nothing: any answer but a 403 is within this rule.
  const id = noSuchId();
  const reads = [
    await actor.client.get('/pools/trades', { limit: 1 }),
    await actor.client.get('/pools/ledger'),
    await actor.client.get('/pools/funding'),
    await actor.client.get(quotePath(id)),
    await actor.client.post(quotePath(id, '/reject'), undefined, { retry: false }),
    await actor.client.get(pollPath(id)),
    await actor.client.get(tradePath(id)),
  ];
  for (const ex of reads) {
    t.expect.that(
      ex.status !== 403,
      `${ex.request.method} ${new URL(ex.request.url).pathname} answers a ${state} partner without a 403 (only key_mode_mismatch may refuse a secret-only read)`,
      { requirement: R, actual: `${ex.status} ${ex.bodyText.slice(0, 200)}`, exchange: ex },
    );
  }
  t.expect.schema(expect2xx(t, reads[0]!, R, 'GET /pools/trades'), TradesPage, R);
  t.observe(`pools-${state}-read-statuses`, Object.fromEntries(reads.map((ex) => [`${ex.request.method} ${new URL(ex.request.url).pathname}`, ex.status])));
}

export default defineSuite({
  service: 'pools',
  section: 'Authentication',
  checks: [
    check({
      name: 'a request without a key gives 401 on every route, discovery included; an unissued or malformed key gives 401',
      requirements: ['POOLS-AUTH-MISSING-KEY-401', 'POOLS-AUTH-INVALID-KEY-401', 'POOLS-ERR-ENVELOPE'],
      needs: ['poolsRaw'],
      async run({ poolsRaw: client }, t: CheckTools) {
        const pool = mainPool(t);
        const id = noSuchId();
        // Every documented route: discovery takes a publishable or a secret key, every other route a secret key.
        const routes = [
          { method: 'GET', path: '/pools' },
          { method: 'GET', path: poolPath(pool, '/capabilities') },
          { method: 'POST', path: poolPath(pool, '/quote'), body: quoteBody(t) },
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
          const missing = await client.request({ ...r, auth: 'none', retry: false });
          expectPoolsError(t, missing, 401, { requirement: 'POOLS-AUTH-MISSING-KEY-401' });
        }
        const invalid = await client.request({ method: 'GET', path: '/pools/trades', auth: { bearer: unissuedSecretKey() }, retry: false });
        expectPoolsError(t, invalid, 401, { requirement: 'POOLS-AUTH-INVALID-KEY-401' });
        const malformed = await client.request({ method: 'GET', path: '/pools/trades', auth: { bearer: 'not-a-key' }, retry: false });
        expectPoolsError(t, malformed, 401, { requirement: 'POOLS-AUTH-INVALID-KEY-401' });
      },
    }),
    check({
      name: 'a revoked secret key is an invalid key: 401 on discovery, reads and entitled routes',
      requirements: ['POOLS-AUTH-REVOKED-KEY-401', 'POOLS-ERR-ENVELOPE'],
      needs: ['poolsRevokedKey', 'poolsRaw'],
      async run({ poolsRevokedKey: revoked, poolsRaw: client }, t: CheckTools) {
        const R = 'POOLS-AUTH-REVOKED-KEY-401';
        // The pools 403 codes name no revoked key: a key that no longer authenticates is an invalid key (401).
        for (const r of [
          { method: 'GET', path: '/pools' },
          { method: 'GET', path: '/pools/trades' },
          { method: 'GET', path: poolPath(mainPool(t), '/capabilities') },
        ] as const) {
          const ex = await client.request({ ...r, auth: { bearer: revoked.key }, retry: false });
          expectPoolsError(t, ex, 401, { requirement: R });
          t.observe('pools-revoked-key-code', ex.json?.code);
        }
      },
    }),
    check({
      name: 'a live secret key on the sandbox gives 403 key_mode_mismatch on discovery, reads and entitled routes',
      requirements: ['POOLS-AUTH-LIVE-KEY-SANDBOX-403', 'POOLS-ERR-ENVELOPE'],
      needs: ['poolsLiveKey', 'poolsRaw'],
      async run({ poolsLiveKey: live, poolsRaw: client }, t: CheckTools) {
        for (const r of [
          { method: 'GET', path: '/pools' },
          { method: 'GET', path: '/pools/trades' },
          { method: 'GET', path: poolPath(mainPool(t), '/capabilities') },
        ] as const) {
          const ex = await client.request({ ...r, auth: { bearer: live.key }, retry: false });
          expectPoolsError(t, ex, 403, { code: 'key_mode_mismatch', requirement: 'POOLS-AUTH-LIVE-KEY-SANDBOX-403' });
        }
      },
    }),
    check({
      name: 'a publishable key lists pools and a secret key does too',
      requirements: ['POOLS-AUTH-PK-DISCOVERY', 'POOLS-DISC-SECRET-KEY'],
      needs: ['poolsPublishable', 'poolsRaw'],
      async run({ poolsPublishable: actor, poolsRaw: client }, t: CheckTools) {
        const pk = expect2xx(
          t,
          await client.request({ method: 'GET', path: '/pools', auth: { bearer: actor.partner.publishableKey! } }),
          'POOLS-AUTH-PK-DISCOVERY',
        );
        t.expect.schema(pk, PoolsList, 'POOLS-AUTH-PK-DISCOVERY');
        const sk = expect2xx(t, await client.request({ method: 'GET', path: '/pools', auth: { bearer: actor.partner.secretKey } }), 'POOLS-DISC-SECRET-KEY');
        t.expect.schema(sk, PoolsList, 'POOLS-DISC-SECRET-KEY');
      },
    }),
    check({
      name: 'a publishable key on every secret route gives 403 key_mode_mismatch',
      requirements: ['POOLS-AUTH-PK-SECRET-ROUTE-403', 'POOLS-ERR-ENVELOPE'],
      // The partner trades first (real ids of its own objects), so it must be funded as well as hold a publishable key.
      needs: ['poolsFundedPublishable', 'poolsRaw'],
      async run({ poolsFundedPublishable: actor, poolsRaw: client }, t: CheckTools) {
        // Real ids of the partner's own objects: the only thing wrong with each request is the key.
        const made = await reservedTrade(t, actor, 'POOLS-AUTH-PK-SECRET-ROUTE-403');
        const { quote } = await createFirmQuote(t, actor, 'POOLS-AUTH-PK-SECRET-ROUTE-403');
        const auth = { bearer: actor.partner.publishableKey! };
        const pool = mainPool(t);
        const routes = [
          { method: 'GET', path: poolPath(pool, '/capabilities') },
          { method: 'POST', path: poolPath(pool, '/quote'), body: quoteBody(t) },
          { method: 'POST', path: poolPath(pool, '/transact'), body: { quoteId: quote.quoteId }, idempotencyKey: true },
          { method: 'GET', path: poolPath(pool, '/balance') },
          { method: 'GET', path: quotePath(quote.quoteId) },
          { method: 'POST', path: quotePath(quote.quoteId, '/reject') },
          { method: 'GET', path: pollPath(made.quoteId) },
          { method: 'GET', path: '/pools/trades' },
          { method: 'GET', path: tradePath(made.transactId) },
          { method: 'GET', path: '/pools/funding' },
          { method: 'GET', path: '/pools/ledger' },
        ] as const;
        for (const r of routes) {
          const ex = await client.request({ ...r, auth, retry: false });
          expectPoolsError(t, ex, 403, { code: 'key_mode_mismatch', requirement: 'POOLS-AUTH-PK-SECRET-ROUTE-403' });
        }
      },
    }),
    check({
      name: 'a sandbox (test) secret key on the production base gives 403 key_mode_mismatch',
      requirements: ['POOLS-AUTH-KEY-MODE-ENV-403', 'POOLS-ERR-ENVELOPE'],
      needs: ['poolsPartner', 'poolsProduction'],
      async run({ poolsPartner: actor, poolsProduction: prod }, t: CheckTools) {
        for (const r of [
          { method: 'GET', path: '/pools/trades' },
          { method: 'GET', path: poolPath(mainPool(t), '/capabilities') },
        ] as const) {
          const ex = await prod.request({ ...r, auth: { bearer: actor.partner.secretKey }, retry: false });
          expectPoolsError(t, ex, 403, { code: 'key_mode_mismatch', requirement: 'POOLS-AUTH-KEY-MODE-ENV-403' });
        }
      },
    }),
    check({
      name: 'a not_enabled partner gets 403 pools_not_enabled on capabilities, quote, transact and balance',
      requirements: ['POOLS-AUTH-NOT-ENABLED-403', 'POOLS-ERR-ENVELOPE'],
      needs: ['poolsNotEnabled'],
      async run({ poolsNotEnabled: actor }, t: CheckTools) {
        await expectEntitlement403(t, actor, mainPool(t), 'pools_not_enabled', 'POOLS-AUTH-NOT-ENABLED-403');
      },
    }),
    check({
      name: 'a suspended partner gets 403 pool_access_suspended on capabilities, quote, transact and balance',
      requirements: ['POOLS-AUTH-SUSPENDED-403', 'POOLS-ERR-ENVELOPE'],
      needs: ['poolsSuspended'],
      async run({ poolsSuspended: actor }, t: CheckTools) {
        await expectEntitlement403(t, actor, mainPool(t), 'pool_access_suspended', 'POOLS-AUTH-SUSPENDED-403');
      },
    }),
    check({
      name: 'a kyc_pending partner gets 403 kyc_not_approved on capabilities, quote, transact and balance',
      requirements: ['POOLS-AUTH-KYC-403', 'POOLS-ERR-ENVELOPE'],
      needs: ['poolsKycPending'],
      async run({ poolsKycPending: actor }, t: CheckTools) {
        await expectEntitlement403(t, actor, mainPool(t), 'kyc_not_approved', 'POOLS-AUTH-KYC-403');
      },
    }),
    check({
      name: 'a pool outside the allowed set gives 403 pool_not_allowed on capabilities, quote, transact and balance',
      requirements: ['POOLS-AUTH-POOL-NOT-ALLOWED-403', 'POOLS-ERR-ENVELOPE'],
      needs: ['poolsNotAllowedPool'],
      async run({ poolsNotAllowedPool: { actor, pool } }, t: CheckTools) {
        await expectEntitlement403(t, actor, pool, 'pool_not_allowed', 'POOLS-AUTH-POOL-NOT-ALLOWED-403');
      },
    }),
    check({
      name: 'secret-only read routes answer a KYC-pending partner without an entitlement 403',
      requirements: ['POOLS-AUTH-READ-ROUTES-KEY-MODE-ONLY'],
      needs: ['poolsKycPending'],
      async run({ poolsKycPending: actor }, t: CheckTools) {
        await expectReadsWithout403(t, actor, 'kyc-pending');
      },
    }),
    check({
      name: 'secret-only read routes answer a partner whose pools are not enabled without an entitlement 403',
      requirements: ['POOLS-AUTH-READ-ROUTES-KEY-MODE-ONLY'],
      needs: ['poolsNotEnabled'],
      async run({ poolsNotEnabled: actor }, t: CheckTools) {
        await expectReadsWithout403(t, actor, 'not-enabled');
      },
    }),
    check({
      name: 'secret-only read routes answer a suspended partner without an entitlement 403',
      requirements: ['POOLS-AUTH-READ-ROUTES-KEY-MODE-ONLY'],
      needs: ['poolsSuspended'],
      async run({ poolsSuspended: actor }, t: CheckTools) {
        await expectReadsWithout403(t, actor, 'suspended');
      },
    }),
    check({
      name: 'unknown quote, trade and transaction ids give 404',
      requirements: ['POOLS-ERR-UNKNOWN-ID-404', 'POOLS-ERR-ENVELOPE'],
      needs: ['poolsPartner'],
      async run({ poolsPartner: actor }, t: CheckTools) {
        const R = 'POOLS-ERR-UNKNOWN-ID-404';
        // Ids shaped like the target's own, naming nothing: a target that validates id formats still reads them as unknown.
        const made = await reservedTrade(t, actor, R);
        const quoteId = unknownLike(made.quoteId);
        const transactId = unknownLike(made.transactId);
        const exchanges = [
          await actor.client.get(quotePath(quoteId)),
          await actor.client.post(quotePath(quoteId, '/reject'), undefined, { retry: false }),
          await actor.client.get(pollPath(quoteId)),
          await actor.client.get(tradePath(transactId)),
          await actor.client.post(poolPath(mainPool(t), '/transact'), { quoteId }, { idempotencyKey: true, retry: false }),
        ];
        for (const ex of exchanges) expectPoolsError(t, ex, 404, { requirement: R });
      },
    }),
    check({
      name: "another partner's quote, trade and transaction give 404 and stay out of its trades list",
      requirements: ['POOLS-ERR-CROSS-TENANT-404', 'POOLS-TRADES-PARTNER-SCOPED', 'POOLS-ERR-ENVELOPE'],
      needs: ['poolsPartner', 'poolsOtherTenant'],
      async run({ poolsPartner: owner, poolsOtherTenant: other }, t: CheckTools) {
        const R = 'POOLS-ERR-CROSS-TENANT-404';
        // One active quote (reject and transact must not touch it) and one reserved trade.
        const { quote: active } = await createFirmQuote(t, owner, R);
        const trade = await reservedTrade(t, owner, R);
        const exchanges = [
          await other.client.get(quotePath(active.quoteId)),
          await other.client.post(quotePath(active.quoteId, '/reject'), undefined, { retry: false }),
          await other.client.post(poolPath(mainPool(t), '/transact'), { quoteId: active.quoteId }, { idempotencyKey: true, retry: false }),
          await other.client.get(pollPath(trade.quoteId)),
          await other.client.get(tradePath(trade.transactId)),
        ];
        for (const ex of exchanges) expectPoolsError(t, ex, 404, { requirement: R });
        const still = expect2xx(t, await owner.client.get(quotePath(active.quoteId)), R);
        t.expect.equal(still.json?.status, 'active', "the other partner's reject and transact left the quote active", { requirement: R, exchange: still });
        const own = await readTrade(t, owner, trade.transactId, R);
        t.expect.equal(own.status, 'reserved', "the other partner's poll did not advance the trade", { requirement: R });

        const page = expect2xx(t, await other.client.get('/pools/trades', { created_after: own.createdAt, limit: 100 }), 'POOLS-TRADES-PARTNER-SCOPED');
        const list = t.expect.schema(page, TradesPage, 'POOLS-TRADES-PARTNER-SCOPED');
        t.expect.that(
          !list.data.some((x: Trade) => x.transactId === trade.transactId || x.quoteId === active.quoteId),
          "another partner's trade is absent from the trades list",
          {
            requirement: 'POOLS-TRADES-PARTNER-SCOPED',
            exchange: page,
          },
        );
      },
    }),
  ],
});
