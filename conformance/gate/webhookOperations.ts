// Gate "Endpoints > Webhook operations": the deliveries list (bounds at the
// edges, default page, order, has_more, status filter, never the payload),
// POST /webhooks/test (pending, a new event each call, 400 without a
// webhook_url) and replay of another partner's delivery (404). Success
// statuses are not shown: any 2xx.
import { randomUUID } from 'node:crypto';
import type { Exchange } from '../../src/client/types.js';
import type { GateActor } from '../../src/needs/define.js';
import { check, defineSuite, type CheckTools, type RequirementId } from '../../src/runner/check.js';
import { GATE_LIMITS } from '../../src/model/limits.js';
import { DELIVERY_STATUSES, TERMINAL_DELIVERY_STATUSES, WebhookDelivery, WebhookDeliveryList, WebhookTestData } from '../../src/model/schemas/gate/webhooks.js';
import type { ReceivedEvent } from '../../src/webhooks/types.js';
import { expect2xx } from '../../support/expect.js';
import { requireKeyRoom } from '../../support/gate/budget.js';
import { customerPath, newCustomerInput } from '../../support/gate/customers.js';
import { recencyReadings } from '../../support/gate/deliveryOrder.js';
import { expectListUrl } from '../../support/gate/lists.js';

const L = GATE_LIMITS.deliveries;
const LIST = '/webhooks/deliveries';
const EVENT_WAIT_MS = 30_000;
/** Top-up budget when the partner has fewer deliveries than the default page (POST /webhooks/test is 10/min per key). */
const TOP_UP_TESTS = 6;
/** Customer create + delete pairs (customer writes: 30/min) that each add two deliveries. */
const TOP_UP_CUSTOMER_PAIRS = 23;
/** Field names a list could carry the raw event in. */
const PAYLOAD_KEYS = ['payload', 'body', 'data', 'raw', 'raw_body', 'request_body', 'event', 'envelope'];

type Delivery = ReturnType<typeof WebhookDelivery.parse>;

async function list(t: CheckTools, actor: GateActor, query: Record<string, string | number> | undefined, requirement: RequirementId) {
  const ex = expect2xx(t, await actor.client.get(LIST, query), requirement);
  const page = t.expect.schema(ex, WebhookDeliveryList, requirement);
  expectListUrl(t, ex, LIST, 'GATE-WHOPS-LIST-ENVELOPE');
  return { ex, page };
}

/** A documented 400 for a bad list query: the error envelope with type invalid_request. */
async function rejected(t: CheckTools, actor: GateActor, query: Record<string, string | number>, requirement: RequirementId): Promise<void> {
  t.expect.error(await actor.client.get(LIST, query, { retry: false }), 400, 'invalid_request', { requirement });
}

async function testDelivery(t: CheckTools, actor: GateActor, requirement: RequirementId): Promise<{ ex: Exchange; delivery: Delivery }> {
  const ex = expect2xx(t, await actor.client.post('/webhooks/test', undefined, { retry: false }), requirement);
  return { ex, delivery: t.expect.schema(ex, WebhookDelivery, requirement) };
}

/** Rules every listed delivery obeys: no payload anywhere, next_attempt_at null when terminal, delivered_at once succeeded. */
function expectListedDeliveries(t: CheckTools, ex: Exchange, items: Delivery[]): void {
  for (const d of items) {
    const raw = d as Record<string, unknown>;
    const leaked = PAYLOAD_KEYS.filter((k) => k in raw);
    t.expect.that(leaked.length === 0, `delivery ${d.id} carries no payload field`, { requirement: 'GATE-WHOPS-NO-PAYLOAD', actual: leaked, exchange: ex });
    const envelopeInside = Object.entries(raw).find(([, v]) => carriesEnvelope(v, d.event_id));
    t.expect.that(envelopeInside === undefined, `delivery ${d.id} carries no copy of its event`, {
      requirement: 'GATE-WHOPS-NO-PAYLOAD',
      actual: envelopeInside?.[0],
      exchange: ex,
    });
    if ((TERMINAL_DELIVERY_STATUSES as readonly string[]).includes(d.status)) {
      t.expect.equal(d.next_attempt_at, null, `terminal delivery ${d.id} (${d.status}) has next_attempt_at null`, {
        requirement: 'GATE-WHOPS-DELIVERY-TERMINAL-NO-NEXT',
        exchange: ex,
      });
    }
    if (d.status === 'succeeded') {
      t.expect.that(d.delivered_at !== null, `succeeded delivery ${d.id} has delivered_at set`, {
        requirement: 'GATE-WHOPS-DELIVERY-TERMINAL-NO-NEXT',
        exchange: ex,
      });
    }
  }
}

/** Is `v` (or a JSON string of it) an event envelope with this event id? */
function carriesEnvelope(v: unknown, eventId: string): boolean {
  let obj = v;
  if (typeof v === 'string' && v.startsWith('{')) {
    try {
      obj = JSON.parse(v);
    } catch {
      return false;
    }
  }
  return !!obj && typeof obj === 'object' && (obj as Record<string, unknown>).id === eventId && 'data' in (obj as object);
}

export default defineSuite({
  service: 'gate',
  section: 'Endpoints > Webhook operations',
  checks: [
    check({
      name: 'deliveries list: limit 1 and 200 accepted, 0 and 201 give 400',
      requirements: ['GATE-WHOPS-LIST-ENVELOPE', 'GATE-WHOPS-LIST-LIMIT-MIN', 'GATE-WHOPS-LIST-LIMIT-MAX'],
      needs: ['gatePartner'],
      async run({ gatePartner: actor }, t: CheckTools) {
        const one = await list(t, actor, { limit: L.limitMin }, 'GATE-WHOPS-LIST-LIMIT-MIN');
        t.expect.that(one.page.data.length <= L.limitMin, `limit=${L.limitMin} returns at most ${L.limitMin} delivery`, {
          requirement: 'GATE-WHOPS-LIST-LIMIT-MIN',
          actual: one.page.data.length,
          exchange: one.ex,
        });
        await rejected(t, actor, { limit: L.limitMin - 1 }, 'GATE-WHOPS-LIST-LIMIT-MIN');
        const max = await list(t, actor, { limit: L.limitMax }, 'GATE-WHOPS-LIST-LIMIT-MAX');
        t.expect.that(max.page.data.length <= L.limitMax, `limit=${L.limitMax} returns at most ${L.limitMax} deliveries`, {
          requirement: 'GATE-WHOPS-LIST-LIMIT-MAX',
          actual: max.page.data.length,
          exchange: max.ex,
        });
        await rejected(t, actor, { limit: L.limitMax + 1 }, 'GATE-WHOPS-LIST-LIMIT-MAX');
      },
    }),
    check({
      name: 'deliveries list: skip 0 accepted, skip -1 gives 400',
      requirements: ['GATE-WHOPS-LIST-SKIP'],
      needs: ['gatePartner'],
      async run({ gatePartner: actor }, t: CheckTools) {
        await list(t, actor, { skip: L.skipMin }, 'GATE-WHOPS-LIST-SKIP');
        await rejected(t, actor, { skip: L.skipMin - 1 }, 'GATE-WHOPS-LIST-SKIP');
      },
    }),
    check({
      name: 'deliveries list: without skip it is the page skip=0 gives; skip=2 gives that list from its third delivery on',
      requirements: ['GATE-WHOPS-LIST-SKIP-DEFAULT', 'GATE-WHOPS-LIST-SKIP-OFFSET'],
      // Held alone, so no other check adds deliveries between the reads compared (a busy partner's list never holds still);
      // late, so the deliveries earlier checks caused are there and it adds none of its own.
      needs: ['gateWebhooksExclusive'],
      late: true,
      async run({ gateWebhooksExclusive: actor }, t: CheckTools) {
        const R = 'GATE-WHOPS-LIST-SKIP-DEFAULT';
        const N = 'GATE-WHOPS-LIST-SKIP-OFFSET';
        const SKIP = 2;
        // SKIP + 1 deliveries at least, so a default that skips any is seen and the offset page has one to start with
        // (test events only where earlier checks left fewer).
        for (let i = 0; i <= SKIP && (await list(t, actor, { limit: SKIP + 1 }, N)).page.data.length <= SKIP; i++)
          expect2xx(t, await actor.client.post('/webhooks/test', undefined, { retry: false }), N, 'POST /webhooks/test');
        const ids = (page: { data: { id: string }[] }) => page.data.map((d) => d.id);
        // Other checks of this partner may add deliveries meanwhile: judged only when the list held still around the skipped reads.
        for (let attempt = 1; attempt <= 3; attempt++) {
          const before = await list(t, actor, { limit: 10 }, R);
          const zero = await list(t, actor, { limit: 10, skip: 0 }, R);
          const skipped = await list(t, actor, { limit: 10 - SKIP, skip: SKIP }, N);
          const after = await list(t, actor, { limit: 10 }, R);
          if (JSON.stringify(ids(before.page)) !== JSON.stringify(ids(after.page))) continue;
          t.expect.equal(ids(before.page), ids(zero.page), 'the list without skip starts where skip=0 starts', { requirement: R, exchange: before.ex });
          t.expect.equal(ids(skipped.page), ids(before.page).slice(SKIP), `skip=${SKIP} starts at the unskipped list's delivery ${SKIP + 1}`, {
            requirement: N,
            exchange: skipped.ex,
          });
          return;
        }
        t.unverified('new deliveries arrived between every pair of reads (3 tries): the list never held still long enough to compare');
      },
    }),
    check({
      name: 'deliveries list: each documented status filters (a succeeded test delivery made first is found by its filter, left out by the others), an unknown status gives 400; last_response_status is what the receiver answered',
      requirements: ['GATE-WHOPS-LIST-STATUS-FILTER', 'GATE-WHOPS-DELIVERY-LAST-RESPONSE-STATUS'],
      needs: ['gateWebhooks'],
      // Runs late: a delivery earlier checks made, listed succeeded and acknowledged by the receiver, is the known one.
      late: true,
      async run({ gateWebhooks: actor }, t: CheckTools) {
        const R = 'GATE-WHOPS-LIST-STATUS-FILTER';
        // A delivery of a known status first, so no filter is judged on an empty list: one the receiver acknowledged
        // and the list shows succeeded (terminal: it stays so); else a test event made here, acknowledged with 200.
        const acknowledged = (d: Delivery) => {
          const last = actor.hooks
            .attempts()
            .filter((e) => e.eventId === d.event_id)
            .at(-1)?.answeredStatus;
          return last !== undefined && last >= 200 && last < 300;
        };
        await t.earlierChecksDone();
        let all = await list(t, actor, { limit: L.limitMax }, R);
        const earlier = all.page.data.find((d) => d.status === 'succeeded' && acknowledged(d));
        const made = earlier ?? (await testDelivery(t, actor, R)).delivery;
        t.observe('gate-status-filter-known-delivery', earlier ? 'an earlier check made it' : 'made here');
        const received = await actor.hooks.waitFor((e) => e.eventId === made.event_id, EVENT_WAIT_MS, `the event of delivery ${made.id}`, R);
        if (!earlier) all = await list(t, actor, { limit: L.limitMax }, R);
        for (let i = 0; i < 20 && all.page.data.find((d) => d.id === made.id)?.status !== 'succeeded'; i++) {
          await t.sleep(250, 'the acknowledged test delivery to read succeeded', 'target');
          all = await list(t, actor, { limit: L.limitMax }, R);
        }
        const listedMade = all.page.data.find((d) => d.id === made.id);
        if (listedMade?.status !== 'succeeded')
          t.unverified(
            `the test delivery ${made.id}, acknowledged with 200, reads ${listedMade ? listedMade.status : 'as not listed on the first page'} 5 s later: no delivery of a known status to filter for`,
          );
        // A succeeded delivery's last attempt is the one the receiver acknowledged: its status is the one recorded.
        const answered =
          actor.hooks
            .attempts()
            .filter((e) => e.eventId === made.event_id)
            .at(-1)?.answeredStatus ?? received.answeredStatus;
        t.expect.equal(listedMade.last_response_status, answered, 'last_response_status is the status the receiver answered the last attempt with', {
          requirement: 'GATE-WHOPS-DELIVERY-LAST-RESPONSE-STATUS',
          exchange: all.ex,
        });
        // Terminal deliveries keep their status: each one the unfiltered list showed must be found by its filter.
        const terminal = all.page.data.filter((d) => (TERMINAL_DELIVERY_STATUSES as readonly string[]).includes(d.status));
        for (const status of DELIVERY_STATUSES) {
          const { ex, page } = await list(t, actor, { status, limit: L.limitMax }, R);
          const other = page.data.find((d) => d.status !== status);
          t.expect.that(other === undefined, `status=${status} lists only ${status} deliveries`, {
            requirement: R,
            actual: other && `${other.id} is ${other.status}`,
            exchange: ex,
          });
          // Most recent first: a terminal delivery listed unfiltered is on the filtered first page unless that page is full of newer ones
          // (has_more alone excuses nothing: a first page with room left that says more exist beyond it has dropped them).
          const missing = terminal.filter((d) => d.status === status && !page.data.some((x) => x.id === d.id));
          const full = page.data.length >= L.limitMax;
          if (missing.length && (!page.has_more || !full))
            t.expect.that(false, `status=${status} finds the ${status} deliveries the unfiltered list showed`, {
              requirement: R,
              actual: `${missing.map((d) => d.id).join(', ')} not listed`,
              exchange: ex,
            });
          if (status === 'succeeded' && full && missing.some((d) => d.id === made.id))
            t.unverified(
              `status=succeeded has more than ${L.limitMax} newer deliveries than the test delivery ${made.id}: it could not be looked for on the first page`,
            );
        }
        await rejected(t, actor, { status: 'delivered' }, R);
      },
    }),
    check({
      name: 'POST /webhooks/test twice: pending deliveries of new events to the configured webhook_url, listed most recent first, delivered with the test data',
      requirements: [
        'GATE-WHOPS-TEST-PENDING',
        'GATE-WHOPS-TEST-NEW-EVENT',
        'GATE-WHOPS-LIST-ORDER',
        'GATE-WHOPS-DELIVERY-SHAPE',
        'GATE-WHOPS-DELIVERY-TARGET-URL',
        'GATE-WHOPS-TEST-EVENT-DATA',
      ],
      needs: ['gateWebhooks'],
      budgetMs: 90_000,
      async run({ gateWebhooks: actor }, t: CheckTools) {
        const first = await testDelivery(t, actor, 'GATE-WHOPS-TEST-PENDING');
        // A timestamp may be whole seconds (its precision is not fixed): a second apart, the two deliveries' created_at
        // and updated_at differ, so the order "most recent first" is told on either.
        await t.sleep(1_100, 'a whole second between the two test deliveries', 'harness');
        const second = await testDelivery(t, actor, 'GATE-WHOPS-TEST-PENDING');
        for (const { ex, delivery } of [first, second]) {
          t.expect.equal(delivery.event_type, 'webhook.test', 'the test delivery has event_type webhook.test', {
            requirement: 'GATE-WHOPS-TEST-PENDING',
            exchange: ex,
          });
          t.expect.equal(delivery.status, 'pending', 'the test delivery answers status pending', { requirement: 'GATE-WHOPS-TEST-PENDING', exchange: ex });
          t.expect.equal(delivery.target_url, actor.hooks.url, "target_url is the partner's configured webhook_url", {
            requirement: 'GATE-WHOPS-DELIVERY-TARGET-URL',
            exchange: ex,
          });
        }
        t.expect.that(first.delivery.event_id !== second.delivery.event_id, 'each POST /webhooks/test creates a new event with its own event id', {
          requirement: 'GATE-WHOPS-TEST-NEW-EVENT',
          actual: `${first.delivery.event_id} twice`,
          exchange: second.ex,
        });
        t.expect.that(first.delivery.id !== second.delivery.id, 'each POST /webhooks/test creates a new delivery', {
          requirement: 'GATE-WHOPS-TEST-NEW-EVENT',
          exchange: second.ex,
        });

        const received: ReceivedEvent[] = [];
        for (const { delivery } of [first, second]) {
          const e = await actor.hooks.waitFor(
            (ev) => ev.eventId === delivery.event_id,
            EVENT_WAIT_MS,
            `webhook.test ${delivery.event_id}`,
            'GATE-WHOPS-TEST-EVENT-DATA',
          );
          received.push(e);
          t.expect.equal(e.eventType, 'webhook.test', 'the event sent is a webhook.test', { requirement: 'GATE-WHOPS-TEST-EVENT-DATA' });
          const data = WebhookTestData.safeParse(e.json?.data);
          t.expect.that(data.success, 'webhook.test data carries livemode false and a message string', {
            requirement: 'GATE-WHOPS-TEST-EVENT-DATA',
            actual: JSON.stringify(e.json?.data)?.slice(0, 200),
          });
        }

        const { ex, page } = await list(t, actor, { limit: L.limitMax }, 'GATE-WHOPS-LIST-ORDER');
        const at = (id: string) => page.data.findIndex((d) => d.id === id);
        const [i1, i2] = [at(first.delivery.id), at(second.delivery.id)];
        t.expect.that(i1 >= 0 && i2 >= 0, 'both test deliveries are listed', {
          requirement: 'GATE-WHOPS-LIST-ORDER',
          actual: { first: i1, second: i2 },
          exchange: ex,
        });
        // "Most recent first" names no field: recent by creation (the later test delivery first, created_at never
        // increasing) or by last change (updated_at never increasing). Either passes; which one held is observed.
        const order = recencyReadings(page.data, second.delivery.id, first.delivery.id);
        t.expect.that(order.held.length > 0, 'the list is most recent first: by creation (created_at) or by last change (updated_at)', {
          requirement: 'GATE-WHOPS-LIST-ORDER',
          expected: 'created_at, or updated_at, never increasing down the list',
          actual: order.broken,
          exchange: ex,
        });
        t.observe('gate-deliveries-list-order', order.held, '"most recent first" names no field: the timestamps the list is ordered by');
        for (const { delivery } of [first, second]) {
          const listed = page.data[at(delivery.id)]!;
          t.expect.equal(listed.event_id, delivery.event_id, 'the listed delivery keeps its event id', {
            requirement: 'GATE-WHOPS-DELIVERY-SHAPE',
            exchange: ex,
          });
          t.expect.equal(listed.target_url, delivery.target_url, 'the listed delivery keeps its target_url', {
            requirement: 'GATE-WHOPS-DELIVERY-SHAPE',
            exchange: ex,
          });
        }
        t.observe('gate-webhooks-test-status', first.ex.status, 'success status of POST /webhooks/test (not shown)');
        t.observe('gate-webhooks-test-message', received[0]?.json?.data?.message, 'webhook.test message text');
      },
    }),
    check({
      name: 'deliveries list: default page of 50, has_more, no payload, terminal deliveries settled',
      requirements: [
        'GATE-WHOPS-LIST-DEFAULT-LIMIT',
        'GATE-WHOPS-LIST-HAS-MORE',
        'GATE-WHOPS-NO-PAYLOAD',
        'GATE-WHOPS-DELIVERY-SHAPE',
        'GATE-WHOPS-DELIVERY-TERMINAL-NO-NEXT',
      ],
      // Last, and held alone: it waits until the run's other checks on the partner are done, so the deliveries they
      // caused fill the default page and few (often none) are added here for it.
      needs: ['gateWebhooksExclusive', 'gateKeyRoom'],
      late: true,
      budgetMs: 120_000,
      async run({ gateWebhooksExclusive: actor, gateKeyRoom: room }, t: CheckTools) {
        const D = 'GATE-WHOPS-LIST-DEFAULT-LIMIT';
        const want = L.limitDefault + 1;
        let count = (await list(t, actor, { limit: L.limitMax }, D)).page.data.length;
        // Sized first: what the partner already has decides the top-up, and the key must have room for it this hour.
        const short = Math.max(0, want - count);
        const tests = Math.min(short, TOP_UP_TESTS);
        const writes = tests + 2 * Math.min(TOP_UP_CUSTOMER_PAIRS, Math.ceil((short - tests) / 2));
        requireKeyRoom(t, room, actor, writes + 3, `topping up ${short} deliveries and reading the list`);
        // Top up cheaply so the default page has something to cut: a few test events, then customer create+delete pairs.
        for (let i = 0; i < TOP_UP_TESTS && count < want; i++) {
          await testDelivery(t, actor, D);
          count++;
        }
        for (let i = 0; i < TOP_UP_CUSTOMER_PAIRS && count < want; i++) {
          const created = await actor.client.post('/customers', newCustomerInput(t), { idempotencyKey: true, retry: false });
          // Only the deliveries matter here: the id the response offers deletes the customer again (its body is not shown).
          const id = (created.json as { id?: unknown } | undefined)?.id;
          if (created.status < 200 || created.status > 299 || typeof id !== 'string') {
            t.observe('gate-webhooks-deliveries-top-up', created.status, 'a customer creation used to add deliveries did not offer an id; topping up stopped');
            break;
          }
          count++;
          const deleted = await actor.client.delete(customerPath(id), { retry: false });
          if (deleted.status >= 200 && deleted.status < 300) count++;
        }

        const full = await list(t, actor, { limit: L.limitMax }, D);
        const total = full.page.data.length;
        expectListedDeliveries(t, full.ex, full.page.data);
        if (total < L.limitMax) {
          t.expect.equal(full.page.has_more, false, `has_more is false when the whole list (${total}) fits in the page`, {
            requirement: 'GATE-WHOPS-LIST-HAS-MORE',
            exchange: full.ex,
          });
        }
        if (total >= 2) {
          const one = await list(t, actor, { limit: 1 }, 'GATE-WHOPS-LIST-HAS-MORE');
          t.expect.equal(one.page.has_more, true, 'has_more is true when more deliveries exist beyond a page of 1', {
            requirement: 'GATE-WHOPS-LIST-HAS-MORE',
            exchange: one.ex,
          });
        }

        const dflt = await list(t, actor, undefined, D);
        const n = dflt.page.data.length;
        t.expect.that(n <= L.limitDefault, `the default page holds at most ${L.limitDefault} deliveries`, { requirement: D, actual: n, exchange: dflt.ex });
        t.expect.that(n >= Math.min(total, L.limitDefault), `the default page holds min(${total} existing, ${L.limitDefault}) deliveries`, {
          requirement: D,
          expected: Math.min(total, L.limitDefault),
          actual: n,
          exchange: dflt.ex,
        });
        if (total <= L.limitDefault)
          t.unverified(
            `only ${total} deliveries exist after topping up: a default page of ${L.limitDefault} and has_more beyond it could not be reached (a smaller default would pass)`,
          );
        t.expect.equal(dflt.page.has_more, true, 'has_more is true when deliveries exist beyond the default page', {
          requirement: 'GATE-WHOPS-LIST-HAS-MORE',
          exchange: dflt.ex,
        });
      },
    }),
    check({
      name: 'POST /webhooks/test for a partner without a webhook_url gives 400',
      requirements: ['GATE-WHOPS-TEST-NO-URL-400'],
      needs: ['gateNoWebhookUrl'],
      async run({ gateNoWebhookUrl: actor }, t: CheckTools) {
        const R = 'GATE-WHOPS-TEST-NO-URL-400';
        t.expect.error(await actor.client.post('/webhooks/test', undefined, { retry: false }), 400, 'invalid_request', { requirement: R });
      },
    }),
    check({
      name: "replay of another partner's delivery gives 404",
      requirements: ['GATE-WHOPS-REPLAY-FOREIGN-404'],
      needs: ['gateWebhooks', 'gateOtherTenant'],
      async run({ gateWebhooks: owner, gateOtherTenant: stranger }, t: CheckTools) {
        const R = 'GATE-WHOPS-REPLAY-FOREIGN-404';
        const { delivery } = await testDelivery(t, owner, R);
        const ex = await stranger.client.post(`${LIST}/${encodeURIComponent(delivery.id)}/replay`, {}, { idempotencyKey: true, retry: false });
        t.expect.error(ex, 404, 'not_found', { requirement: R });
        // The spec says only that the replay example sends an Idempotency-Key: whether the target honours one there
        // (the same answer twice), and what it answers for a delivery that is not dead-lettered, is observed.
        const key = randomUUID();
        const own = (n: number) =>
          owner.client
            .post(`${LIST}/${encodeURIComponent(delivery.id)}/replay`, {}, { idempotencyKey: key, retry: false })
            .then((x) => ({ n, status: x.status, body: x.bodyText }));
        const [a, b] = [await own(1), await own(2)];
        t.observe(
          'gate-webhook-replay-idempotency',
          { first: a.status, second: b.status, sameBody: a.body === b.body },
          'replay of an own delivery that is not dead-lettered, twice with one Idempotency-Key: not shown',
        );
      },
    }),
  ],
});
