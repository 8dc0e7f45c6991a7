// Gate "Endpoints > Webhook operations": the deliveries list (bounds at the
// edges, default page, order, has_more, status filter, never the payload),
// POST /webhooks/test (pending, a new event each call, 400 without a
// webhook_url) and replay of another partner's delivery (404).
import type { Exchange } from '../../src/client/types.js';
import { defineSuite, type CheckContext, type GateActor } from '../../src/runner/check.js';
import { GATE_LIMITS } from '../../src/model/limits.js';
import {
  DELIVERY_STATUSES,
  TERMINAL_DELIVERY_STATUSES,
  WebhookDelivery,
  WebhookDeliveryList,
  WebhookTestData,
} from '../../src/model/schemas/gate/webhooks.js';
import type { ReceivedEvent } from '../../src/webhooks/types.js';
import { newCustomerInput } from './customers.js';

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

async function list(ctx: CheckContext, actor: GateActor, query: Record<string, string | number> | undefined, requirement: string) {
  const ex = ctx.expect.status(await actor.client.get(LIST, query), 200, requirement);
  const page = ctx.expect.schema(ex, WebhookDeliveryList, requirement);
  ctx.expect.that(page.url.includes(LIST), `the list url is the path of the list (${LIST})`, { requirement: 'GATE-WHOPS-LIST-ENVELOPE', actual: page.url, exchange: ex });
  return { ex, page };
}

/** A documented 400 for a bad list query: the error envelope with type invalid_request. */
async function rejected(ctx: CheckContext, actor: GateActor, query: Record<string, string | number>, requirement: string): Promise<void> {
  ctx.expect.error(await actor.client.get(LIST, query, { retry: false }), 400, 'invalid_request', { requirement });
}

async function testDelivery(ctx: CheckContext, actor: GateActor, requirement: string): Promise<{ ex: Exchange; delivery: Delivery }> {
  // The success status is not shown: any 2xx.
  const ex = ctx.expect.status(await actor.client.post('/webhooks/test', undefined, { retry: false }), [200, 201, 202], requirement);
  return { ex, delivery: ctx.expect.schema(ex, WebhookDelivery, requirement) };
}

/** Rules every listed delivery obeys: no payload anywhere, next_attempt_at null when terminal, delivered_at once succeeded. */
function expectListedDeliveries(ctx: CheckContext, ex: Exchange, items: Delivery[]): void {
  for (const d of items) {
    const raw = d as Record<string, unknown>;
    const leaked = PAYLOAD_KEYS.filter((k) => k in raw);
    ctx.expect.that(leaked.length === 0, `delivery ${d.id} carries no payload field`, { requirement: 'GATE-WHOPS-NO-PAYLOAD', actual: leaked, exchange: ex });
    const envelopeInside = Object.entries(raw).find(([, v]) => carriesEnvelope(v, d.event_id));
    ctx.expect.that(envelopeInside === undefined, `delivery ${d.id} carries no copy of its event`, { requirement: 'GATE-WHOPS-NO-PAYLOAD', actual: envelopeInside?.[0], exchange: ex });
    if ((TERMINAL_DELIVERY_STATUSES as readonly string[]).includes(d.status)) {
      ctx.expect.equal(d.next_attempt_at, null, `terminal delivery ${d.id} (${d.status}) has next_attempt_at null`, { requirement: 'GATE-WHOPS-DELIVERY-TERMINAL-NO-NEXT', exchange: ex });
    }
    if (d.status === 'succeeded') {
      ctx.expect.that(d.delivered_at !== null, `succeeded delivery ${d.id} has delivered_at set`, { requirement: 'GATE-WHOPS-DELIVERY-TERMINAL-NO-NEXT', exchange: ex });
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
    {
      name: 'deliveries list: limit 1 and 200 accepted, 0 and 201 give 400',
      requirements: ['GATE-WHOPS-LIST-ENVELOPE', 'GATE-WHOPS-LIST-LIMIT-MIN', 'GATE-WHOPS-LIST-LIMIT-MAX'],
      needs: ['gate.partner'],
      async run(ctx: CheckContext) {
        const actor = ctx.gate.partner();
        const one = await list(ctx, actor, { limit: L.limitMin }, 'GATE-WHOPS-LIST-LIMIT-MIN');
        ctx.expect.that(one.page.data.length <= L.limitMin, `limit=${L.limitMin} returns at most ${L.limitMin} delivery`, { requirement: 'GATE-WHOPS-LIST-LIMIT-MIN', actual: one.page.data.length, exchange: one.ex });
        await rejected(ctx, actor, { limit: L.limitMin - 1 }, 'GATE-WHOPS-LIST-LIMIT-MIN');
        const max = await list(ctx, actor, { limit: L.limitMax }, 'GATE-WHOPS-LIST-LIMIT-MAX');
        ctx.expect.that(max.page.data.length <= L.limitMax, `limit=${L.limitMax} returns at most ${L.limitMax} deliveries`, { requirement: 'GATE-WHOPS-LIST-LIMIT-MAX', actual: max.page.data.length, exchange: max.ex });
        await rejected(ctx, actor, { limit: L.limitMax + 1 }, 'GATE-WHOPS-LIST-LIMIT-MAX');
      },
    },
    {
      name: 'deliveries list: skip 0 accepted, skip -1 gives 400',
      requirements: ['GATE-WHOPS-LIST-SKIP'],
      needs: ['gate.partner'],
      async run(ctx: CheckContext) {
        const actor = ctx.gate.partner();
        await list(ctx, actor, { skip: L.skipMin }, 'GATE-WHOPS-LIST-SKIP');
        await rejected(ctx, actor, { skip: L.skipMin - 1 }, 'GATE-WHOPS-LIST-SKIP');
      },
    },
    {
      name: 'deliveries list: each documented status filters, an unknown status gives 400',
      requirements: ['GATE-WHOPS-LIST-STATUS-FILTER'],
      needs: ['gate.webhooks'],
      async run(ctx: CheckContext) {
        const R = 'GATE-WHOPS-LIST-STATUS-FILTER';
        const actor = await ctx.gate.webhooks();
        const all = await list(ctx, actor, undefined, R);
        for (const status of DELIVERY_STATUSES) {
          const { ex, page } = await list(ctx, actor, { status, limit: L.limitMax }, R);
          const other = page.data.find((d) => d.status !== status);
          ctx.expect.that(other === undefined, `status=${status} lists only ${status} deliveries`, { requirement: R, actual: other && `${other.id} is ${other.status}`, exchange: ex });
          // succeeded and dead_lettered are terminal: one seen unfiltered earlier must still be found by its filter.
          const seenTerminal = status === 'succeeded' || status === 'dead_lettered' ? all.page.data.some((d) => d.status === status) : false;
          if (seenTerminal) ctx.expect.that(page.data.length > 0, `status=${status} finds the ${status} deliveries the unfiltered list showed`, { requirement: R, exchange: ex });
        }
        await rejected(ctx, actor, { status: 'delivered' }, R);
      },
    },
    {
      name: 'POST /webhooks/test twice: pending deliveries of new events, listed most recent first, delivered with the test data',
      requirements: ['GATE-WHOPS-TEST-PENDING', 'GATE-WHOPS-TEST-NEW-EVENT', 'GATE-WHOPS-LIST-ORDER', 'GATE-WHOPS-DELIVERY-SHAPE', 'GATE-WHOPS-TEST-EVENT-DATA'],
      needs: ['gate.webhooks'],
      timeoutMs: 90_000,
      async run(ctx: CheckContext) {
        const actor = await ctx.gate.webhooks();
        const first = await testDelivery(ctx, actor, 'GATE-WHOPS-TEST-PENDING');
        const second = await testDelivery(ctx, actor, 'GATE-WHOPS-TEST-PENDING');
        for (const { ex, delivery } of [first, second]) {
          ctx.expect.equal(delivery.event_type, 'webhook.test', 'the test delivery has event_type webhook.test', { requirement: 'GATE-WHOPS-TEST-PENDING', exchange: ex });
          ctx.expect.equal(delivery.status, 'pending', 'the test delivery answers status pending', { requirement: 'GATE-WHOPS-TEST-PENDING', exchange: ex });
        }
        ctx.expect.that(first.delivery.event_id !== second.delivery.event_id, 'each POST /webhooks/test creates a new event with its own event id', {
          requirement: 'GATE-WHOPS-TEST-NEW-EVENT',
          actual: `${first.delivery.event_id} twice`,
          exchange: second.ex,
        });
        ctx.expect.that(first.delivery.id !== second.delivery.id, 'each POST /webhooks/test creates a new delivery', { requirement: 'GATE-WHOPS-TEST-NEW-EVENT', exchange: second.ex });

        const received: ReceivedEvent[] = [];
        for (const { delivery } of [first, second]) {
          const e = await ctx.waitForEvent(actor.partner.name, (ev) => ev.eventId === delivery.event_id, EVENT_WAIT_MS, `webhook.test ${delivery.event_id}`);
          received.push(e);
          ctx.expect.equal(e.eventType, 'webhook.test', 'the event sent is a webhook.test', { requirement: 'GATE-WHOPS-TEST-EVENT-DATA' });
          const data = WebhookTestData.safeParse(e.json?.data);
          ctx.expect.that(data.success, 'webhook.test data carries livemode false and a message string', {
            requirement: 'GATE-WHOPS-TEST-EVENT-DATA',
            actual: JSON.stringify(e.json?.data)?.slice(0, 200),
          });
        }

        const { ex, page } = await list(ctx, actor, { limit: L.limitMax }, 'GATE-WHOPS-LIST-ORDER');
        const at = (id: string) => page.data.findIndex((d) => d.id === id);
        const [i1, i2] = [at(first.delivery.id), at(second.delivery.id)];
        ctx.expect.that(i1 >= 0 && i2 >= 0, 'both test deliveries are listed', { requirement: 'GATE-WHOPS-LIST-ORDER', actual: { first: i1, second: i2 }, exchange: ex });
        ctx.expect.that(i2 < i1, 'the later test delivery is listed before the earlier one (most recent first)', { requirement: 'GATE-WHOPS-LIST-ORDER', actual: { first: i1, second: i2 }, exchange: ex });
        const times = page.data.map((d) => (d.created_at === null ? NaN : Date.parse(d.created_at)));
        const inversion = times.findIndex((t, i) => i > 0 && !Number.isNaN(t) && !Number.isNaN(times[i - 1]!) && t > times[i - 1]!);
        ctx.expect.that(inversion < 0, 'created_at never increases down the list', {
          requirement: 'GATE-WHOPS-LIST-ORDER',
          actual: inversion < 0 ? undefined : `${page.data[inversion - 1]!.created_at} then ${page.data[inversion]!.created_at}`,
          exchange: ex,
        });
        for (const { delivery } of [first, second]) {
          const listed = page.data[at(delivery.id)]!;
          ctx.expect.equal(listed.event_id, delivery.event_id, 'the listed delivery keeps its event id', { requirement: 'GATE-WHOPS-DELIVERY-SHAPE', exchange: ex });
          ctx.expect.equal(listed.target_url, delivery.target_url, 'the listed delivery keeps its target_url', { requirement: 'GATE-WHOPS-DELIVERY-SHAPE', exchange: ex });
        }
        ctx.observe('gate.webhooks.test.status', first.ex.status, 'success status of POST /webhooks/test (not shown)');
        ctx.observe('gate.webhooks.test.message', received[0]?.json?.data?.message, 'webhook.test message text');
      },
    },
    {
      name: 'deliveries list: default page of 50, has_more, no payload, terminal deliveries settled',
      requirements: ['GATE-WHOPS-LIST-DEFAULT-LIMIT', 'GATE-WHOPS-LIST-HAS-MORE', 'GATE-WHOPS-NO-PAYLOAD', 'GATE-WHOPS-DELIVERY-SHAPE', 'GATE-WHOPS-DELIVERY-TERMINAL-NO-NEXT'],
      needs: ['gate.webhooks'],
      timeoutMs: 240_000,
      async run(ctx: CheckContext) {
        const actor = await ctx.gate.webhooks();
        const want = L.limitDefault + 1;
        let { page } = await list(ctx, actor, { limit: L.limitMax }, 'GATE-WHOPS-LIST-DEFAULT-LIMIT');
        let count = page.data.length;
        // Top up cheaply so the default page has something to cut: a few test events, then customer create+delete pairs.
        for (let i = 0; i < TOP_UP_TESTS && count < want; i++) {
          await testDelivery(ctx, actor, 'GATE-WHOPS-LIST-DEFAULT-LIMIT');
          count++;
        }
        for (let i = 0; i < TOP_UP_CUSTOMER_PAIRS && count < want; i++) {
          const created = await actor.client.post('/customers', newCustomerInput(), { idempotencyKey: true, retry: false });
          const id = created.json?.id;
          if (created.status < 200 || created.status > 299 || typeof id !== 'string') {
            ctx.observe('gate.webhooks.deliveries.topUp', created.status, 'customer creation used to add deliveries did not succeed; topping up stopped');
            break;
          }
          count++;
          const deleted = await actor.client.delete(`/customers/${encodeURIComponent(id)}`, { retry: false });
          if (deleted.status >= 200 && deleted.status < 300) count++;
        }

        const full = await list(ctx, actor, { limit: L.limitMax }, 'GATE-WHOPS-LIST-DEFAULT-LIMIT');
        page = full.page;
        const total = page.data.length;
        expectListedDeliveries(ctx, full.ex, page.data);
        if (total < L.limitMax) {
          ctx.expect.equal(page.has_more, false, `has_more is false when the whole list (${total}) fits in the page`, { requirement: 'GATE-WHOPS-LIST-HAS-MORE', exchange: full.ex });
        }

        const dflt = await list(ctx, actor, undefined, 'GATE-WHOPS-LIST-DEFAULT-LIMIT');
        const n = dflt.page.data.length;
        ctx.expect.that(n <= L.limitDefault, `the default page holds at most ${L.limitDefault} deliveries`, { requirement: 'GATE-WHOPS-LIST-DEFAULT-LIMIT', actual: n, exchange: dflt.ex });
        ctx.expect.that(n >= Math.min(total, L.limitDefault), `the default page holds min(${total} existing, ${L.limitDefault}) deliveries`, {
          requirement: 'GATE-WHOPS-LIST-DEFAULT-LIMIT',
          expected: Math.min(total, L.limitDefault),
          actual: n,
          exchange: dflt.ex,
        });
        if (total > L.limitDefault) {
          ctx.expect.equal(dflt.page.has_more, true, 'has_more is true when deliveries exist beyond the default page', { requirement: 'GATE-WHOPS-LIST-HAS-MORE', exchange: dflt.ex });
        } else {
          ctx.observe('gate.webhooks.deliveries.defaultLimitBoundary', total, `only ${total} deliveries exist: the default page of ${L.limitDefault} is bounded from below, not reached`);
        }

        if (total >= 2) {
          const one = await list(ctx, actor, { limit: 1 }, 'GATE-WHOPS-LIST-HAS-MORE');
          ctx.expect.equal(one.page.has_more, true, 'has_more is true when more deliveries exist beyond a page of 1', { requirement: 'GATE-WHOPS-LIST-HAS-MORE', exchange: one.ex });
        }
      },
    },
    {
      name: 'POST /webhooks/test without a webhook_url gives 400',
      requirements: ['GATE-WHOPS-TEST-NO-URL-400'],
      needs: ['gate.partner'],
      async run(ctx: CheckContext) {
        const R = 'GATE-WHOPS-TEST-NO-URL-400';
        const actor = ctx.gate.partner();
        const ex = await actor.client.post('/webhooks/test', undefined, { retry: false });
        if (ex.status === 400) {
          ctx.expect.error(ex, 400, 'invalid_request', { requirement: R });
          return;
        }
        // A 2xx is right only when this partner does have a webhook_url: then the delivery names it.
        ctx.expect.status(ex, [400, 200, 201, 202], R);
        const d = WebhookDelivery.safeParse(ex.json);
        ctx.expect.that(d.success && d.data.target_url.length > 0, 'a 2xx test delivery names the configured webhook_url; without one the answer is 400', {
          requirement: R,
          expected: 400,
          actual: `${ex.status} ${ex.bodyText.slice(0, 200)}`,
          exchange: ex,
        });
        ctx.observe('gate.webhooks.test.noUrlPartner', actor.partner.name, 'this partner already had a webhook_url (configured before or during the run); the 400 case was not reachable');
      },
    },
    {
      name: "replay of another partner's delivery gives 404",
      requirements: ['GATE-WHOPS-REPLAY-FOREIGN-404'],
      needs: ['gate.webhooks', 'gate.secondPartner'],
      async run(ctx: CheckContext) {
        const R = 'GATE-WHOPS-REPLAY-FOREIGN-404';
        const owner = await ctx.gate.webhooks();
        const { delivery } = await testDelivery(ctx, owner, R);
        const stranger = ctx.gate.other();
        const ex = await stranger.client.post(`${LIST}/${encodeURIComponent(delivery.id)}/replay`, {}, { idempotencyKey: true, retry: false });
        ctx.expect.error(ex, 404, 'not_found', { requirement: R });
      },
    },
  ],
});
