// Gate "Endpoints > Webhook operations" and the WebhookDelivery resource.
import type { Requirement } from '../types.js';

const section = 'Endpoints > Webhook operations';
const r = (id: string, title: string, kind: Requirement['kind'], roles: Requirement['roles'] = ['gate.partner']): Requirement => ({
  id,
  service: 'gate',
  section,
  title,
  kind,
  roles,
  suite: 'conformance',
});

export const requirements: Requirement[] = [
  r('GATE-WHOPS-LIST-ENVELOPE', 'GET /webhooks/deliveries answers a list envelope (object list, data, has_more, url) of WebhookDelivery', 'envelope'),
  r('GATE-WHOPS-LIST-DEFAULT-LIMIT', 'limit defaults to 50', 'pagination', ['gate.webhooks']),
  r('GATE-WHOPS-LIST-LIMIT-MIN', 'limit 1 is accepted and 0 gives 400 invalid_request', 'limit'),
  r('GATE-WHOPS-LIST-LIMIT-MAX', 'limit 200 is accepted and 201 gives 400 invalid_request', 'limit'),
  r('GATE-WHOPS-LIST-SKIP', 'skip is an integer ≥ 0: 0 accepted, −1 gives 400 invalid_request', 'limit'),
  r('GATE-WHOPS-LIST-STATUS-FILTER', 'status filters by pending, in_flight, succeeded or dead_lettered; an unknown status gives 400', 'enum', ['gate.webhooks']),
  r('GATE-WHOPS-LIST-ORDER', 'deliveries are listed most recent first', 'pagination', ['gate.webhooks']),
  r('GATE-WHOPS-LIST-HAS-MORE', 'has_more is true when more deliveries exist beyond the page', 'pagination', ['gate.webhooks']),
  r('GATE-WHOPS-NO-PAYLOAD', 'the raw payload is never returned by the deliveries list', 'field', ['gate.webhooks']),
  r('GATE-WHOPS-DELIVERY-SHAPE', 'a WebhookDelivery has object webhook_delivery, id, event_id, event_type, target_url, status in the enum, attempts integer ≤ 5, nullable last_response_status, last_error, next_attempt_at, delivered_at', 'field', ['gate.webhooks']),
  r('GATE-WHOPS-DELIVERY-TERMINAL-NO-NEXT', 'next_attempt_at is null when the delivery is terminal (succeeded or dead_lettered); a succeeded delivery has delivered_at set', 'field', ['gate.webhooks']),
  r('GATE-WHOPS-TEST-PENDING', 'POST /webhooks/test answers a WebhookDelivery with event_type webhook.test and status pending', 'status', ['gate.webhooks']),
  r('GATE-WHOPS-TEST-NEW-EVENT', 'POST /webhooks/test is not idempotent: each call creates a new event with its own event id', 'idempotency', ['gate.webhooks']),
  r('GATE-WHOPS-TEST-NO-URL-400', 'POST /webhooks/test gives 400 invalid_request when no webhook_url is configured', 'error'),
  r('GATE-WHOPS-TEST-EVENT-DATA', 'the webhook.test event carries data.livemode false and a message string', 'event', ['gate.webhooks']),
  r('GATE-WHOPS-REPLAY-FOREIGN-404', 'replay of another partner\'s delivery gives 404', 'auth', ['gate.webhooks', 'gate.secondPartner']),
  {
    id: 'GATE-WHOPS-REPLAY-DEAD-LETTERED',
    service: 'gate',
    section,
    title: 'replay requeues the partner\'s own dead-lettered delivery, which is then delivered once the endpoint is healthy',
    kind: 'transition',
    roles: ['gate.webhooks'],
    suite: 'chaos',
  },
];
