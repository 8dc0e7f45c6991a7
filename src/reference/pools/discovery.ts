// Discovery (GET /pools, publishable or secret key) and per-pool capabilities
// (secret key plus entitlement).
import { HttpError } from '../kit/http.js';
import { unavailableReason } from './poolStates.js';
import { choiceOf } from '../kit/dialect.js';
import { orderBounds, PRICING } from './pricing.js';
import type { PoolDef, PoolsArea } from './world.js';

export const area: PoolsArea = {
  name: 'discovery',
  faults: [
    {
      name: 'pools-discovery-secret-key-refused',
      service: 'pools',
      requirements: ['POOLS-DISC-SECRET-KEY'],
      description: 'GET /pools refuses a secret key (403) and takes only publishable keys.',
      suite: 'conformance',
    },
    {
      name: 'pools-discovery-publishable-key-refused',
      service: 'pools',
      requirements: ['POOLS-AUTH-PK-DISCOVERY'],
      description: 'GET /pools refuses a publishable key with 403 key_mode_mismatch.',
      suite: 'conformance',
    },
    {
      name: 'pools-entitled-set-lost',
      service: 'pools',
      requirements: ['POOLS-DISC-ENTITLED'],
      description:
        "The partner's entitled pools are lost: GET /pools lists none of them and the balance's allowedPools is empty, though the pools still answer.",
      suite: 'conformance',
    },
    {
      name: 'pools-pool-id-not-pair-shaped',
      service: 'pools',
      requirements: ['POOLS-DISC-ID-PAIR-SHAPED'],
      description: 'Pool ids are listed as opaque ids (pool_1) instead of <fiat>-<crypto>.',
      suite: 'conformance',
    },
    {
      name: 'pools-capabilities-non-evm-network',
      service: 'pools',
      requirements: ['POOLS-CAP-NETWORKS-EVM'],
      description: 'supportedNetworks includes tron, a non-EVM network.',
      suite: 'conformance',
    },
    {
      name: 'pools-discovery-available-as-string',
      service: 'pools',
      requirements: ['POOLS-DISC-LIST-SHAPE'],
      description: 'GET /pools lists available as the string "true"/"false" instead of a boolean.',
      suite: 'conformance',
    },
    {
      name: 'pools-capabilities-other-pool-id',
      service: 'pools',
      requirements: ['POOLS-CAP-POOL-IDENTITY'],
      description: 'Capabilities name another pool in poolId than the one asked for.',
      suite: 'conformance',
    },
    {
      name: 'pools-capabilities-pair-reversed',
      service: 'pools',
      requirements: ['POOLS-CAP-POOL-IDENTITY'],
      description: 'Capabilities give pair as <crypto>-<fiat> and swap the legs.',
      suite: 'conformance',
    },
    {
      name: 'pools-capabilities-off-ramp-always',
      service: 'pools',
      requirements: ['POOLS-CAP-SIDES-ENUM'],
      description: 'sides lists off_ramp for partners without off_ramp enabled.',
      suite: 'conformance',
    },
    {
      name: 'pools-capabilities-bps-as-strings',
      service: 'pools',
      requirements: ['POOLS-CAP-SHAPE'],
      description: 'drawFeeBps and spreadCapBps are sent as strings instead of integers.',
      suite: 'conformance',
    },
    {
      name: 'pools-capabilities-tier-default',
      service: 'pools',
      requirements: ['POOLS-CAP-TIER'],
      description: 'Capabilities report tier "default" whatever tier the partner was provisioned (the balance reports the right one).',
      suite: 'conformance',
    },
    {
      name: 'pools-spread-cap-understated',
      service: 'pools',
      requirements: ['POOLS-CAP-SPREAD-CAP'],
      description: 'Capabilities report spreadCapBps 20 while quotes carry a 25 bps spread.',
      suite: 'conformance',
    },
    {
      name: 'pools-deposit-address-shared',
      service: 'pools',
      requirements: ['POOLS-CAP-DEPOSIT-ADDRESS'],
      description: 'Every partner gets the same cryptoDepositAddress for a pool (not dedicated).',
      suite: 'conformance',
    },
    {
      name: 'pools-discovery-hides-unavailable',
      service: 'pools',
      requirements: ['POOLS-DISC-ENTITLED'],
      description: 'GET /pools leaves out entitled pools that are currently unavailable.',
      suite: 'conformance',
    },
    {
      name: 'pools-discovery-available-static',
      service: 'pools',
      requirements: ['POOLS-DISC-AVAILABLE-CURRENT'],
      description: "GET /pools reports the catalogue's availability, not the pool's current state.",
      suite: 'conformance',
    },
    {
      name: 'pools-discovery-dry-listed-available',
      service: 'pools',
      requirements: ['POOLS-DISC-AVAILABLE-CURRENT'],
      description:
        'GET /pools lists a pool that is dry (its quotes answer unavailable, pool_dry) as available: true; a state the sandbox control sets still shows.',
      suite: 'conformance',
    },
    {
      name: 'pools-capabilities-unknown-pool-200',
      service: 'pools',
      requirements: ['POOLS-CAP-UNKNOWN-POOL-404'],
      description: 'GET /pools/{id}/capabilities of an unknown pool id answers capabilities made up from the id instead of 404.',
      suite: 'conformance',
    },
    {
      name: 'pools-capabilities-off-ramp-never',
      service: 'pools',
      requirements: ['POOLS-CAP-SIDES-ENABLED'],
      description: 'sides never lists off_ramp, even for a partner with off_ramp enabled.',
      suite: 'conformance',
    },
    {
      name: 'pools-capabilities-on-ramp-missing',
      service: 'pools',
      requirements: ['POOLS-CAP-SIDES-ENABLED'],
      description: 'sides of a partner with off_ramp enabled lists off_ramp only, leaving out on_ramp.',
      suite: 'conformance',
    },
  ],
  register(router, world) {
    const f = world.faults;
    router.on('GET', '/pools', (req) => {
      const caller = world.auth(req, { publishableOk: true });
      const token = req.headers.authorization ?? '';
      if (f.has('pools-discovery-secret-key-refused') && /Bearer\s+sk_/i.test(token))
        throw new HttpError(403, 'Use the publishable key for discovery.', 'key_mode_mismatch');
      if (f.has('pools-discovery-publishable-key-refused') && /Bearer\s+pk_/i.test(token))
        throw new HttpError(403, 'A publishable key cannot be used here.', 'key_mode_mismatch');
      // Discovery lists the partner's entitled pools (not shown whether others appear; chosen: entitled only), each in its current state.
      // Fault: discovery reads the entitled set from a store that lost it (the balance's allowedPools is empty too).
      const allowed = new Set(f.has('pools-entitled-set-lost') ? [] : (caller.partner.allowedPools ?? []));
      const available = (p: PoolDef) => {
        if (f.has('pools-discovery-available-static')) return p.available;
        const reason = unavailableReason(world, caller, p);
        // Reading (pools.pool.availableWhileEngineDown 'true'): an engine outage leaves the pool itself available.
        if (reason === 'engine_unavailable' && choiceOf(world.profile, 'pools.pool.availableWhileEngineDown') === 'true') return true;
        // Fault: the catalogue's dry pool is listed available while its quotes answer pool_dry.
        return reason === null || (reason === 'pool_dry' && !p.available && f.has('pools-discovery-dry-listed-available'));
      };
      const pools = world.pools
        .filter((p) => allowed.has(p.id) && (available(p) || !f.has('pools-discovery-hides-unavailable')))
        .map((p, i) => ({
          id: f.has('pools-pool-id-not-pair-shaped') ? `pool_${i + 1}` : p.id,
          pair: world.pair(p),
          fiatCurrency: p.fiatCurrency,
          cryptoCurrency: p.cryptoCurrency,
          available: f.has('pools-discovery-available-as-string') ? String(available(p)) : available(p),
          // Reading (reference.poolsAdditiveFields): a link to the pool's capabilities, under a generic name.
          ...(world.profile.reference?.poolsAdditiveFields ? { route: `/v1/pools/${encodeURIComponent(p.id)}/capabilities` } : {}),
        }));
      return { status: 200, body: { pools } };
    });

    // Faults: off_ramp never listed, even where enabled; on_ramp left out where off_ramp is listed.
    const sidesOf = (offRamp: boolean | undefined) =>
      offRamp && !f.has('pools-capabilities-off-ramp-never')
        ? f.has('pools-capabilities-on-ramp-missing')
          ? ['off_ramp']
          : ['on_ramp', 'off_ramp']
        : ['on_ramp'];
    router.on('GET', '/pools/:id/capabilities', (req) => {
      const publicPool = f.has('pools-capabilities-without-key') && req.headers.authorization === undefined ? world.pool(req.params.id!) : undefined;
      if (publicPool) return { status: 200, body: { poolId: publicPool.id, pair: publicPool.id, supportedNetworks: publicPool.supportedNetworks } };
      // Fault: an unknown pool id answers capabilities made up from the id (after the key is checked) instead of 404.
      if (f.has('pools-capabilities-unknown-pool-200') && !world.pool(req.params.id!)) {
        world.auth(req);
        const [fiat, crypto] = req.params.id!.split('-');
        return {
          status: 200,
          body: { poolId: req.params.id, pair: req.params.id, fiatCurrency: fiat, cryptoCurrency: crypto, supportedNetworks: [], sides: ['on_ramp'] },
        };
      }
      const { caller, pool } = world.authEntitled(req, req.params.id!);
      const p = caller.partner;
      const bps = (n: number) => (f.has('pools-capabilities-bps-as-strings') ? String(n) : n);
      const reversed = f.has('pools-capabilities-pair-reversed');
      return {
        status: 200,
        body: {
          poolId: f.has('pools-capabilities-other-pool-id') ? world.pools.find((x) => x.id !== pool.id)!.id : pool.id,
          pair: reversed ? world.pair({ ...pool, fiatCurrency: pool.cryptoCurrency, cryptoCurrency: pool.fiatCurrency }) : world.pair(pool),
          fiatCurrency: reversed ? pool.cryptoCurrency : pool.fiatCurrency,
          cryptoCurrency: reversed ? pool.fiatCurrency : pool.cryptoCurrency,
          supportedNetworks: f.has('pools-capabilities-non-evm-network') ? [...pool.supportedNetworks, 'tron'] : pool.supportedNetworks,
          sides: sidesOf(p.offRamp || f.has('pools-capabilities-off-ramp-always')),
          tier: f.has('pools-capabilities-tier-default') ? 'default' : (p.tier ?? 'standard'),
          drawFeeBps: bps(PRICING.feeBps),
          spreadCapBps: bps(f.has('pools-spread-cap-understated') ? 20 : PRICING.spreadCapBps),
          minOrderUsdt: world.money(orderBounds(world.profile).minOrderUsdt),
          maxOrderUsdt: world.money(orderBounds(world.profile).maxOrderUsdt),
          cryptoDepositAddress: world.depositAddress(f.has('pools-deposit-address-shared') ? { ...p, name: 'shared' } : p, pool),
        },
      };
    });
  },
};
