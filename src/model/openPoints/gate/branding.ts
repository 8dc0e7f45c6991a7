// Open points of the Gate spec's branding: how a colour is stored (Resources and their fields > Branding).
import { defineOpenPoints } from '../define.js';

const area = defineOpenPoints({
  spec: 'gate',
  section: 'Resources and their fields > Branding',
  entries: {
    'gate.branding.colorCase': {
      kind: 'spelling',
      passage: 'The three colors match `^#[0-9a-fA-F]{6}$`.',
      what: 'how a colour reads back: as sent, or lower-cased (either case matches the pattern)',
      choices: ['as-sent', 'lowercased'],
      readBy: ['conformance/gate/branding.ts', 'src/explore/commands/gate/branding.ts'],
    },
  },
});

export default area;

declare module '../define.js' {
  interface OpenPointAreas {
    'gate/branding': typeof area.entries;
  }
}
