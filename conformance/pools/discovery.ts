// Pools discovery (GET /pools) and per-pool capabilities.
import { check, defineSuite, type CheckTools } from '../../src/runner/check.js';
import { Capabilities, PoolsList } from '../../src/model/schemas/pools/index.js';
import { expect2xx } from '../../support/expect.js';
import { mainPool, poolPath } from '../../support/pools/pools.js';

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
        const cap = t.expect.schema(ex, Capabilities, 'POOLS-CAP-SHAPE');
        t.expect.equal(cap.poolId, pool, 'capabilities poolId is the pool asked for', { requirement: 'POOLS-CAP-POOL-IDENTITY', exchange: ex });
        t.expect.that(new Set(cap.sides).size === cap.sides.length, 'sides lists each side once', { requirement: 'POOLS-CAP-SIDES-ENUM', actual: cap.sides, exchange: ex });
        const nonEvm = cap.supportedNetworks.filter((n) => NON_EVM_NETWORKS.includes(n.toLowerCase()));
        t.expect.that(nonEvm.length === 0, 'supportedNetworks lists EVM networks only', { requirement: 'POOLS-CAP-NETWORKS-EVM', actual: cap.supportedNetworks, exchange: ex });
        t.observe('pools-capabilities', { sides: cap.sides, supportedNetworks: cap.supportedNetworks, tier: cap.tier, minOrderUsdt: cap.minOrderUsdt, maxOrderUsdt: cap.maxOrderUsdt });
      },
    }),
  ],
});
