// Open points of the pools spec's limits: the request-rate limits of its routes (Limits).
import { defineOpenPoints } from '../define.js';

const area = defineOpenPoints({
  spec: 'pools',
  section: 'Limits',
  entries: {
    'pools.limits.rate': {
      kind: 'not-shown',
      passage: 'Request-rate limits of the pools routes: not shown.',
      what: 'whether the pools routes throttle: no limit, or 429 rate_limited past 20 requests a second per key (with Retry-After)',
      choices: ['none', 'throttle-20s'],
      readBy: ['support/pools/throttle.ts', 'src/client/http.ts', 'conformance/pools/limits.ts'],
    },
  },
});

export default area;

declare module '../define.js' {
  interface OpenPointAreas {
    'pools/limits': typeof area.entries;
  }
}
