// Gate "Events": the envelope, the headers on every delivery and the
// signature recipe, checked on events the receiver got; the data of each event
// type caused; webhook.test only on request. Header names:
// X-<svc>-Timestamp/-Event-Id/-Event-Type for any <svc>. (The receiver half of
// the Signature rule binds rampart's receiver, not the target: test/receiver.test.ts.)
import type { GateWebhookActor } from '../../src/needs/define.js';
import { check, defineSuite, type CheckTools, type RequirementId } from '../../src/runner/check.js';
import { CLOCK_BOUNDS, GATE_LIMITS } from '../../src/model/limits.js';
import { EVENT_DATA_SCHEMAS, GateEventEnvelope, WebhookDelivery, WebhookDeliveryList } from '../../src/model/schemas/gate/webhooks.js';
import { parseSignatureHeader, verifyGateSignature } from '../../src/webhooks/verify.js';
import type { ReceivedEvent } from '../../src/webhooks/types.js';
import { expect2xx } from '../../support/expect.js';
import { expectOnTargetClock, spanOf, type TimeRule } from '../../support/targetTime.js';
import { createCustomer, customerPath } from '../../support/gate/customers.js';
import { createSession, sessionPath } from '../../support/gate/sessions.js';
import { programmedTestEvent } from '../../support/gate/deliveries.js';

const EVENT_WAIT_MS = 30_000;
/** How long the webhook.test-only check listens after the activity it caused was delivered. */
const QUIET_MS = 1_500;
/** Pages of the deliveries list (200 each) read to know every webhook.test event before the check. */
const MAX_LIST_PAGES = 5;
/** The signature skew, judged on the target's clock at arrival. */
const SKEW_RULE: TimeRule = { requirement: 'GATE-SIG-TIMESTAMP-FRESH', bound: CLOCK_BOUNDS.signatureSkew };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function header(e: ReceivedEvent, kind: 'timestamp' | 'event-id' | 'event-type'): string | undefined {
  const re = new RegExp(`^x-[a-z0-9]+-${kind}$`, 'i');
  return Object.entries(e.headers).find(([k]) => re.test(k))?.[1];
}

function checkDelivery(t: CheckTools, actor: GateWebhookActor, e: ReceivedEvent, secret: string): void {
  const env = GateEventEnvelope.safeParse(e.json);
  const j = e.json ?? {};
  t.expect.that(typeof j.id === 'string' && UUID.test(j.id), 'the envelope id is a UUID', { requirement: 'GATE-EVT-ENVELOPE-ID', actual: j.id });
  t.expect.that(typeof j.type === 'string' && j.type.length > 0, 'the envelope type is a string', { requirement: 'GATE-EVT-ENVELOPE-TYPE', actual: j.type });
  t.expect.that(Number.isInteger(j.created_at), 'created_at is an integer of unix seconds', {
    requirement: 'GATE-EVT-ENVELOPE-CREATED-AT',
    actual: j.created_at,
  });
  t.expect.that(j.data && typeof j.data === 'object' && !Array.isArray(j.data), 'data is an object', {
    requirement: 'GATE-EVT-ENVELOPE-DATA',
    actual: typeof j.data,
  });
  t.expect.that(env.success, 'the envelope parses', { requirement: 'GATE-EVT-ENVELOPE-DATA', actual: env.success ? undefined : env.error.issues.slice(0, 3) });

  const sig = e.headers['gate-signature'];
  t.expect.that(typeof sig === 'string' && /^t=\d+,v1=[0-9a-f]+/.test(sig), 'Gate-Signature is t=<unix-ts>,v1=<hex>', {
    requirement: 'GATE-EVT-HEADER-SIGNATURE',
    actual: sig,
  });
  const { t: ts } = parseSignatureHeader(sig);
  t.expect.equal(header(e, 'timestamp'), ts, 'the timestamp header equals t', { requirement: 'GATE-EVT-HEADER-TIMESTAMP' });
  t.expect.equal(header(e, 'event-id'), j.id, 'the event-id header equals the envelope id', { requirement: 'GATE-EVT-HEADER-EVENT-ID' });
  t.expect.equal(header(e, 'event-type'), j.type, 'the event-type header equals the envelope type', { requirement: 'GATE-EVT-HEADER-EVENT-TYPE' });

  // On the target's clock at arrival (its t is its own time), with a second for t's whole seconds.
  const at = spanOf(t, actor.client, { startedAt: e.arrivedAt, durationMs: 0 }, SKEW_RULE);
  const skew = GATE_LIMITS.webhook.signatureSkewSeconds;
  const ageS = { low: Math.floor(at.low / 1000) - Number(ts), high: Math.ceil(at.high / 1000) - Number(ts) };
  expectOnTargetClock(t, actor.client, SKEW_RULE, ageS, { min: -skew, max: skew + 1 }, 'the signed timestamp is within 300 s of arrival', {
    actual: { t: ts, arrivalOnTargetClockS: [Math.floor(at.low / 1000), Math.ceil(at.high / 1000)] },
  });
  // Recompute over the raw bytes as received, with the tolerance wide open: freshness is asserted above.
  const v = verifyGateSignature({ rawBody: e.rawBody, header: sig, secrets: [secret], nowSeconds: Number(ts), toleranceSeconds: 0 });
  t.expect.that(v.ok, 'v1 is HMAC-SHA256(secret, t + "." + raw body)', { requirement: 'GATE-SIG-HMAC', actual: v.reason });
}

/** Event ids of every webhook.test the target lists for the partner (bounded), and whether the whole list was read. */
async function listedTestEvents(t: CheckTools, actor: GateWebhookActor): Promise<{ ids: Set<string>; complete: boolean }> {
  const R = 'GATE-EVT-WEBHOOK-TEST-ONLY';
  const ids = new Set<string>();
  for (let page = 0; page < MAX_LIST_PAGES; page++) {
    const ex = expect2xx(t, await actor.client.get('/webhooks/deliveries', { limit: 200, skip: page * 200 }), R);
    const list = t.expect.schema(ex, WebhookDeliveryList, R);
    for (const d of list.data) if (d.event_type === 'webhook.test') ids.add(d.event_id);
    if (!list.has_more) return { ids, complete: true };
  }
  return { ids, complete: false };
}

/** Every number an object holds, at any depth. */
function numbersIn(v: unknown): number[] {
  if (typeof v === 'number') return [v];
  if (!v || typeof v !== 'object') return [];
  return Object.values(v).flatMap(numbersIn);
}

/**
 * A quota event the trigger caused: a new one of `type` after the trigger (quota events name no object to match
 * on), signed, its data an object of usage counters (their exact shape is not shown: at least one number).
 */
async function expectQuotaEvent(t: CheckTools, actor: GateWebhookActor, cause: () => Promise<unknown>, type: string, R: RequirementId): Promise<void> {
  const before = new Set(
    actor.hooks
      .attempts()
      .filter((e) => e.eventType === type)
      .map((e) => e.eventId),
  );
  await cause();
  const e = await actor.hooks.waitFor((ev) => ev.eventType === type && !before.has(ev.eventId), EVENT_WAIT_MS, type, R);
  t.expect.that(e.verification.ok, `${type} carries a valid signature`, { requirement: R, actual: e.verification.reason });
  const data: unknown = e.json?.data;
  // The counters' exact shape is not shown: flat or nested, a counter is a number somewhere in the object.
  const counters = data && typeof data === 'object' && !Array.isArray(data) ? numbersIn(data) : [];
  t.expect.that(counters.length > 0, `${type} data is an object of usage counters (at least one number, at any depth)`, {
    requirement: R,
    actual: JSON.stringify(data)?.slice(0, 200),
  });
  t.observe(
    `gate-${type}-data-keys`,
    data && typeof data === 'object' ? Object.keys(data).sort() : typeof data,
    'the exact shape of quota counters is not shown',
  );
}

export default defineSuite({
  service: 'gate',
  section: 'Events',
  checks: [
    check({
      name: 'deliveries carry the envelope, the signature and event headers, and a fresh HMAC over the raw body',
      requirements: [
        'GATE-EVT-ENVELOPE-ID',
        'GATE-EVT-ENVELOPE-TYPE',
        'GATE-EVT-ENVELOPE-CREATED-AT',
        'GATE-EVT-ENVELOPE-DATA',
        'GATE-EVT-HEADER-SIGNATURE',
        'GATE-EVT-HEADER-TIMESTAMP',
        'GATE-EVT-HEADER-EVENT-ID',
        'GATE-EVT-HEADER-EVENT-TYPE',
        'GATE-SIG-HMAC',
        'GATE-SIG-TIMESTAMP-FRESH',
      ],
      needs: ['gateWebhooks'],
      async run({ gateWebhooks: actor }, t: CheckTools) {
        const { session } = await createSession(t, actor, 'GATE-EVT-ENVELOPE-ID');
        // A session's created_at may be null ("string or null"): then a test delivery's created_at shows the target's own
        // clock, which the signature's freshness is judged on where the Date headers may come from another.
        if (session.created_at === null) await programmedTestEvent(t, actor, [], 'GATE-SIG-TIMESTAMP-FRESH');
        // Matched on the raw body, so a misshapen envelope is still judged below rather than missed.
        await actor.hooks.waitFor(
          (e) => e.rawBody.toString('utf8').includes(session.id),
          EVENT_WAIT_MS,
          `an event about ${session.id}`,
          'GATE-EVT-ENVELOPE-ID',
        );
        // Every delivery this partner received so far (any event type) follows the recipe.
        const got = actor.hooks.attempts();
        for (const e of got) checkDelivery(t, actor, e, actor.partner.webhookSecret!);
        t.observe('gate-events-checked', got.length);
      },
    }),
    check({
      name: 'event data is shaped per the catalogue for each type caused: session, customer and test events',
      requirements: ['GATE-EVT-DATA-PER-TYPE'],
      needs: ['gateWebhooks'],
      budgetMs: 120_000,
      // Runs late: events the run's other checks caused on this partner are judged as they are, and the check
      // causes only the types none of them did (each type's shape is the rule; whose object it is, the cause's checks judge).
      late: true,
      async run({ gateWebhooks: actor }, t: CheckTools) {
        const R = 'GATE-EVT-DATA-PER-TYPE';
        await t.earlierChecksDone();
        const received = (type: string) => actor.hooks.events().find((e) => e.eventType === type && e.json?.data !== undefined);
        const have = (...types: string[]) => types.every((type) => received(type));
        // Which event is which: by the object it names anywhere in the raw body, so a misshapen data still matches.
        const about = (id: string) => (e: ReceivedEvent) => e.rawBody.toString('utf8').includes(id);
        const expected: { type: string; match: (e: ReceivedEvent) => boolean; id?: string }[] = [];
        const earlier = (type: string) => expected.push({ type, match: (e) => e === received(type) });
        if (have('gate_session.created', 'gate_session.cancelled')) ['gate_session.created', 'gate_session.cancelled'].forEach(earlier);
        else {
          const { session } = await createSession(t, actor, R);
          // The cancel response is not shown: any 2xx.
          expect2xx(t, await actor.client.post(sessionPath(session.id, '/cancel'), undefined, { retry: false }), R);
          expected.push(
            { type: 'gate_session.created', match: about(session.id), id: session.id },
            { type: 'gate_session.cancelled', match: about(session.id), id: session.id },
          );
        }
        if (have('customer.created', 'customer.updated', 'customer.deleted')) ['customer.created', 'customer.updated', 'customer.deleted'].forEach(earlier);
        else {
          const { customer } = await createCustomer(t, actor, R);
          t.expect.status(await actor.client.patch(customerPath(customer.id), { first_name: 'Grace' }, { retry: false }), 200, R);
          t.expect.status(await actor.client.delete(customerPath(customer.id), { retry: false }), 200, R);
          expected.push(
            { type: 'customer.created', match: about(customer.id), id: customer.id },
            { type: 'customer.updated', match: about(customer.id), id: customer.id },
            { type: 'customer.deleted', match: about(customer.id), id: customer.id },
          );
        }
        if (have('webhook.test')) earlier('webhook.test');
        else {
          const test = t.expect.schema(expect2xx(t, await actor.client.post('/webhooks/test', undefined, { retry: false }), R), WebhookDelivery, R);
          expected.push({ type: 'webhook.test', match: (e) => e.eventId === test.event_id });
        }
        t.observe('gate-event-data-judged-on', Object.fromEntries(expected.map((w) => [w.type, w.id ? 'caused here' : 'caused by an earlier check'])));

        for (const want of expected) {
          const e = await actor.hooks.waitFor((ev) => ev.eventType === want.type && want.match(ev), EVENT_WAIT_MS, want.type, R);
          const parsed = EVENT_DATA_SCHEMAS[want.type]!.safeParse(e.json?.data);
          t.expect.that(parsed.success, `${want.type} data has the documented shape`, {
            requirement: R,
            actual: parsed.success
              ? undefined
              : `${JSON.stringify(e.json?.data).slice(0, 200)} — ${parsed.error.issues
                  .slice(0, 2)
                  .map((i) => `${i.path.join('.')}: ${i.message}`)
                  .join('; ')}`,
          });
          // customer.deleted may carry the customer's id alone.
          const dataId = typeof e.json?.data === 'string' ? e.json.data : e.json?.data?.id;
          if (want.id) t.expect.equal(dataId, want.id, `${want.type} data is the object the event is about`, { requirement: R });
        }
      },
    }),
    check({
      name: 'partner.quota.warning fires when the partner approaches a usage quota, with its usage counters',
      requirements: ['GATE-EVT-QUOTA-WARNING'],
      needs: ['gateWebhooks'],
      async run({ gateWebhooks: actor, gateQuotaWarning: approach }, t: CheckTools) {
        await expectQuotaEvent(t, actor, () => approach(actor), 'partner.quota.warning', 'GATE-EVT-QUOTA-WARNING');
      },
    }),
    check({
      name: 'partner.quota.exhausted fires when a usage quota is exhausted, with its usage counters',
      requirements: ['GATE-EVT-QUOTA-EXHAUSTED'],
      // An exhausted quota may throttle the partner (the catalogue: "requests throttled or refused"): held alone,
      // and run after the other checks have started, so it disturbs as little of the run as it can.
      needs: ['gateWebhooksExclusive'],
      late: true,
      async run({ gateWebhooksExclusive: actor, gateQuotaExhausted: exhaust }, t: CheckTools) {
        await expectQuotaEvent(t, actor, () => exhaust(actor), 'partner.quota.exhausted', 'GATE-EVT-QUOTA-EXHAUSTED');
      },
    }),
    check({
      name: 'webhook.test is never sent on its own: session activity on a partner held alone brings no new webhook.test',
      requirements: ['GATE-EVT-WEBHOOK-TEST-ONLY'],
      // Held alone: no other check can request a test event for it meanwhile, so any new one is the target's own.
      needs: ['gateWebhooksExclusive'],
      async run({ gateWebhooksExclusive: actor }, t: CheckTools) {
        const R = 'GATE-EVT-WEBHOOK-TEST-ONLY';
        // The known point: every webhook.test the target lists or the receiver saw before now.
        const before = await listedTestEvents(t, actor);
        for (const e of actor.hooks.attempts()) if (e.eventType === 'webhook.test' && e.eventId) before.ids.add(e.eventId);

        const { session } = await createSession(t, actor, R);
        expect2xx(t, await actor.client.post(sessionPath(session.id, '/cancel'), undefined, { retry: false }), R);
        await actor.hooks.waitFor(
          (e) => e.eventType === 'gate_session.cancelled' && e.json?.data?.id === session.id,
          EVENT_WAIT_MS,
          `gate_session.cancelled for ${session.id}`,
          R,
        );
        await t.sleep(QUIET_MS, 'listening for an unrequested webhook.test');

        const arrived = actor.hooks.attempts().filter((e) => e.eventType === 'webhook.test' && !before.ids.has(e.eventId ?? ''));
        t.expect.equal(
          arrived.map((e) => e.eventId),
          [],
          'no webhook.test arrives without POST /webhooks/test',
          { requirement: R },
        );
        const after = await listedTestEvents(t, actor);
        const enqueued = [...after.ids].filter((id) => !before.ids.has(id));
        t.expect.equal(enqueued, [], 'the target lists no webhook.test delivery nobody requested', { requirement: R });
        if (!before.complete)
          t.observe(
            'gate-webhook-test-only-known-point',
            `the deliveries list holds more than ${MAX_LIST_PAGES * 200}: older test events were known from the receiver only`,
          );
      },
    }),
  ],
});
