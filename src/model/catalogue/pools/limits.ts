// Pools "Limits": the firm quote TTL, the velocity cap, and the rules only a
// load run can show (TTL and the transact race under concurrency).
import type { Requirement } from '../types.js';

type Entry = Omit<Requirement, 'service' | 'suite'> & { suite?: Requirement['suite'] };
const entry = (e: Entry): Requirement => ({ service: 'pools', suite: 'conformance', ...e });

const L = 'Limits';

export const requirements: Requirement[] = [
  entry({ id: 'POOLS-TTL-EXPIRES-AT', section: 'Resources and their fields > Quote creation response', title: 'A firm quote expiresAt is about 15 s (the profile TTL) after the request', kind: 'limit', roles: ['pools.partner'] }),
  entry({ id: 'POOLS-TTL-TRANSACT-BEFORE-EXPIRY', section: 'States and transitions > Quote', title: 'Transact just before expiry succeeds', kind: 'limit', roles: ['pools.partner'] }),
  entry({ id: 'POOLS-TTL-TRANSACT-AFTER-EXPIRY-409', section: 'States and transitions > Quote', title: 'Transact after expiry gives 409 conflict', kind: 'limit', roles: ['pools.partner'] }),
  entry({ id: 'POOLS-TTL-STATUS-EXPIRED', section: 'States and transitions > Quote', title: 'A quote past its TTL reads as expired', kind: 'transition', roles: ['pools.partner'] }),
  entry({ id: 'POOLS-VEL-CAP-429', section: L, title: 'Exceeding the rolling 24-hour notional velocity cap gives 429', kind: 'limit', roles: ['pools.velocityCap'] }),
  entry({ id: 'POOLS-VEL-RETRY-EXCLUDED', section: L, title: 'Idempotent retries are excluded from the velocity cap', kind: 'limit', roles: ['pools.velocityCap'] }),
  entry({ id: 'POOLS-TTL-UNDER-LOAD', section: L, title: 'Under concurrent load, firm quotes still expire at their TTL and refuse transact after it', kind: 'limit', roles: ['pools.partner'], suite: 'load' }),
  entry({ id: 'POOLS-TTL-UNDER-NETWORK-FAULTS', section: L, title: 'Behind added latency and limited bandwidth, firm quotes still expire at their TTL: transact before expiry succeeds, after it gives 409', kind: 'limit', roles: ['pools.partner'], suite: 'chaos' }),
  entry({ id: 'POOLS-TX-RACE-UNDER-LOAD', section: L, title: 'Under concurrent load, concurrent transacts on one quote create one trade (single use)', kind: 'idempotency', roles: ['pools.partner'], suite: 'load' }),
];
