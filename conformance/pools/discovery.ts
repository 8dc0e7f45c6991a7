// Pools discovery (GET /pools) and per-pool capabilities.
import { check, defineSuite, type CheckTools } from '../../src/runner/check.js';
import type { Exchange } from '../../src/client/types.js';
import { Capabilities, POOLS_SIDES, PoolsList, TransactResponse } from '../../src/model/schemas/pools/index.js';
import { expect2xx } from '../../support/expect.js';
import { expectPoolsError } from '../../support/pools/errors.js';
import { keysMatching, keysNamed } from '../../support/pools/fieldNames.js';
import { createFirmQuote, mainPool, pollPath, poolPath, quotePath, readBalance, readCapabilities, tradePath } from '../../support/pools/pools.js';

const PAIR = /^[^-\s]+-[^-\s]+$/;
// cryptoNetwork values the spec names that are not EVM chains.
const NON_EVM_NETWORKS = ['tron', 'solana'];
/**
 * Field names that are the omitted internals themselves ("Liquidity sources, provider names, routing, reserves and
 * treasury data"), alone or inside the key that holds them ({ provider: { name } }). A generic word alone — provider,
 * route, reserve and their plurals — may name something else an additive field carries (a payment scheme, a link, the
 * partner's own reservation): observed with the other look-alikes, never failed.
 */
const INTERNAL_NAMES = [
  'liquidity source',
  'liquidity sources',
  'liquidity provider',
  'liquidity providers',
  'provider name',
  'provider names',
  'routing',
  'routing table',
  'liquidity route',
  'liquidity routes',
  'liquidity reserve',
  'liquidity reserves',
  'treasury',
  'treasury account',
  'treasury balance',
  'treasury data',
];
/** Words an additive field may carry without being such data: observed. */
const INTERNAL_WORD = /liquidity|provider|routing|^routes?$|^route[A-Z_]|^reserves?$|treasury/i;

export default defineSuite({
  service: 'pools',
  section: 'Resources and their fields > Pool',
  checks: [
    check({
      name: 'GET /pools lists pair-shaped pools with their legs and availability',
      requirements: ['POOLS-DISC-LIST-SHAPE', 'POOLS-DISC-ID-PAIR-SHAPED'],
      needs: ['poolsPartner'],
      async run({ poolsPartner: actor }, t: CheckTools) {
        const ex = expect2xx(t, await actor.client.get('/pools'), 'POOLS-DISC-LIST-SHAPE');
        // The pair shape first, on the raw items, so a non-pair id is reported as that rule and not as the list shape.
        const raw: unknown[] = Array.isArray(ex.json?.pools) ? ex.json.pools : [];
        for (const p of raw as Record<string, unknown>[]) {
          t.expect.that(typeof p?.id === 'string' && PAIR.test(p.id), `pool id ${JSON.stringify(p?.id)} is pair-shaped <fiat>-<crypto>`, {
            requirement: 'POOLS-DISC-ID-PAIR-SHAPED',
            exchange: ex,
          });
        }
        const { pools } = t.expect.schema(ex, PoolsList, 'POOLS-DISC-LIST-SHAPE');
        t.expect.that(
          pools.some((p) => p.id === mainPool(t)),
          `the profile's main pool ${mainPool(t)} is listed`,
          {
            requirement: 'POOLS-DISC-LIST-SHAPE',
            actual: pools.map((p) => p.id),
            exchange: ex,
          },
        );
        for (const p of pools) {
          t.expect.equal(p.id.toUpperCase(), `${p.fiatCurrency}-${p.cryptoCurrency}`.toUpperCase(), `pool ${p.id} is <fiat>-<crypto> of its legs`, {
            requirement: 'POOLS-DISC-ID-PAIR-SHAPED',
            exchange: ex,
          });
        }
      },
    }),
    check({
      name: 'capabilities of the main pool carry its identity, sides, EVM networks and integer bounds',
      requirements: ['POOLS-CAP-SHAPE', 'POOLS-CAP-POOL-IDENTITY', 'POOLS-CAP-SIDES-ENUM', 'POOLS-CAP-NETWORKS-EVM'],
      needs: ['poolsPartner'],
      async run({ poolsPartner: actor }, t: CheckTools) {
        const pool = mainPool(t);
        const ex = expect2xx(t, await actor.client.get(poolPath(pool, '/capabilities')), 'POOLS-CAP-SHAPE');
        // The sides enum first, on the raw list, so a side outside it is reported as that rule and not as the shape.
        const sides: unknown[] = Array.isArray(ex.json?.sides) ? ex.json.sides : [];
        t.expect.that(
          sides.every((x) => (POOLS_SIDES as readonly unknown[]).includes(x)),
          'sides lists only on_ramp and off_ramp',
          { requirement: 'POOLS-CAP-SIDES-ENUM', actual: ex.json?.sides, exchange: ex },
        );
        const cap = t.expect.schema(ex, Capabilities, 'POOLS-CAP-SHAPE');
        t.expect.equal(cap.poolId, pool, 'capabilities poolId is the pool asked for', { requirement: 'POOLS-CAP-POOL-IDENTITY', exchange: ex });
        // pair and legs are the pool's own, as discovery lists it.
        const listed = t.expect
          .schema(expect2xx(t, await actor.client.get('/pools'), 'POOLS-CAP-POOL-IDENTITY'), PoolsList, 'POOLS-CAP-POOL-IDENTITY')
          .pools.find((p) => p.id === pool);
        t.expect.that(listed !== undefined, `the main pool ${pool} is listed by GET /pools`, { requirement: 'POOLS-CAP-POOL-IDENTITY' });
        t.expect.equal(
          { pair: cap.pair, fiatCurrency: cap.fiatCurrency, cryptoCurrency: cap.cryptoCurrency },
          { pair: listed.pair, fiatCurrency: listed.fiatCurrency, cryptoCurrency: listed.cryptoCurrency },
          'capabilities pair and legs are those GET /pools lists for the pool',
          { requirement: 'POOLS-CAP-POOL-IDENTITY', exchange: ex },
        );
        t.expect.that(new Set(cap.sides).size === cap.sides.length, 'sides lists each side once', {
          requirement: 'POOLS-CAP-SIDES-ENUM',
          actual: cap.sides,
          exchange: ex,
        });
        const nonEvm = cap.supportedNetworks.filter((n) => NON_EVM_NETWORKS.includes(n.toLowerCase()));
        t.expect.that(nonEvm.length === 0, 'supportedNetworks lists EVM networks only', {
          requirement: 'POOLS-CAP-NETWORKS-EVM',
          actual: cap.supportedNetworks,
          exchange: ex,
        });
        t.observe('pools-capabilities', {
          sides: cap.sides,
          supportedNetworks: cap.supportedNetworks,
          tier: cap.tier,
          minOrderUsdt: cap.minOrderUsdt,
          maxOrderUsdt: cap.maxOrderUsdt,
        });
      },
    }),
    check({
      name: 'capabilities sides leave out off_ramp for a partner without it enabled, and list on_ramp',
      requirements: ['POOLS-CAP-SIDES-ENUM', 'POOLS-CAP-SIDES-ENABLED'],
      needs: ['poolsNoOffRamp'],
      async run({ poolsNoOffRamp: actor }, t: CheckTools) {
        const R = 'POOLS-CAP-SIDES-ENUM';
        const { cap, exchange: ex } = await readCapabilities(t, actor, R);
        // sides lists the enabled sides; the profile says off_ramp is not enabled for this partner (offRamp: false).
        t.expect.that(!cap.sides.includes('off_ramp'), 'off_ramp is not listed for a partner without off_ramp enabled', {
          requirement: R,
          actual: cap.sides,
          exchange: ex,
        });
        t.expect.that(cap.sides.includes('on_ramp'), 'on_ramp, the supported flow, is listed', {
          requirement: 'POOLS-CAP-SIDES-ENABLED',
          actual: cap.sides,
          exchange: ex,
        });
      },
    }),
    check({
      name: 'capabilities sides list on_ramp and off_ramp for a partner with off_ramp enabled',
      requirements: ['POOLS-CAP-SIDES-ENABLED'],
      needs: ['poolsOffRamp'],
      async run({ poolsOffRamp: actor }, t: CheckTools) {
        const R = 'POOLS-CAP-SIDES-ENABLED';
        const { cap, exchange: ex } = await readCapabilities(t, actor, R);
        // "Enabled for the partner, pool and environment": the profile says so for the partner (offRamp: true) on its sandbox.
        for (const side of ['on_ramp', 'off_ramp'] as const)
          t.expect.that(cap.sides.includes(side), `${side} is listed for a partner with it enabled`, { requirement: R, actual: cap.sides, exchange: ex });
      },
    }),
    check({
      name: 'capabilities of an unknown pool id give 404 (or 403 pool_not_allowed), never capabilities',
      requirements: ['POOLS-CAP-UNKNOWN-POOL-404', 'POOLS-ERR-ENVELOPE'],
      needs: ['poolsPartner'],
      async run({ poolsPartner: actor }, t: CheckTools) {
        const R = 'POOLS-CAP-UNKNOWN-POOL-404';
        // Pair-shaped like the main pool (<fiat>-<crypto>), with a crypto leg no pool has.
        const fiat = mainPool(t).split('-')[0] ?? 'EUR';
        const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
        const id = `${fiat}-RMP${Array.from({ length: 4 }, () => letters[Math.floor(Math.random() * letters.length)]).join('')}`;
        const ex = await actor.client.get(poolPath(id, '/capabilities'));
        // "404: unknown id"; an unknown pool is also outside the allowed set, whose failure is 403 pool_not_allowed: both readings pass.
        t.expect.status(ex, [404, 403], R);
        expectPoolsError(t, ex, ex.status, { requirement: R, ...(ex.status === 403 ? { code: 'pool_not_allowed' } : {}) });
        t.observe(
          'pools-unknown-pool-capabilities',
          { status: ex.status, code: ex.json?.code },
          '404 (unknown id) or 403 pool_not_allowed (outside the allowed set)',
        );
      },
    }),
    check({
      name: 'GET /pools lists every pool the partner is entitled to (its allowedPools), available or not',
      requirements: ['POOLS-DISC-ENTITLED'],
      needs: ['poolsPartner'],
      async run({ poolsPartner: actor }, t: CheckTools) {
        const R = 'POOLS-DISC-ENTITLED';
        // The entitled set as the target states it (balance allowedPools), as the profile declares it, and as the target
        // shows it: the balance is an entitled route, so the pool whose balance answered is one the partner is entitled to.
        // Never empty, so the comparison is never vacuous.
        const allowed = new Set([mainPool(t), ...(await readBalance(t, actor, R)).allowedPools, ...(actor.partner.allowedPools ?? [])]);
        const ex = expect2xx(t, await actor.client.get('/pools'), R, 'GET /pools');
        const ids = t.expect.schema(ex, PoolsList, R).pools.map((p) => p.id);
        const missing = [...allowed].filter((id) => !ids.includes(id));
        t.expect.equal(missing, [], 'every entitled pool is discovered by GET /pools', { requirement: R, exchange: ex });
        t.observe(
          'pools-discovery-beyond-entitled',
          ids.filter((id) => !allowed.has(id)),
          'whether pools outside the entitled set are listed is not shown',
        );
      },
    }),
    check({
      name: "tier is the partner's tier for the pool: capabilities and balance agree, and match the provisioned tier where the profile declares it",
      requirements: ['POOLS-CAP-TIER'],
      needs: ['poolsPartner'],
      async run({ poolsPartner: actor }, t: CheckTools) {
        const R = 'POOLS-CAP-TIER';
        const { cap, exchange: ex } = await readCapabilities(t, actor, R);
        const bal = await readBalance(t, actor, R);
        t.expect.equal(String(cap.tier), bal.tier, 'capabilities and balance report the same tier for the pool', { requirement: R, exchange: ex });
        if (actor.partner.tier !== undefined)
          t.expect.equal(bal.tier, actor.partner.tier, `the tier is the one provisioned for ${actor.partner.name} (profile tier)`, { requirement: R });
        else t.observe('pools-tier', bal.tier, 'the profile declares no tier for this partner: only the agreement is judged');
      },
    }),
    check({
      name: "a firm quote's spreadBps stays within the pool's spreadCapBps",
      requirements: ['POOLS-CAP-SPREAD-CAP'],
      needs: ['poolsPartner'],
      async run({ poolsPartner: actor }, t: CheckTools) {
        const R = 'POOLS-CAP-SPREAD-CAP';
        const { cap, exchange: ex } = await readCapabilities(t, actor, R);
        const { quote } = await createFirmQuote(t, actor, R);
        t.expect.that(quote.spreadBps <= cap.spreadCapBps, `spreadBps ${quote.spreadBps} is within the approved spreadCapBps ${cap.spreadCapBps}`, {
          requirement: R,
          exchange: ex,
        });
        // Whether drawFeeBps bounds a quote's feeBps is not stated (a draw fee may be another fee): observed.
        t.observe('pools-fee-vs-draw-fee', { feeBps: quote.feeBps, drawFeeBps: cap.drawFeeBps });
      },
    }),
    check({
      name: "cryptoDepositAddress is dedicated: the same for the partner on every read, another partner's differs",
      requirements: ['POOLS-CAP-DEPOSIT-ADDRESS'],
      needs: ['poolsPartner', 'poolsOtherTenant'],
      async run({ poolsPartner: owner, poolsOtherTenant: other }, t: CheckTools) {
        const R = 'POOLS-CAP-DEPOSIT-ADDRESS';
        const read = async (actor: typeof owner) => {
          const ex = expect2xx(t, await actor.client.get(poolPath(mainPool(t), '/capabilities')), R);
          return { ex, address: t.expect.schema(ex, Capabilities, R).cryptoDepositAddress };
        };
        const first = await read(owner);
        const again = await read(owner);
        const theirs = await read(other);
        t.expect.that(first.address.length > 0, 'the partner has a deposit address', { requirement: R, exchange: first.ex });
        t.expect.equal(again.address, first.address, "the partner's deposit address is the same on every read", { requirement: R, exchange: again.ex });
        t.expect.that(theirs.address !== first.address, "another partner's deposit address differs (each partner has its own)", {
          requirement: R,
          actual: theirs.address,
          exchange: theirs.ex,
        });
      },
    }),
    check({
      name: 'no response names liquidity sources, providers, routing, reserves or treasury data',
      requirements: ['POOLS-OMITTED-INTERNALS'],
      needs: ['poolsPartner'],
      async run({ poolsPartner: actor }, t: CheckTools) {
        const R = 'POOLS-OMITTED-INTERNALS';
        const pool = mainPool(t);
        // One answer of every documented resource: the lifecycle from discovery to reconciliation.
        const seen: Exchange[] = [await actor.client.get('/pools'), await actor.client.get(poolPath(pool, '/capabilities'))];
        const fq = await createFirmQuote(t, actor, R);
        seen.push(fq.exchange, await actor.client.get(quotePath(fq.quote.quoteId)));
        const tx = expect2xx(t, await actor.client.post(poolPath(pool, '/transact'), { quoteId: fq.quote.quoteId }, { idempotencyKey: true }), R, 'transact');
        const made = t.expect.schema(tx, TransactResponse, R);
        seen.push(tx, await actor.client.get(tradePath(made.transactId)), await actor.client.get(pollPath(fq.quote.quoteId)));
        seen.push(
          await actor.client.get('/pools/trades', { limit: 5 }),
          await actor.client.get(poolPath(pool, '/balance')),
          await actor.client.get('/pools/funding'),
          await actor.client.get('/pools/ledger'),
        );
        for (const ex of seen) {
          expect2xx(t, ex, R);
          const found = keysNamed(ex.json, INTERNAL_NAMES);
          const like = keysMatching(ex.json, INTERNAL_WORD).filter((p) => !found.includes(p));
          if (like.length)
            t.observe(
              'pools-internal-like-fields',
              { path: new URL(ex.request.url).pathname, fields: like },
              'names that only contain such a word (additive fields may)',
            );
          t.expect.equal(
            found,
            [],
            `${ex.request.method} ${new URL(ex.request.url).pathname} names no liquidity source, provider, routing, reserves or treasury field`,
            { requirement: R, exchange: ex },
          );
        }
      },
    }),
  ],
});
