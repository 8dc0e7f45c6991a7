// Gate "Endpoints > Dashboard": the paths are named, their request and response
// shapes are not shown. What a partner can rely on: secret keys may call them
// (Authentication rule 5), the webhook settings set where events go, a live
// webhook URL must be https (Events), and a rotated signing secret signs what
// follows (Authentication rule 8). Bodies come from the profile's
// configureWebhook template (gateWebhookSettings); the rotated secret is read
// where the profile says the rotate response carries it.
import { defineArea } from '../define.js';

const area = defineArea({
  service: 'gate',
  section: 'Endpoints > Dashboard',
  entries: {
    'GATE-DASH-SK-ACCESS': {
      title:
        "Secret keys may call the dashboard endpoints: GET /dashboard/usage, /dashboard/volume, /dashboard/webhook-settings and /dashboard/webhook-deliveries answer a partner's secret key with 2xx",
      kind: 'auth',
      section: 'Authentication',
      anchor: [
        'Secret keys may call the same dashboard endpoints.',
        'Paths named: GET `/dashboard/usage`, GET `/dashboard/volume`',
        'branding, webhook tools, dashboard |',
      ],
    },
    'GATE-DASH-WEBHOOK-SETTINGS': {
      title:
        "PATCH /dashboard/webhook-settings sets the partner's webhook URL: GET /dashboard/webhook-settings then shows it, and the next delivery goes to it",
      kind: 'field',
      anchor: 'GET and PATCH `/dashboard/webhook-settings`, GET `/dashboard/webhook-deliveries`, POST',
      needs: ['gateWebhookSettings'],
    },
    'GATE-DASH-SECRET-ROTATE': {
      title:
        'POST /dashboard/webhook-secret/rotate issues a new signing secret: deliveries after it are signed with it or, during the migration, with the one it replaced (when the sender switches is not shown), never an older one',
      kind: 'signature',
      section: 'Authentication',
      anchor: [
        'Webhook secrets rotate the same way; a receiver may verify with two secrets during migration.',
        'GET `/dashboard/webhook-deliveries`, POST `/dashboard/webhook-secret/rotate`',
      ],
      needs: ['gateWebhookSecretRotation'],
    },
    'GATE-DASH-LIVE-HTTPS': {
      title:
        'In live mode the webhook URL must be https: an http:// URL set with a live key on the production base is refused at the settings call (400, nothing changed) or, accepted there, never sent to (when it is enforced is not shown: which is observed); the https URL is accepted',
      kind: 'field',
      section: 'Events',
      anchor: '(HTTPS required in live mode)',
      needs: ['gateWebhookSettings', 'gateLiveKey', 'gateProduction'],
    },
  },
});

export default area;

declare module '../define.js' {
  interface CatalogueAreas {
    'gate/dashboard': typeof area.entries;
  }
}
