// Gate "Events > Delivery rules" and the webhook delivery state table. Only a
// chaos run can drive a receiver through failures, so these are suite 'chaos'.
import { defineArea } from '../define.js';

const area = defineArea({
  service: 'gate',
  section: 'Events > Delivery rules',
  suite: 'chaos',
  entries: {
    'GATE-DLV-AT-LEAST-ONCE': {
      title: 'delivery is at least once: every event reaches a receiver that eventually answers 2xx',
      kind: 'event',
      anchor: [
        'At-least-once.',
        'The service reports outcomes through signed webhooks with at-least-once delivery.',
        "The service POSTs signed JSON events to the partner's `webhook_url`",
      ],
    },
    'GATE-DLV-2XX-ACKS': {
      title: 'any 2xx acknowledges (200, 201, 202, 204): the delivery becomes succeeded with delivered_at set',
      kind: 'transition',
      anchor: ['Any 2xx acknowledges.', '| pending | delivery attempt | partner endpoint returns 2xx | succeeded | `delivered_at` set |'],
    },
    'GATE-DLV-EVENT-ID-STABLE': {
      title: 'the event id is the same on every attempt of a delivery (dedupe key)',
      kind: 'event',
      anchor: ['Dedupe on the event id.', '| event_id | string | stable event id, also sent in the event-id header; dedupe key |'],
    },
    'GATE-DLV-NON-2XX-RETRIED': {
      title: 'a non-2xx answer schedules a retry and increments attempts',
      kind: 'transition',
      section: 'States and transitions > Webhook delivery',
      anchor: '| pending | delivery attempt | non-2xx, timeout, 408 or 429 | retry scheduled at 1m, 5m, 30m, 2h | `attempts` incremented |',
    },
    'GATE-DLV-LAST-RESPONSE-STATUS': {
      title:
        "last_response_status follows the attempts: the status the partner's endpoint answered the latest attempt with (200 after a 500 then a 200; 500 on a delivery dead-lettered after five 500s)",
      kind: 'field',
      section: 'Resources and their fields > WebhookDelivery',
      anchor: '| last_response_status | integer or null |  |',
    },
    'GATE-DLV-408-429-RETRIED': {
      title: '408 and 429 answers are transient and retried',
      kind: 'transition',
      anchor: 'A 408 or 429 response is transient and retried.',
    },
    'GATE-DLV-TIMEOUT-10S': {
      title: 'an attempt taking longer than 10 s counts as failed and is retried; one answered just under it succeeds',
      kind: 'limit',
      anchor: ['Timeout 10 seconds per attempt.', 'Webhook: 10 s timeout'],
    },
    'GATE-DLV-NETWORK-RETRIED': {
      title: 'a connection reset or timeout is retried',
      kind: 'transition',
      anchor: '| pending | delivery attempt | non-2xx, timeout, 408 or 429 |',
    },
    'GATE-DLV-SCHEDULE': {
      title: "retries follow 1m, 5m, 30m, 2h (times the target's declared time scale)",
      kind: 'limit',
      anchor: 'Retries at 1m, 5m, 30m, 2h; after 5 attempts without 2xx the delivery is dead-lettered and can be replayed.',
    },
    'GATE-DLV-SCHEDULE-REALTIME': { title: 'retries follow 1m, 5m, 30m, 2h in real time', kind: 'limit', depth: 'full', anchor: 'Retries at 1m, 5m, 30m, 2h;' },
    'GATE-DLV-DEAD-LETTER-5': {
      title: 'after 5 attempts without 2xx the delivery is dead_lettered with last_error set, next_attempt_at null and no sixth attempt',
      kind: 'transition',
      section: 'States and transitions > Webhook delivery',
      anchor: [
        '| any | 5 attempts without 2xx |  | dead_lettered | `last_error` set |',
        'after 5 attempts without 2xx the delivery is dead-lettered',
        '| attempts | integer | max 5 before dead-letter |',
        'Webhook: 10 s timeout, 5 attempts',
      ],
    },
    'GATE-DLV-SIGNED-EVERY-ATTEMPT': {
      title: 'every attempt carries a signature that verifies',
      kind: 'signature',
      anchor: 'The service reports outcomes through signed webhooks',
    },
    'GATE-DLV-LIST-AGREES': {
      title: 'the deliveries list agrees with what the receiver saw (attempts, status, delivered_at)',
      kind: 'field',
      anchor: ['| attempts | integer | max 5 before dead-letter |', '`attempts` incremented'],
    },
    'GATE-ERR-RETRY-SESSION-ONE-OBJECT': {
      title: 'a POST /gate_sessions retried with the same Idempotency-Key after a lost response creates exactly one session',
      kind: 'idempotency',
      section: 'Errors > Retry',
      anchor: 'Retry: retry network errors, 429 and 5xx with bounded randomized exponential backoff and the same Idempotency-Key.',
    },
    'GATE-ERR-RETRY-CUSTOMER-ONE-OBJECT': {
      title: 'a POST /customers retried with the same Idempotency-Key after a lost response creates exactly one customer',
      kind: 'idempotency',
      section: 'Errors > Retry',
      anchor: 'Retry: retry network errors, 429 and 5xx with bounded randomized exponential backoff and the same Idempotency-Key.',
    },
    'GATE-ERR-RETRY-PAY-OUT-ONE-OBJECT': {
      title: 'a POST /rails/pay_outs retried with the same Idempotency-Key after a lost response creates exactly one pay-out',
      kind: 'idempotency',
      section: 'Errors > Retry',
      anchor: 'Retry: retry network errors, 429 and 5xx with bounded randomized exponential backoff and the same Idempotency-Key.',
    },
  },
});

export default area;

declare module '../define.js' {
  interface CatalogueAreas {
    'gate/delivery': typeof area.entries;
  }
}
