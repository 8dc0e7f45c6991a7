// Open points of the pools spec's capabilities: the networks a pool allows and its order bounds, values the target
// sets for itself (Resources and their fields > Capabilities).
import { defineOpenPoints } from '../define.js';

const area = defineOpenPoints({
  spec: 'pools',
  section: 'Resources and their fields > Capabilities',
  entries: {
    'pools.capabilities.networks': {
      kind: 'value',
      passage: '| supportedNetworks | allowed `destNetwork` values (EVM only) |',
      what: "which EVM networks a pool allows as destNetwork: the reference's lists, or others (the quote's default cryptoNetwork stays tron, as documented)",
      choices: ['reference-lists', 'other-evm'],
      readBy: ['conformance/pools/quotes.ts', 'conformance/pools/discovery.ts'],
    },
    'pools.capabilities.orderBounds': {
      kind: 'value',
      passage: '| minOrderUsdt, maxOrderUsdt | per-order bounds |',
      what: "the per-order bounds' values (read at runtime): the reference's 1–5,000,000 USDT, or narrower ones (both above the profile's oversized amount, so it still reaches the balance rule)",
      choices: ['1-5000000', '5-2000000'],
      readBy: ['conformance/pools/limits.ts', 'support/pools/pools.ts'],
    },
  },
});

export default area;

declare module '../define.js' {
  interface OpenPointAreas {
    'pools/capabilities': typeof area.entries;
  }
}
