// Gate "Events > Delivery rules" and the webhook delivery state table. Only a
// chaos run can drive a receiver through failures, so these are suite 'chaos'.
import { defineArea } from '../define.js';

const area = defineArea({
  service: 'gate',
  section: 'Events > Delivery rules',
  suite: 'chaos',
  entries: {
    'GATE-DLV-AT-LEAST-ONCE': { title: 'delivery is at least once: every event reaches a receiver that eventually answers 2xx', kind: 'event' },
    'GATE-DLV-2XX-ACKS': { title: 'any 2xx acknowledges (200, 201, 202, 204): the delivery becomes succeeded with delivered_at set', kind: 'transition' },
    'GATE-DLV-EVENT-ID-STABLE': { title: 'the event id is the same on every attempt of a delivery (dedupe key)', kind: 'event' },
    'GATE-DLV-NON-2XX-RETRIED': { title: 'a non-2xx answer schedules a retry and increments attempts', kind: 'transition', section: 'States and transitions > Webhook delivery' },
    'GATE-DLV-408-429-RETRIED': { title: '408 and 429 answers are transient and retried', kind: 'transition' },
    'GATE-DLV-TIMEOUT-10S': { title: 'an attempt taking longer than 10 s counts as failed and is retried; one answered just under it succeeds', kind: 'limit' },
    'GATE-DLV-NETWORK-RETRIED': { title: 'a connection reset or timeout is retried', kind: 'transition' },
    'GATE-DLV-SCHEDULE': { title: 'retries follow 1m, 5m, 30m, 2h (times the target\'s declared time scale)', kind: 'limit' },
    'GATE-DLV-SCHEDULE-REALTIME': { title: 'retries follow 1m, 5m, 30m, 2h in real time', kind: 'limit', depth: 'full' },
    'GATE-DLV-DEAD-LETTER-5': { title: 'after 5 attempts without 2xx the delivery is dead_lettered with last_error set, next_attempt_at null and no sixth attempt', kind: 'transition', section: 'States and transitions > Webhook delivery' },
    'GATE-DLV-SIGNED-EVERY-ATTEMPT': { title: 'every attempt carries a signature that verifies', kind: 'signature' },
    'GATE-DLV-LIST-AGREES': { title: 'the deliveries list agrees with what the receiver saw (attempts, status, delivered_at)', kind: 'field' },
    'GATE-ERR-RETRY-SESSION-ONE-OBJECT': { title: 'a POST /gate_sessions retried with the same Idempotency-Key after a lost response creates exactly one session', kind: 'idempotency', section: 'Errors > Retry' },
    'GATE-ERR-RETRY-CUSTOMER-ONE-OBJECT': { title: 'a POST /customers retried with the same Idempotency-Key after a lost response creates exactly one customer', kind: 'idempotency', section: 'Errors > Retry' },
    'GATE-ERR-RETRY-PAY-OUT-ONE-OBJECT': { title: 'a POST /rails/pay_outs retried with the same Idempotency-Key after a lost response creates exactly one pay-out', kind: 'idempotency', section: 'Errors > Retry' },
  },
});

export default area;

declare module '../define.js' {
  interface CatalogueAreas {
    'gate/delivery': typeof area.entries;
  }
}
