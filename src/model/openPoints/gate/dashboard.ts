// Open points of the Gate spec's dashboard: the request and response shapes of its routes (Endpoints > Dashboard).
import { defineOpenPoints } from '../define.js';

const area = defineOpenPoints({
  spec: 'gate',
  section: 'Endpoints > Dashboard',
  entries: {
    'gate.dashboard.shapes': {
      kind: 'not-shown',
      passage: 'Request and response shapes: not shown.',
      what: "the dashboard's shapes: the reference's (webhook-settings takes webhook_url, the rotation answers secret), or others (url, signing_secret.value, usage counters nested); the world's profile then names them (the configureWebhook trigger, gate.rotatedSecretPath)",
      choices: ['reference', 'nested'],
      readBy: ['conformance/gate/dashboard.ts', 'src/needs/gate/webhookSettings.ts', 'src/needs/gate/webhookSecretRotation.ts'],
    },
  },
});

export default area;

declare module '../define.js' {
  interface OpenPointAreas {
    'gate/dashboard': typeof area.entries;
  }
}
