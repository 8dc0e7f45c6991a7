// Open points of the pools spec's Pool and Capabilities resources (Resources and their fields > Pool, Capabilities).
import { defineOpenPoints } from '../define.js';

const area = defineOpenPoints({
  spec: 'pools',
  section: 'Resources and their fields > Pool',
  entries: {
    'pools.pool.pair': {
      kind: 'spelling',
      passage: '`id` (pair-shaped string, `<fiat>-<crypto>`), `pair`',
      what: "how a pool's pair is written: the spec fixes the pool id's shape, not the pair's",
      choices: ['EUR-USDT', 'EUR/USDT', 'EURUSDT'],
      readBy: ['conformance/pools/discovery.ts', 'relation:TRADE_RELATIONS', 'relation:STORED_QUOTE_RELATIONS'],
    },
  },
});

export default area;

declare module '../define.js' {
  interface OpenPointAreas {
    'pools/discovery': typeof area.entries;
  }
}
