// Pools discovery (GET /pools) and per-pool capabilities.
import { defineSuite, type CheckContext } from '../../src/runner/check.js';
import { Capabilities, PoolsList } from '../../src/model/schemas/pools/index.js';
import { mainPool, poolPath } from './support/pools.js';

// cryptoNetwork values the spec names that are not EVM chains.
const NON_EVM_NETWORKS = ['tron', 'solana'];

export default defineSuite({
  service: 'pools',
  section: 'Resources and their fields > Pool',
  checks: [
    {
      name: 'GET /pools lists pair-shaped pools with their legs and availability',
      requirements: ['POOLS-DISC-LIST-SHAPE', 'POOLS-DISC-ID-PAIR-SHAPED'],
      needs: ['pools.partner'],
      async run(ctx: CheckContext) {
        const actor = ctx.pools.partner();
        const ex = ctx.expect.status(await actor.client.get('/pools'), 200, 'POOLS-DISC-LIST-SHAPE');
        const { pools } = ctx.expect.schema(ex, PoolsList, 'POOLS-DISC-LIST-SHAPE');
        ctx.expect.that(pools.some((p) => p.id === mainPool(ctx)), `the profile's main pool ${mainPool(ctx)} is listed`, {
          requirement: 'POOLS-DISC-LIST-SHAPE',
          actual: pools.map((p) => p.id),
          exchange: ex,
        });
        for (const p of pools) {
          ctx.expect.equal(p.id.toUpperCase(), `${p.fiatCurrency}-${p.cryptoCurrency}`.toUpperCase(), `pool ${p.id} is <fiat>-<crypto> of its legs`, {
            requirement: 'POOLS-DISC-ID-PAIR-SHAPED',
            exchange: ex,
          });
        }
      },
    },
    {
      name: 'capabilities of the main pool carry its identity, sides, EVM networks and integer bounds',
      requirements: ['POOLS-CAP-SHAPE', 'POOLS-CAP-POOL-IDENTITY', 'POOLS-CAP-SIDES-ENUM', 'POOLS-CAP-NETWORKS-EVM'],
      needs: ['pools.partner'],
      async run(ctx: CheckContext) {
        const actor = ctx.pools.partner();
        const pool = mainPool(ctx);
        const ex = ctx.expect.status(await actor.client.get(poolPath(pool, '/capabilities')), 200, 'POOLS-CAP-SHAPE');
        const cap = ctx.expect.schema(ex, Capabilities, 'POOLS-CAP-SHAPE');
        ctx.expect.equal(cap.poolId, pool, 'capabilities poolId is the pool asked for', { requirement: 'POOLS-CAP-POOL-IDENTITY', exchange: ex });
        ctx.expect.that(new Set(cap.sides).size === cap.sides.length, 'sides lists each side once', { requirement: 'POOLS-CAP-SIDES-ENUM', actual: cap.sides });
        const nonEvm = cap.supportedNetworks.filter((n) => NON_EVM_NETWORKS.includes(n.toLowerCase()));
        ctx.expect.that(nonEvm.length === 0, 'supportedNetworks lists EVM networks only', {
          requirement: 'POOLS-CAP-NETWORKS-EVM',
          actual: cap.supportedNetworks,
          exchange: ex,
        });
        ctx.observe('pools-capabilities', { sides: cap.sides, supportedNetworks: cap.supportedNetworks, tier: cap.tier });
      },
    },
  ],
});
