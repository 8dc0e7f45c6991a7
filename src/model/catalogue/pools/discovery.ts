// Pools discovery (GET /pools) and per-pool capabilities.
import { defineArea } from '../define.js';

const area = defineArea({
  service: 'pools',
  section: 'Resources and their fields > Capabilities',
  entries: {
    'POOLS-DISC-LIST-SHAPE': { title: 'GET /pools returns { pools: [...] } of { id, pair, fiatCurrency, cryptoCurrency, available boolean }', kind: 'field', section: 'Resources and their fields > Pool' },
    'POOLS-DISC-ID-PAIR-SHAPED': { title: 'A pool id is pair-shaped: <fiat>-<crypto>', kind: 'field', section: 'Resources and their fields > Pool' },
    'POOLS-DISC-SECRET-KEY': { title: 'GET /pools accepts a secret key', kind: 'auth', section: 'Endpoints' },
    'POOLS-CAP-SHAPE': { title: 'Capabilities carry poolId, pair, legs, supportedNetworks, sides, tier, drawFeeBps, spreadCapBps (integers), minOrderUsdt, maxOrderUsdt, cryptoDepositAddress', kind: 'field' },
    'POOLS-CAP-POOL-IDENTITY': { title: 'Capabilities poolId is the requested pool', kind: 'field' },
    'POOLS-CAP-SIDES-ENUM': { title: 'sides lists enabled sides among on_ramp, off_ramp', kind: 'enum' },
    'POOLS-CAP-NETWORKS-EVM': { title: 'supportedNetworks lists allowed destNetwork values, EVM only', kind: 'field' },
  },
});

export default area;

declare module '../define.js' {
  interface CatalogueAreas {
    'pools/discovery': typeof area.entries;
  }
}
