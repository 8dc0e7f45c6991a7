// Gate "Versioning": what a client can observe over HTTP.
// Left out: the contract version date (2026-05-25) is carried in the
// specification's version field, not in any response or header, so no request
// can observe it; the change policy is "not shown".
import { defineArea } from '../define.js';

const area = defineArea({
  service: 'gate',
  section: 'Versioning',
  entries: {
    'GATE-VER-V1-SEGMENT': { title: 'the base addresses end in the major version segment /v1 and the API answers under it', kind: 'status' },
  },
});

export default area;

declare module '../define.js' {
  interface CatalogueAreas {
    'gate/versioning': typeof area.entries;
  }
}
