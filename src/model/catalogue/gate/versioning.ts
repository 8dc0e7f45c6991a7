// Gate "Versioning": nothing a target can get wrong is observable over HTTP.
// - "The URL carries the major segment /v1" / "Each [base address] ends in the version segment /v1":
//   the profile schema refuses a base URL that does not end in /v1, and every request of every check
//   goes below that base, so a target that does not answer under /v1 fails every check at once; a
//   dedicated requirement could only restate the profile's validity (it passed by construction).
// - The contract version date (2026-05-25) is carried in the specification's version field, not in any
//   response or header; the change policy is "not shown".
import { defineArea } from '../define.js';

const area = defineArea({
  service: 'gate',
  section: 'Versioning',
  entries: {},
});

export default area;

declare module '../define.js' {
  interface CatalogueAreas {
    'gate/versioning': typeof area.entries;
  }
}
