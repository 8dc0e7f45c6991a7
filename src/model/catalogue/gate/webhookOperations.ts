// Gate "Endpoints > Webhook operations" and the WebhookDelivery resource.
import { defineArea } from '../define.js';

const area = defineArea({
  service: 'gate',
  section: 'Endpoints > Webhook operations',
  entries: {
    'GATE-WHOPS-LIST-ENVELOPE': {
      title: 'GET /webhooks/deliveries answers a list envelope (object list, data, has_more, url) of WebhookDelivery',
      kind: 'envelope',
      anchor: [
        'Response: list envelope of WebhookDelivery',
        'List envelope: `object` = `list`, `data` (array), `has_more` (boolean), `url` (string, path of the list).',
      ],
    },
    'GATE-WHOPS-LIST-DEFAULT-LIMIT': {
      title: 'limit defaults to 50',
      kind: 'pagination',
      anchor: ['`limit` (integer 1–200, default 50)', 'Webhook delivery list: `limit` 1–200, default 50; `skip` ≥ 0.'],
    },
    'GATE-WHOPS-LIST-LIMIT-MIN': {
      title: 'limit 1 is accepted and 0 gives 400 invalid_request',
      kind: 'limit',
      anchor: ['`limit` (integer 1–200, default 50)', '400 for an out-of-range limit', 'Webhook delivery list: `limit` 1–200'],
    },
    'GATE-WHOPS-LIST-LIMIT-MAX': {
      title: 'limit 200 is accepted and 201 gives 400 invalid_request',
      kind: 'limit',
      anchor: ['`limit` (integer 1–200, default 50)', '400 for an out-of-range limit', 'Webhook delivery list: `limit` 1–200'],
    },
    'GATE-WHOPS-LIST-SKIP': {
      title: 'skip is an integer ≥ 0: 0 accepted, −1 gives 400 invalid_request',
      kind: 'limit',
      anchor: ['`skip` (integer ≥ 0, default 0)', 'negative skip', '`skip` ≥ 0.'],
    },
    'GATE-WHOPS-LIST-SKIP-DEFAULT': {
      title: 'skip defaults to 0: the list without skip is the list with skip=0',
      kind: 'pagination',
      anchor: '`skip` (integer ≥ 0, default 0)',
    },
    'GATE-WHOPS-LIST-SKIP-OFFSET': {
      title: 'skip=N leaves out the N most recent deliveries: the page skip=N gives is the unskipped list from its (N+1)th delivery on',
      kind: 'pagination',
      anchor: '`skip` (integer ≥ 0, default 0)',
    },
    'GATE-WHOPS-DELIVERY-LAST-RESPONSE-STATUS': {
      title: "last_response_status is the HTTP status the partner's endpoint answered the last attempt with",
      kind: 'field',
      section: 'Resources and their fields > WebhookDelivery',
      anchor: '| last_response_status | integer or null |  |',
    },
    'GATE-WHOPS-LIST-STATUS-FILTER': {
      title: 'status filters by pending, in_flight, succeeded or dead_lettered; an unknown status gives 400',
      kind: 'enum',
      anchor: [
        '| GET | /webhooks/deliveries | Query: `status` (`pending`, `in_flight`, `succeeded`, `dead_lettered`)',
        'or unknown status',
        'bad webhook list query',
      ],
    },
    'GATE-WHOPS-LIST-ORDER': {
      title:
        'deliveries are listed most recent first: by creation or by last change (created_at or updated_at never increasing down the list; which one is observed)',
      kind: 'pagination',
      anchor: 'most recent first',
    },
    'GATE-WHOPS-LIST-HAS-MORE': {
      title: 'has_more is true when more deliveries exist beyond the page',
      kind: 'pagination',
      anchor: '`has_more` true when more exist',
    },
    'GATE-WHOPS-NO-PAYLOAD': { title: 'the raw payload is never returned by the deliveries list', kind: 'field', anchor: 'The raw payload is never returned.' },
    'GATE-WHOPS-DELIVERY-SHAPE': {
      title:
        'a WebhookDelivery has object webhook_delivery, id, event_id, event_type, target_url, status in the enum, attempts integer ≤ 5, nullable last_response_status, last_error, next_attempt_at, delivered_at',
      kind: 'field',
      anchor: [
        '| object | string | `webhook_delivery` |',
        '| id | string | delivery id |',
        '| event_type | string |  |',
        '| status | string | `pending`, `in_flight`, `succeeded`, `dead_lettered` |',
        '| last_response_status | integer or null |  |',
        '| last_error | string or null |  |',
        '| delivered_at | string or null |  |',
        '| created_at, updated_at | string or null |  |',
        '| event_id | string | stable event id',
        'Single-object responses carry an `object` discriminator string.',
      ],
    },
    'GATE-WHOPS-DELIVERY-TERMINAL-NO-NEXT': {
      title: 'next_attempt_at is null when the delivery is terminal (succeeded or dead_lettered); a succeeded delivery has delivered_at set',
      kind: 'field',
      anchor: '| next_attempt_at | string or null | null when terminal |',
    },
    'GATE-WHOPS-TEST-PENDING': {
      title: 'POST /webhooks/test answers a WebhookDelivery with event_type webhook.test and status pending',
      kind: 'status',
      anchor: ['Response: WebhookDelivery with `event_type` = `webhook.test`, `status` = `pending`.', '| POST | /webhooks/test | No body, no parameters.'],
    },
    'GATE-WHOPS-TEST-NEW-EVENT': {
      title: 'POST /webhooks/test is not idempotent: each call creates a new event with its own event id',
      kind: 'idempotency',
      anchor: 'Not idempotent: each call creates a new event with its own event id.',
    },
    'GATE-WHOPS-TEST-NO-URL-400': {
      title: 'POST /webhooks/test gives 400 invalid_request when no webhook_url is configured',
      kind: 'error',
      anchor: ['400 when no webhook_url is configured.', 'no webhook_url for test'],
    },
    'GATE-WHOPS-TEST-EVENT-DATA': {
      title: 'the webhook.test event carries data.livemode false and a message string',
      kind: 'event',
      anchor: "Enqueues one synthetic `webhook.test` event to the partner's configured `webhook_url`.",
    },
    'GATE-WHOPS-REPLAY-FOREIGN-404': {
      title: "replay of another partner's delivery gives 404",
      kind: 'auth',
      anchor: ["Requeues the partner's own dead-lettered delivery", 'Partner-scoped ids of another partner return 404.'],
    },
    'GATE-WHOPS-REPLAY-DEAD-LETTERED': {
      title: "replay requeues the partner's own dead-lettered delivery, which is then delivered once the endpoint is healthy",
      kind: 'transition',
      suite: 'chaos',
      anchor: ["| dead_lettered | POST replay | delivery is the partner's own | requeued |", "Requeues the partner's own dead-lettered delivery"],
    },
    'GATE-WHOPS-DELIVERY-TARGET-URL': {
      title: "A delivery's target_url is the partner's configured webhook_url",
      kind: 'field',
      section: 'Resources and their fields > WebhookDelivery',
      anchor: '| target_url | string | the partner webhook_url |',
    },
  },
});

export default area;

declare module '../define.js' {
  interface CatalogueAreas {
    'gate/webhookOperations': typeof area.entries;
  }
}
