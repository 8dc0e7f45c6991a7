// Pools discovery (GET /pools) and per-pool capabilities.
import type { Requirement } from '../types.js';

type Entry = Omit<Requirement, 'service' | 'suite'> & { suite?: Requirement['suite'] };
const entry = (e: Entry): Requirement => ({ service: 'pools', suite: 'conformance', ...e });

const POOL = 'Resources and their fields > Pool';
const CAP = 'Resources and their fields > Capabilities';

export const requirements: Requirement[] = [
  entry({ id: 'POOLS-DISC-LIST-SHAPE', section: POOL, title: 'GET /pools returns { pools: [...] } of { id, pair, fiatCurrency, cryptoCurrency, available boolean }', kind: 'field', roles: ['pools.partner'] }),
  entry({ id: 'POOLS-DISC-ID-PAIR-SHAPED', section: POOL, title: 'A pool id is pair-shaped: <fiat>-<crypto>', kind: 'field', roles: ['pools.partner'] }),
  entry({ id: 'POOLS-DISC-SECRET-KEY', section: 'Endpoints', title: 'GET /pools accepts a secret key', kind: 'auth', roles: ['pools.partner'] }),
  entry({ id: 'POOLS-CAP-SHAPE', section: CAP, title: 'Capabilities carry poolId, pair, legs, supportedNetworks, sides, tier, drawFeeBps, spreadCapBps (integers), minOrderUsdt, maxOrderUsdt, cryptoDepositAddress', kind: 'field', roles: ['pools.partner'] }),
  entry({ id: 'POOLS-CAP-POOL-IDENTITY', section: CAP, title: 'Capabilities poolId is the requested pool', kind: 'field', roles: ['pools.partner'] }),
  entry({ id: 'POOLS-CAP-SIDES-ENUM', section: CAP, title: 'sides lists enabled sides among on_ramp, off_ramp', kind: 'enum', roles: ['pools.partner'] }),
  entry({ id: 'POOLS-CAP-NETWORKS-EVM', section: CAP, title: 'supportedNetworks lists allowed destNetwork values, EVM only', kind: 'field', roles: ['pools.partner'] }),
];
