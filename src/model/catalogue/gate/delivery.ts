// Gate "Events > Delivery rules" and the webhook delivery state table. Only a
// chaos run can drive a receiver through failures, so these are suite 'chaos'.
import type { Requirement } from '../types.js';

const d = (id: string, section: string, title: string, kind: Requirement['kind'], depth?: 'full'): Requirement => ({
  id,
  service: 'gate',
  section,
  title,
  kind,
  roles: ['gate.webhooks'],
  suite: 'chaos',
  ...(depth ? { depth } : {}),
});

// API side under network faults (Errors > Retry: same Idempotency-Key after a lost response).
const retry = (id: string, title: string, roles: Requirement['roles']): Requirement => ({
  id,
  service: 'gate',
  section: 'Errors > Retry',
  title,
  kind: 'idempotency',
  roles,
  suite: 'chaos',
});

const RULES = 'Events > Delivery rules';
const STATES = 'States and transitions > Webhook delivery';

export const requirements: Requirement[] = [
  d('GATE-DLV-AT-LEAST-ONCE', RULES, 'delivery is at least once: every event reaches a receiver that eventually answers 2xx', 'event'),
  d('GATE-DLV-2XX-ACKS', RULES, 'any 2xx acknowledges (200, 201, 202, 204): the delivery becomes succeeded with delivered_at set', 'transition'),
  d('GATE-DLV-EVENT-ID-STABLE', RULES, 'the event id is the same on every attempt of a delivery (dedupe key)', 'event'),
  d('GATE-DLV-NON-2XX-RETRIED', STATES, 'a non-2xx answer schedules a retry and increments attempts', 'transition'),
  d('GATE-DLV-408-429-RETRIED', RULES, '408 and 429 answers are transient and retried', 'transition'),
  d('GATE-DLV-TIMEOUT-10S', RULES, 'an attempt taking longer than 10 s counts as failed and is retried; one answered just under it succeeds', 'limit'),
  d('GATE-DLV-NETWORK-RETRIED', RULES, 'a connection reset or timeout is retried', 'transition'),
  d('GATE-DLV-SCHEDULE', RULES, 'retries follow 1m, 5m, 30m, 2h (times the target\'s declared time scale)', 'limit'),
  d('GATE-DLV-SCHEDULE-REALTIME', RULES, 'retries follow 1m, 5m, 30m, 2h in real time', 'limit', 'full'),
  d('GATE-DLV-DEAD-LETTER-5', STATES, 'after 5 attempts without 2xx the delivery is dead_lettered with last_error set, next_attempt_at null and no sixth attempt', 'transition'),
  d('GATE-DLV-SIGNED-EVERY-ATTEMPT', RULES, 'every attempt carries a signature that verifies', 'signature'),
  d('GATE-DLV-LIST-AGREES', RULES, 'the deliveries list agrees with what the receiver saw (attempts, status, delivered_at)', 'field'),
  retry('GATE-ERR-RETRY-SESSION-ONE-OBJECT', 'a POST /gate_sessions retried with the same Idempotency-Key after a lost response creates exactly one session', ['gate.partner']),
  retry('GATE-ERR-RETRY-CUSTOMER-ONE-OBJECT', 'a POST /customers retried with the same Idempotency-Key after a lost response creates exactly one customer', ['gate.partner']),
  retry('GATE-ERR-RETRY-PAY-OUT-ONE-OBJECT', 'a POST /rails/pay_outs retried with the same Idempotency-Key after a lost response creates exactly one pay-out', ['gate.rails']),
];
