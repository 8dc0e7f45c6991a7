// Open points of the pools spec's Pool resource and its base addresses (Resources and their fields > Pool; What the
// service does).
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
    'pools.pool.availableWhileEngineDown': {
      kind: 'reading',
      passage: '`available` (boolean, current state only)',
      what: "a pool's available in GET /pools while its engine is unavailable (quotes answer engine_unavailable): false, or true (the spec does not say an engine outage makes the pool unavailable; a dry pool reads false)",
      choices: ['false', 'true'],
      readBy: ['conformance/pools/quotes.ts', 'conformance/pools/discovery.ts'],
    },
    'pools.baseAddresses': {
      kind: 'value',
      passage: 'Base addresses: `{pools_base_url}` (production) and `{pools_sandbox_base_url}` (sandbox).',
      what: 'where the pools base addresses stand: at the root of their hosts (…/v1), or below a path of their own (…/pools/v1); the profile declares both',
      choices: ['host-root', 'path-prefix'],
      readBy: ['src/runner/run.ts', 'support/pools/pools.ts'],
    },
  },
});

export default area;

declare module '../define.js' {
  interface OpenPointAreas {
    'pools/discovery': typeof area.entries;
  }
}
