// Open points of the pools spec's versioning: additive optional fields in the answers (Versioning).
import { defineOpenPoints } from '../define.js';

const area = defineOpenPoints({
  spec: 'pools',
  section: 'Versioning',
  entries: {
    'pools.versioning.additive': {
      kind: 'reading',
      passage: 'Additive changes (new optional response fields, new enum members on documented types, new endpoints) can appear without a version bump',
      what: 'whether answers carry additive optional fields: only the shown ones, or more under generic names (a route, a reserve, a funding provider, autoTopUp, statements)',
      choices: ['shown-fields', 'additive-fields'],
      readBy: ['conformance/pools/discovery.ts', 'conformance/pools/balanceFunding.ts'],
    },
  },
});

export default area;

declare module '../define.js' {
  interface OpenPointAreas {
    'pools/versioning': typeof area.entries;
  }
}
