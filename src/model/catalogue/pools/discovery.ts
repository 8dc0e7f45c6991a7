// Pools discovery (GET /pools), per-pool capabilities, and what the interface
// leaves out.
import { defineArea } from '../define.js';

const POOL_FIELDS = '`id` (pair-shaped string, `<fiat>-<crypto>`), `pair`, `fiatCurrency`, `cryptoCurrency`, `available` (boolean, current state only).';
const LIST_ROW = '| GET | /pools | PK or SK | Response `{ pools: [...] }`. |';
const BOUNDS_ROW = '| drawFeeBps, spreadCapBps | approved economic bounds, integers |';

const area = defineArea({
  service: 'pools',
  section: 'Resources and their fields > Capabilities',
  entries: {
    'POOLS-DISC-LIST-SHAPE': {
      title: 'GET /pools returns { pools: [...] } of { id, pair, fiatCurrency, cryptoCurrency, available boolean }',
      kind: 'field',
      section: 'Resources and their fields > Pool',
      anchor: [POOL_FIELDS, 'Response wrapper: `{ pools: [...] }`.', LIST_ROW],
    },
    'POOLS-DISC-ID-PAIR-SHAPED': {
      title: 'A pool id is pair-shaped: <fiat>-<crypto>',
      kind: 'field',
      section: 'Resources and their fields > Pool',
      anchor: '`id` (pair-shaped string, `<fiat>-<crypto>`)',
    },
    'POOLS-DISC-ENTITLED': {
      title: 'GET /pools lists every pool the partner is entitled to (its allowedPools), available or not',
      kind: 'field',
      section: 'What the service does',
      anchor: 'Lifecycle: discover entitled pools; read pool capabilities;',
    },
    'POOLS-DISC-AVAILABLE-CURRENT': {
      title: "A listed pool's available is its current state: false while the pool is unavailable, true again once it is back",
      kind: 'field',
      section: 'Resources and their fields > Pool',
      anchor: '`available` (boolean, current state only)',
      needs: ['poolsPoolState'],
    },
    'POOLS-DISC-SECRET-KEY': { title: 'GET /pools accepts a secret key', kind: 'auth', section: 'Endpoints', anchor: LIST_ROW },
    'POOLS-CAP-SHAPE': {
      title:
        'Capabilities carry poolId, pair, legs, supportedNetworks, sides, tier, drawFeeBps, spreadCapBps (integers), minOrderUsdt, maxOrderUsdt, cryptoDepositAddress',
      kind: 'field',
      anchor: [
        '| GET | /pools/{id}/capabilities | SK + entitlement | Capabilities object. |',
        BOUNDS_ROW,
        '| minOrderUsdt, maxOrderUsdt | per-order bounds |',
        'Basis-point fields (`spreadBps`, `feeBps`, `totalBps`, `drawFeeBps`, `spreadCapBps`) are integers.',
      ],
    },
    'POOLS-CAP-POOL-IDENTITY': {
      title: 'Capabilities poolId, pair and legs are those of the requested pool (as GET /pools lists it)',
      kind: 'field',
      anchor: ['| poolId, pair | identity |', '| fiatCurrency, cryptoCurrency | legs |'],
    },
    'POOLS-CAP-SIDES-ENUM': {
      title: 'sides lists enabled sides among on_ramp, off_ramp',
      kind: 'enum',
      anchor: '| sides | enabled sides: `on_ramp`, `off_ramp` |',
    },
    'POOLS-CAP-SIDES-ENABLED': {
      title: 'sides lists the sides enabled for the partner: on_ramp (the supported flow), and off_ramp exactly when it is enabled',
      kind: 'field',
      anchor: ['| sides | enabled sides: `on_ramp`, `off_ramp` |', 'On-ramp (buy crypto with fiat) is the supported flow.'],
    },
    'POOLS-CAP-UNKNOWN-POOL-404': {
      title:
        'GET /pools/{id}/capabilities of an unknown pool id gives 404 (or 403 pool_not_allowed: an unknown pool is outside the allowed set too), never capabilities',
      kind: 'error',
      section: 'Errors',
      anchor: [
        '| 404 | unknown or cross-tenant id; funding when balance gate is off |',
        '| GET | /pools/{id}/capabilities | SK + entitlement | Capabilities object. |',
      ],
    },
    'POOLS-CAP-NETWORKS-EVM': {
      title: 'supportedNetworks lists allowed destNetwork values, EVM only',
      kind: 'field',
      anchor: '| supportedNetworks | allowed `destNetwork` values (EVM only) |',
    },
    'POOLS-CAP-TIER': {
      title: "tier is the partner's tier for the pool: the same in capabilities and balance, and the one provisioned (profile tier) where declared",
      kind: 'field',
      anchor: "| tier | partner's tier for the pool |",
    },
    'POOLS-CAP-SPREAD-CAP': {
      title: "A firm quote's spreadBps stays within the pool's approved spreadCapBps",
      kind: 'field',
      anchor: BOUNDS_ROW,
    },
    'POOLS-CAP-DEPOSIT-ADDRESS': {
      title: "cryptoDepositAddress is the partner's dedicated address: the same on every read, another partner's differs",
      kind: 'field',
      anchor: "| cryptoDepositAddress | partner's dedicated deposit address for off-ramp crypto receipts |",
    },
    'POOLS-OMITTED-INTERNALS': {
      title:
        'No response names liquidity sources, provider names, routing, reserves or treasury data (judged on field names that name the data itself, alone or inside the key holding them: a generic word alone — provider, route, reserve — is an allowed additive field, observed)',
      kind: 'field',
      section: 'What the service does',
      anchor: 'Liquidity sources, provider names, routing, reserves and treasury data are omitted from the interface.',
    },
  },
});

export default area;

declare module '../define.js' {
  interface CatalogueAreas {
    'pools/discovery': typeof area.entries;
  }
}
