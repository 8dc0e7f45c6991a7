// Open points of the Gate spec's versioning: what the change policy allows a response to carry (Versioning).
import { defineOpenPoints } from '../define.js';

const area = defineOpenPoints({
  spec: 'gate',
  section: 'Versioning',
  entries: {
    'gate.versioning.changePolicy': {
      kind: 'fields',
      passage: 'Change policy for this service: not shown.',
      what: 'whether responses carry fields beyond those the spec shows (additive fields: an api_version, the environment)',
      choices: ['shown-fields', 'additive-fields'],
      readBy: ['support/gate/objects.ts', 'src/model/schemas/gate/sessions.ts', 'src/model/schemas/gate/customers.ts'],
    },
  },
});

export default area;

declare module '../define.js' {
  interface OpenPointAreas {
    'gate/versioning': typeof area.entries;
  }
}
