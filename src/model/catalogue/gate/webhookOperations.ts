// Gate "Endpoints > Webhook operations" and the WebhookDelivery resource.
import { defineArea } from '../define.js';

const area = defineArea({
  service: 'gate',
  section: 'Endpoints > Webhook operations',
  entries: {
    'GATE-WHOPS-LIST-ENVELOPE': { title: 'GET /webhooks/deliveries answers a list envelope (object list, data, has_more, url) of WebhookDelivery', kind: 'envelope' },
    'GATE-WHOPS-LIST-DEFAULT-LIMIT': { title: 'limit defaults to 50', kind: 'pagination' },
    'GATE-WHOPS-LIST-LIMIT-MIN': { title: 'limit 1 is accepted and 0 gives 400 invalid_request', kind: 'limit' },
    'GATE-WHOPS-LIST-LIMIT-MAX': { title: 'limit 200 is accepted and 201 gives 400 invalid_request', kind: 'limit' },
    'GATE-WHOPS-LIST-SKIP': { title: 'skip is an integer ≥ 0: 0 accepted, −1 gives 400 invalid_request', kind: 'limit' },
    'GATE-WHOPS-LIST-STATUS-FILTER': { title: 'status filters by pending, in_flight, succeeded or dead_lettered; an unknown status gives 400', kind: 'enum' },
    'GATE-WHOPS-LIST-ORDER': { title: 'deliveries are listed most recent first', kind: 'pagination' },
    'GATE-WHOPS-LIST-HAS-MORE': { title: 'has_more is true when more deliveries exist beyond the page', kind: 'pagination' },
    'GATE-WHOPS-NO-PAYLOAD': { title: 'the raw payload is never returned by the deliveries list', kind: 'field' },
    'GATE-WHOPS-DELIVERY-SHAPE': { title: 'a WebhookDelivery has object webhook_delivery, id, event_id, event_type, target_url, status in the enum, attempts integer ≤ 5, nullable last_response_status, last_error, next_attempt_at, delivered_at', kind: 'field' },
    'GATE-WHOPS-DELIVERY-TERMINAL-NO-NEXT': { title: 'next_attempt_at is null when the delivery is terminal (succeeded or dead_lettered); a succeeded delivery has delivered_at set', kind: 'field' },
    'GATE-WHOPS-TEST-PENDING': { title: 'POST /webhooks/test answers a WebhookDelivery with event_type webhook.test and status pending', kind: 'status' },
    'GATE-WHOPS-TEST-NEW-EVENT': { title: 'POST /webhooks/test is not idempotent: each call creates a new event with its own event id', kind: 'idempotency' },
    'GATE-WHOPS-TEST-NO-URL-400': { title: 'POST /webhooks/test gives 400 invalid_request when no webhook_url is configured', kind: 'error' },
    'GATE-WHOPS-TEST-EVENT-DATA': { title: 'the webhook.test event carries data.livemode false and a message string', kind: 'event' },
    'GATE-WHOPS-REPLAY-FOREIGN-404': { title: 'replay of another partner\'s delivery gives 404', kind: 'auth' },
    'GATE-WHOPS-REPLAY-DEAD-LETTERED': { title: 'replay requeues the partner\'s own dead-lettered delivery, which is then delivered once the endpoint is healthy', kind: 'transition', suite: 'chaos' },
  },
});

export default area;

declare module '../define.js' {
  interface CatalogueAreas {
    'gate/webhookOperations': typeof area.entries;
  }
}
