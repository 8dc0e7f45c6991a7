// Pools discovery (GET /pools) and per-pool capabilities.
import { check, defineSuite, type CheckTools } from '../../src/runner/check.js';
import { Capabilities, POOLS_SIDES, PoolsList } from '../../src/model/schemas/pools/index.js';
import { expect2xx } from '../../support/expect.js';
import { mainPool, poolPath } from '../../support/pools/pools.js';

const PAIR = /^[^-\s]+-[^-\s]+$/;
// cryptoNetwork values the spec names that are not EVM chains.
const NON_EVM_NETWORKS = ['tron', 'solana'];

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
          t.expect.that(typeof p?.id === 'string' && PAIR.test(p.id), `pool id ${JSON.stringify(p?.id)} is pair-shaped <fiat>-<crypto>`, { requirement: 'POOLS-DISC-ID-PAIR-SHAPED', exchange: ex });
        }
        const { pools } = t.expect.schema(ex, PoolsList, 'POOLS-DISC-LIST-SHAPE');
        t.expect.that(pools.some((p) => p.id === mainPool(t)), `the profile's main pool ${mainPool(t)} is listed`, {
          requirement: 'POOLS-DISC-LIST-SHAPE',
          actual: pools.map((p) => p.id),
          exchange: ex,
        });
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
        t.expect.that(sides.every((x) => (POOLS_SIDES as readonly unknown[]).includes(x)), 'sides lists only on_ramp and off_ramp', { requirement: 'POOLS-CAP-SIDES-ENUM', actual: ex.json?.sides, exchange: ex });
        const cap = t.expect.schema(ex, Capabilities, 'POOLS-CAP-SHAPE');
        t.expect.equal(cap.poolId, pool, 'capabilities poolId is the pool asked for', { requirement: 'POOLS-CAP-POOL-IDENTITY', exchange: ex });
        t.expect.that(new Set(cap.sides).size === cap.sides.length, 'sides lists each side once', { requirement: 'POOLS-CAP-SIDES-ENUM', actual: cap.sides, exchange: ex });
        const nonEvm = cap.supportedNetworks.filter((n) => NON_EVM_NETWORKS.includes(n.toLowerCase()));
        t.expect.that(nonEvm.length === 0, 'supportedNetworks lists EVM networks only', { requirement: 'POOLS-CAP-NETWORKS-EVM', actual: cap.supportedNetworks, exchange: ex });
        t.observe('pools-capabilities', { sides: cap.sides, supportedNetworks: cap.supportedNetworks, tier: cap.tier, minOrderUsdt: cap.minOrderUsdt, maxOrderUsdt: cap.maxOrderUsdt });
      },
    }),
    check({
      name: 'capabilities sides leave out off_ramp for a partner without it enabled',
      requirements: ['POOLS-CAP-SIDES-ENUM'],
      needs: ['poolsNoOffRamp'],
      async run({ poolsNoOffRamp: actor }, t: CheckTools) {
        const R = 'POOLS-CAP-SIDES-ENUM';
        const ex = expect2xx(t, await actor.client.get(poolPath(mainPool(t), '/capabilities')), R);
        const cap = t.expect.schema(ex, Capabilities, R);
        // sides lists the enabled sides; the profile says off_ramp is not enabled for this partner (offRamp: false).
        t.expect.that(!cap.sides.includes('off_ramp'), 'off_ramp is not listed for a partner without off_ramp enabled', { requirement: R, actual: cap.sides, exchange: ex });
      },
    }),
  ],
});
