// Pools "Limits": the firm quote TTL, the velocity cap, and the rules only a
// load run can show (TTL and the transact race under concurrency).
import { defineArea } from '../define.js';

const area = defineArea({
  service: 'pools',
  section: 'Limits',
  entries: {
    'POOLS-TTL-EXPIRES-AT': { title: 'A firm quote expiresAt is about 15 s (the spec TTL: a profile gives only a bounded tolerance) after the quote is made', kind: 'limit', section: 'Resources and their fields > Quote creation response' },
    'POOLS-TTL-TRANSACT-BEFORE-EXPIRY': { title: 'Transact just before expiry succeeds', kind: 'limit', section: 'States and transitions > Quote' },
    'POOLS-TTL-TRANSACT-AFTER-EXPIRY-409': { title: 'Transact after expiry gives 409 conflict', kind: 'limit', section: 'States and transitions > Quote' },
    'POOLS-TTL-STATUS-EXPIRED': { title: 'A quote past its TTL (about 15 s) reads as expired', kind: 'transition', section: 'States and transitions > Quote' },
    'POOLS-VEL-CAP-429': { title: 'Exceeding the rolling 24-hour notional velocity cap gives 429; no 429 while the notional stays within it', kind: 'limit' },
    'POOLS-VEL-RETRY-EXCLUDED': { title: 'Idempotent retries are excluded from the velocity cap', kind: 'limit' },
    'POOLS-TTL-UNDER-LOAD': { title: 'Under concurrent load, firm quotes still expire at their TTL and refuse transact after it', kind: 'limit', suite: 'load' },
    'POOLS-TTL-UNDER-NETWORK-FAULTS': { title: 'Behind added latency and limited bandwidth, firm quotes still expire at their TTL: transact before expiry succeeds, after it gives 409', kind: 'limit', suite: 'chaos' },
    'POOLS-TX-RACE-UNDER-LOAD': { title: 'Under concurrent load, concurrent transacts on one quote create one trade (single use)', kind: 'idempotency', suite: 'load' },
  },
});

export default area;

declare module '../define.js' {
  interface CatalogueAreas {
    'pools/limits': typeof area.entries;
  }
}
