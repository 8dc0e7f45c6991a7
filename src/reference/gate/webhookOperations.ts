// Webhook operations: the deliveries list (bounds, order, has_more, never the
// payload), replay of the partner's own dead-lettered delivery, and the
// synthetic webhook.test event.
//
// Not shown — chosen (also in README.md):
// - Replay answers 200 with the requeued WebhookDelivery; a delivery that is not dead_lettered gives 409
//   delivery_not_dead_lettered. An Idempotency-Key on replay is honoured (same key → same answer).
// - POST /webhooks/test answers 201. The message is "This is a test event from Gate.".
import { GATE_LIMITS } from '../../model/limits.js';
import { choiceOf } from '../kit/dialect.js';
import { HttpError, type Req } from '../kit/http.js';
import type { Delivery } from '../kit/outbox.js';
import { refuseAccountAssertion } from './accountAssertion.js';
import { deliverableUrl, type GateArea, type GateCaller, type GateWorld } from './world.js';
import { deliveryPageSource } from './blindDeliveryPages.js';

const L = GATE_LIMITS.deliveries;
const STATUSES = new Set(['pending', 'in_flight', 'succeeded', 'dead_lettered']);

/**
 * A delivery's status as the world shows it: a delivery whose retry waits reads pending, or in_flight where the world
 * holds it there (gate.deliveries.retryStatus; the status held while a retry waits is not shown).
 */
export function shownStatus(world: GateWorld, d: { status: string; attempts: number }): string {
  return d.status === 'pending' && d.attempts > 0 && choiceOf(world.profile, 'gate.deliveries.retryStatus') === 'in_flight' ? 'in_flight' : d.status;
}

export function deliveryView(world: GateWorld, d: Delivery, listed = false): Record<string, unknown> {
  const iso = (ms: number | null) => (ms === null ? null : world.iso(ms));
  const view: Record<string, unknown> = {
    object: 'webhook_delivery',
    id: d.id,
    event_id: d.eventId,
    event_type: d.eventType,
    // Faults: the list redacts target_url; every view shows only the URL's origin.
    target_url:
      world.faults.has('whops-list-target-url-redacted') && listed
        ? ''
        : world.faults.has('whops-target-url-origin-only')
          ? new URL(d.targetUrl).origin
          : d.targetUrl,
    status: shownStatus(world, d),
    // Fault: the list shows only the first attempt, whatever the receiver saw.
    attempts: world.faults.has('whops-attempts-undercounted') ? Math.min(d.attempts, 1) : d.attempts,
    last_response_status: world.faults.has('whops-last-response-status-null') ? null : d.lastResponseStatus,
    last_error: d.lastError,
    next_attempt_at: d.status === 'succeeded' && listed && world.faults.has('whops-terminal-keeps-next-attempt') ? iso(d.updatedAt) : iso(d.nextAttemptAt),
    delivered_at: iso(d.deliveredAt),
    created_at: iso(d.createdAt),
    updated_at: iso(d.updatedAt),
  };
  if (world.faults.has('whops-list-includes-payload')) view.payload = d.body;
  return view;
}

function intParam(req: Req, name: string, def: number, min: number, max: number): number {
  const q = req.query.get(name);
  if (q === null) return def;
  if (!/^-?\d+$/.test(q)) throw new HttpError(400, `${name} must be an integer`, `invalid_${name}`);
  const n = Number(q);
  // No upper bound documented (skip): any larger integer skips past every entry.
  if (max === Number.MAX_SAFE_INTEGER && n > max) return max;
  if (n < min || n > max)
    throw new HttpError(400, `${name} must be between ${min} and ${max === Number.MAX_SAFE_INTEGER ? 'any larger integer' : max}`, `invalid_${name}`);
  return n;
}

/** The deliveries list shared by /webhooks/deliveries and /dashboard/webhook-deliveries. */
export function listDeliveries(world: GateWorld, caller: GateCaller, req: Req, url: string): Record<string, unknown> {
  const f = world.faults;
  const limit = intParam(
    req,
    'limit',
    f.has('whops-default-limit-20') ? 20 : L.limitDefault,
    f.has('whops-limit-zero-accepted') ? 0 : L.limitMin,
    f.has('whops-limit-max-off-by-one') ? L.limitMax + 1 : L.limitMax,
  );
  const skip = intParam(
    req,
    'skip',
    f.has('whops-skip-default-one') ? 1 : 0,
    f.has('whops-negative-skip-accepted') ? -1_000_000 : L.skipMin,
    Number.MAX_SAFE_INTEGER,
  );
  const status = req.query.get('status');
  let statusFilter: string | null = null;
  if (status !== null) {
    // Fault: the filter is ignored altogether — a documented status filters nothing, an unknown one is no 400.
    if (f.has('whops-status-filter-ignored')) statusFilter = null;
    else if (STATUSES.has(status)) statusFilter = status;
    else throw new HttpError(400, 'status must be one of pending, in_flight, succeeded, dead_lettered', 'invalid_status');
  }
  let all = world.outbox.list(caller.partner.name, 'gate', caller.mode);
  // Reading (reference.deliveryListOrder 'updated', which the open point gate.deliveries.listOrder sets): most recent first by
  // the last change (an attempt, a replay), newest creation first among equals.
  if (world.profile.reference?.deliveryListOrder === 'updated') all = [...all].sort((a, b) => b.updatedAt - a.updatedAt);
  if (f.has('whops-list-oldest-first')) all = [...all].reverse();
  // Fault: the filter compares with an internal state name ('delivered'), so status=succeeded matches nothing.
  // Sequence fault: the filter reads a status index the retry path never writes: a delivery waiting for its retry is
  // filed under the other of the two statuses it may read (in_flight where it reads pending, pending where it reads in_flight).
  const internal = (d: { status: string; attempts: number }) =>
    d.status === 'succeeded' && f.has('whops-status-filter-succeeded-empty')
      ? 'delivered'
      : d.status === 'pending' && d.attempts > 0 && f.has('seq-whops-status-index-misses-retry')
        ? shownStatus(world, d) === 'pending'
          ? 'in_flight'
          : 'pending'
        : shownStatus(world, d);
  // Steering fault: status=succeeded loses its deliveries and says more exist (an empty first page with has_more true).
  const hides = statusFilter === 'succeeded' && f.has('whops-status-filter-succeeded-hidden-has-more');
  if (statusFilter) all = all.filter((d) => internal(d) === statusFilter && !hides);
  all = deliveryPageSource(world, caller, statusFilter, skip, all);
  // Fault: a skip beyond 0 leaves out one delivery more than asked.
  const from = Math.max(0, skip > 0 && f.has('whops-skip-off-by-one') ? skip + 1 : skip);
  const page = all.slice(from, from + limit);
  return {
    object: 'list',
    data: page.map((d) => deliveryView(world, d, true)),
    has_more: hides || (!f.has('whops-has-more-false') && all.length > from + limit),
    url: f.has('whops-list-url-wrong') ? '/v1/deliveries' : url,
  };
}

export const area: GateArea = {
  name: 'webhookOperations',
  faults: [
    {
      name: 'seq-whops-status-index-misses-retry',
      service: 'gate',
      requirements: ['GATE-WHOPS-LIST-STATUS-FILTER'],
      description:
        "Sequence: the status filter of GET /webhooks/deliveries reads an index written when a delivery is made, when an attempt starts and when it ends in success or dead-letter — not when a failed attempt schedules the retry: a delivery waiting for its retry is listed under the other of the two statuses it may read (reading pending, under status=in_flight; reading in_flight, the world's other reading, under status=pending) and missed by its own.",
      suite: 'explore',
    },
    {
      name: 'whops-target-url-origin-only',
      service: 'gate',
      requirements: ['GATE-WHOPS-DELIVERY-TARGET-URL'],
      description: "A delivery's target_url is only the origin of the partner's webhook_url, not the URL itself.",
      suite: 'conformance',
    },
    {
      name: 'whops-list-oldest-first',
      service: 'gate',
      requirements: ['GATE-WHOPS-LIST-ORDER'],
      description: 'Deliveries are listed oldest first.',
      suite: 'conformance',
    },
    {
      name: 'whops-limit-max-off-by-one',
      service: 'gate',
      requirements: ['GATE-WHOPS-LIST-LIMIT-MAX'],
      description: 'limit=201 is accepted.',
      suite: 'conformance',
    },
    {
      name: 'whops-skip-default-one',
      service: 'gate',
      requirements: ['GATE-WHOPS-LIST-SKIP-DEFAULT'],
      description: 'Without skip the list starts at the second delivery (skip defaults to 1).',
      suite: 'conformance',
    },
    {
      name: 'whops-negative-skip-accepted',
      service: 'gate',
      requirements: ['GATE-WHOPS-LIST-SKIP'],
      description: 'A negative skip is accepted.',
      suite: 'conformance',
    },
    {
      name: 'whops-default-limit-20',
      service: 'gate',
      requirements: ['GATE-WHOPS-LIST-DEFAULT-LIMIT'],
      description: 'The default page size is 20 instead of 50.',
      suite: 'conformance',
    },
    {
      name: 'whops-status-filter-succeeded-empty',
      service: 'gate',
      requirements: ['GATE-WHOPS-LIST-STATUS-FILTER'],
      description: 'GET /webhooks/deliveries?status=succeeded lists nothing: the filter compares with an internal state name (delivered).',
      suite: 'conformance',
    },
    {
      name: 'whops-status-filter-succeeded-hidden-has-more',
      service: 'gate',
      requirements: ['GATE-WHOPS-LIST-STATUS-FILTER'],
      description:
        'GET /webhooks/deliveries?status=succeeded answers an empty first page with has_more true: the succeeded deliveries are dropped, and has_more says they are further on (a steering target: an empty page read as "cannot judge").',
      suite: 'conformance',
    },
    {
      name: 'whops-status-filter-ignored',
      service: 'gate',
      requirements: ['GATE-WHOPS-LIST-STATUS-FILTER'],
      description:
        'The status query is ignored: pending, in_flight, succeeded and dead_lettered list every delivery, and an unknown status answers 200 instead of 400.',
      suite: 'conformance',
    },
    {
      name: 'whops-list-includes-payload',
      service: 'gate',
      requirements: ['GATE-WHOPS-NO-PAYLOAD'],
      description: 'Each listed delivery carries its raw payload.',
      suite: 'conformance',
    },
    {
      name: 'whops-has-more-false',
      service: 'gate',
      requirements: ['GATE-WHOPS-LIST-HAS-MORE'],
      description: 'has_more is always false.',
      suite: 'conformance',
    },
    {
      name: 'whops-test-same-event',
      service: 'gate',
      requirements: ['GATE-WHOPS-TEST-NEW-EVENT'],
      description: 'POST /webhooks/test reuses the first test event id on every call.',
      suite: 'conformance',
    },
    {
      name: 'whops-test-without-url-200',
      service: 'gate',
      requirements: ['GATE-WHOPS-TEST-NO-URL-400'],
      description: 'POST /webhooks/test without a webhook_url answers a delivery instead of 400.',
      suite: 'conformance',
    },
    {
      name: 'whops-test-livemode-true',
      service: 'gate',
      requirements: ['GATE-WHOPS-TEST-EVENT-DATA'],
      description: 'The webhook.test event carries livemode true.',
      suite: 'conformance',
    },
    {
      name: 'whops-test-status-succeeded',
      service: 'gate',
      requirements: ['GATE-WHOPS-TEST-PENDING'],
      description: 'POST /webhooks/test answers status succeeded before any attempt.',
      suite: 'conformance',
    },
    {
      name: 'evt-webhook-test-unprompted',
      service: 'gate',
      requirements: ['GATE-EVT-WEBHOOK-TEST-ONLY'],
      description: 'Cancelling a session also sends a webhook.test nobody requested.',
      suite: 'conformance',
    },
    {
      name: 'evt-id-not-uuid',
      service: 'gate',
      requirements: ['GATE-EVT-ENVELOPE-ID'],
      description: 'Event ids are evt_… strings instead of UUIDs.',
      suite: 'conformance',
    },
    {
      name: 'evt-created-at-iso',
      service: 'gate',
      requirements: ['GATE-EVT-ENVELOPE-CREATED-AT'],
      description: 'The envelope created_at is an ISO string instead of integer unix seconds.',
      suite: 'conformance',
    },
    {
      name: 'evt-type-missing',
      service: 'gate',
      requirements: ['GATE-EVT-ENVELOPE-TYPE'],
      description: 'The envelope carries no type (the event-type header still does).',
      suite: 'conformance',
    },
    {
      name: 'evt-data-array',
      service: 'gate',
      requirements: ['GATE-EVT-ENVELOPE-DATA'],
      description: 'The envelope data is an array holding the object instead of the object.',
      suite: 'conformance',
    },
    {
      name: 'whops-list-url-wrong',
      service: 'gate',
      requirements: ['GATE-WHOPS-LIST-ENVELOPE'],
      description: 'The deliveries list url is /v1/deliveries instead of the path of the list.',
      suite: 'conformance',
    },
    {
      name: 'whops-limit-zero-accepted',
      service: 'gate',
      requirements: ['GATE-WHOPS-LIST-LIMIT-MIN'],
      description: 'limit=0 is accepted (an empty page) instead of 400.',
      suite: 'conformance',
    },
    {
      name: 'whops-list-target-url-redacted',
      service: 'gate',
      requirements: ['GATE-WHOPS-DELIVERY-SHAPE'],
      description: 'The deliveries list shows target_url as an empty string instead of the webhook_url.',
      suite: 'conformance',
    },
    {
      name: 'whops-terminal-keeps-next-attempt',
      service: 'gate',
      requirements: ['GATE-WHOPS-DELIVERY-TERMINAL-NO-NEXT'],
      description: 'Succeeded deliveries keep a next_attempt_at in the list.',
      suite: 'conformance',
    },
    {
      name: 'whops-replay-foreign',
      service: 'gate',
      requirements: ['GATE-WHOPS-REPLAY-FOREIGN-404'],
      description: "Another partner's dead-lettered delivery can be replayed.",
      suite: 'conformance',
    },
    {
      name: 'whops-attempts-undercounted',
      service: 'gate',
      requirements: ['GATE-DLV-LIST-AGREES'],
      description: 'The deliveries list shows at most 1 attempt, however many were made.',
      suite: 'chaos',
    },
    {
      name: 'whops-replay-noop',
      service: 'gate',
      requirements: ['GATE-WHOPS-REPLAY-DEAD-LETTERED'],
      description: 'Replay answers 200 but never requeues the delivery.',
      suite: 'chaos',
    },
    {
      name: 'whops-skip-off-by-one',
      service: 'gate',
      requirements: ['GATE-WHOPS-LIST-SKIP-OFFSET'],
      description: 'skip=N (N > 0) leaves out N + 1 deliveries.',
      suite: 'conformance',
    },
    {
      name: 'whops-last-response-status-null',
      service: 'gate',
      requirements: ['GATE-WHOPS-DELIVERY-LAST-RESPONSE-STATUS'],
      description: "Deliveries read last_response_status null even after the partner's endpoint answered.",
      suite: 'conformance',
    },
  ],
  register(router, world) {
    const firstTestEvent = new Map<string, string>();

    router.on('GET', '/webhooks/deliveries', (req) => {
      const caller = world.authSecret(req);
      return { status: 200, body: listDeliveries(world, caller, req, '/v1/webhooks/deliveries') };
    });

    router.on('POST', '/webhooks/deliveries/:id/replay', async (req) => {
      const caller = world.authSecret(req);
      const d = world.outbox.get(req.params.id!);
      const own = d && d.service === 'gate' && d.mode === caller.mode && d.partner === caller.partner.name;
      if (!d || (!own && !(world.faults.has('whops-replay-foreign') && d.service === 'gate'))) {
        throw new HttpError(404, `No such webhook delivery: ${req.params.id}`, 'resource_missing');
      }
      return world.idempotent(caller, req, 'webhook_replay', { required: false }, () => {
        // Reading (gate.deliveries.replayRefused): the error for a delivery that is not dead-lettered is not shown — 409, or 400.
        const refused = choiceOf(world.profile, 'gate.deliveries.replayRefused') === '400' ? 400 : 409;
        if (d.status !== 'dead_lettered')
          throw new HttpError(
            refused,
            `Delivery ${d.id} is ${shownStatus(world, d)}; only dead-lettered deliveries can be replayed.`,
            'delivery_not_dead_lettered',
          );
        if (world.faults.has('whops-replay-noop')) return { status: 200, body: { ...deliveryView(world, d), status: 'pending' } };
        return { status: 200, body: deliveryView(world, world.outbox.replay(d.id)) };
      });
    });

    router.on('POST', '/webhooks/test', (req) => {
      refuseAccountAssertion(world, req);
      const caller = world.authSecret(req);
      const st = world.settings(caller);
      if (st.webhookUrl && !deliverableUrl(world, caller))
        throw new HttpError(400, 'The webhook_url is not https: HTTPS is required in live mode, nothing is sent to it.', 'webhook_url_not_https');
      if (!st.webhookUrl) {
        if (!world.faults.has('whops-test-without-url-200')) throw new HttpError(400, 'No webhook_url is configured for this account.', 'webhook_url_missing');
        const now = world.clock.now();
        return {
          status: 201,
          body: {
            object: 'webhook_delivery',
            id: world.newId('whd'),
            event_id: crypto.randomUUID(),
            event_type: 'webhook.test',
            target_url: null,
            status: 'pending',
            attempts: 0,
            last_response_status: null,
            last_error: null,
            next_attempt_at: world.iso(now),
            delivered_at: null,
            created_at: world.iso(now),
            updated_at: world.iso(now),
          },
        };
      }
      const data = { livemode: world.faults.has('whops-test-livemode-true'), message: 'This is a test event from Gate.' };
      const d = world.emitDelivery(caller, 'webhook.test', data)!;
      const scope = `${caller.partner.name}\u0000${caller.mode}`;
      if (world.faults.has('whops-test-same-event')) {
        const first = firstTestEvent.get(scope);
        if (first) {
          d.eventId = first;
          d.body = JSON.stringify({ ...(JSON.parse(d.body) as object), id: first });
        } else firstTestEvent.set(scope, d.eventId);
      }
      const view = deliveryView(world, d);
      return { status: 201, body: world.faults.has('whops-test-status-succeeded') ? { ...view, status: 'succeeded' } : view };
    });
  },
};
