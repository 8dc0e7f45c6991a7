// Pools "Limits": the firm quote TTL, the velocity cap, the order bounds, and
// the rules only a load run can show (TTL and the transact race under concurrency).
import { defineArea } from '../define.js';

const LIFETIME = 'Firm quote lifetime: about 15 seconds; single use.';
const VELOCITY =
  'Velocity cap: per-partner rolling 24-hour notional, off by default, configured per partner; idempotent retries are excluded; exceeding gives 429.';
const TERMINAL_ROW = '| consumed, rejected, expired | POST reject or POST transact | quote already terminal | unchanged | 409 conflict |';

const area = defineArea({
  service: 'pools',
  section: 'Limits',
  entries: {
    'POOLS-TTL-EXPIRES-AT': {
      title: 'A firm quote expiresAt is about 15 s (the spec TTL: a profile gives only a bounded tolerance) after the quote is made',
      kind: 'limit',
      section: 'Resources and their fields > Quote creation response',
      anchor: ['`expiresAt` (about 15 seconds ahead)', LIFETIME],
    },
    'POOLS-TTL-TRANSACT-BEFORE-EXPIRY': {
      title: 'Transact just before expiry succeeds',
      kind: 'limit',
      section: 'States and transitions > Quote',
      anchor: '| active | POST transact | firm quote, before expiry, not consumed | consumed | trade created as `reserved` |',
    },
    'POOLS-TTL-TRANSACT-AFTER-EXPIRY-409': {
      title: 'Transact after expiry gives 409 conflict',
      kind: 'limit',
      section: 'States and transitions > Quote',
      anchor: [TERMINAL_ROW, '| 409 | quote expired, consumed or rejected'],
    },
    'POOLS-TTL-STATUS-EXPIRED': {
      title: 'A quote past its TTL (about 15 s) reads as expired',
      kind: 'transition',
      section: 'States and transitions > Quote',
      anchor: '| active | time | TTL (about 15 s) elapsed | expired |',
    },
    'POOLS-VEL-CAP-429': {
      title: 'Exceeding the rolling 24-hour notional velocity cap gives 429; no 429 while the notional stays within it',
      kind: 'limit',
      anchor: [VELOCITY, '| 429 | partner rolling 24-hour notional velocity cap exceeded, or throttle |'],
    },
    'POOLS-VEL-OFF-BY-DEFAULT': {
      title:
        'The velocity cap is off by default: a partner without a configured cap is never refused 429 for its notional (judged over a bounded spend beyond every cap the profile declares)',
      kind: 'limit',
      anchor: VELOCITY,
    },
    'POOLS-VEL-ROLLING-24H': {
      title:
        'The velocity window rolls over 24 hours: a trade older than 24 h stops counting while a younger one still counts (neither a window that never rolls nor a fixed one reset whole)',
      kind: 'limit',
      anchor: [VELOCITY, '| 429 | partner rolling 24-hour notional velocity cap exceeded, or throttle |'],
      needs: ['poolsVelocityRoll'],
    },
    'POOLS-VEL-RETRY-EXCLUDED': { title: 'Idempotent retries are excluded from the velocity cap', kind: 'limit', anchor: VELOCITY },
    'POOLS-ORDER-BOUNDS': {
      title: 'An order below minOrderUsdt or above maxOrderUsdt (read at runtime from capabilities) is never executed: refused with a 4xx at quote or transact',
      kind: 'limit',
      anchor: ['Order size bounds: `minOrderUsdt` and `maxOrderUsdt` per pool, read at runtime.', '| minOrderUsdt, maxOrderUsdt | per-order bounds |'],
    },
    'POOLS-TTL-UNDER-LOAD': {
      title: 'Under concurrent load, firm quotes still expire at their TTL and refuse transact after it',
      kind: 'limit',
      suite: 'load',
      anchor: LIFETIME,
    },
    'POOLS-TTL-UNDER-NETWORK-FAULTS': {
      title: 'Behind added latency and limited bandwidth, firm quotes still expire at their TTL: transact before expiry succeeds, after it gives 409',
      kind: 'limit',
      suite: 'chaos',
      anchor: LIFETIME,
    },
    'POOLS-TX-RACE-UNDER-LOAD': {
      title: 'Under concurrent load, concurrent transacts on one quote create one trade (single use)',
      kind: 'idempotency',
      suite: 'load',
      anchor: LIFETIME,
    },
  },
});

export default area;

declare module '../define.js' {
  interface CatalogueAreas {
    'pools/limits': typeof area.entries;
  }
}
