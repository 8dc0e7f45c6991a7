// Gate "Events": the envelope, the headers on every delivery and the
// signature recipe, checked on events the receiver got; rampart's own
// receiver refusing bad signatures and stale timestamps; webhook.test only on
// request. Header names: X-<svc>-Timestamp/-Event-Id/-Event-Type for any <svc>.
import { defineSuite, type CheckContext } from '../../src/runner/check.js';
import { GATE_LIMITS } from '../../src/model/limits.js';
import { EVENT_DATA_SCHEMAS, GateEventEnvelope, WebhookDelivery } from '../../src/model/schemas/gate/webhooks.js';
import { parseSignatureHeader, signGateBody, verifyGateSignature } from '../../src/webhooks/verify.js';
import type { ReceivedEvent } from '../../src/webhooks/types.js';
import { newCustomerInput } from './customers.js';
import { createSession, sessionPath } from './support/sessions.js';

const EVENT_WAIT_MS = 30_000;
const QUIET_MS = 1_500;

function header(e: ReceivedEvent, kind: 'timestamp' | 'event-id' | 'event-type'): string | undefined {
  const re = new RegExp(`^x-[a-z0-9]+-${kind}$`, 'i');
  return Object.entries(e.headers).find(([k]) => re.test(k))?.[1];
}

function checkDelivery(ctx: CheckContext, e: ReceivedEvent, secret: string): void {
  const env = GateEventEnvelope.safeParse(e.json);
  const j = e.json ?? {};
  ctx.expect.that(typeof j.id === 'string' && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(j.id), 'the envelope id is a UUID', { requirement: 'GATE-EVT-ENVELOPE-ID', actual: j.id });
  ctx.expect.that(typeof j.type === 'string' && j.type.length > 0, 'the envelope type is a string', { requirement: 'GATE-EVT-ENVELOPE-TYPE', actual: j.type });
  ctx.expect.that(Number.isInteger(j.created_at), 'created_at is an integer of unix seconds', { requirement: 'GATE-EVT-ENVELOPE-CREATED-AT', actual: j.created_at });
  ctx.expect.that(j.data && typeof j.data === 'object' && !Array.isArray(j.data), 'data is an object', { requirement: 'GATE-EVT-ENVELOPE-DATA', actual: typeof j.data });
  ctx.expect.that(env.success, 'the envelope parses', { requirement: 'GATE-EVT-ENVELOPE-DATA', actual: env.success ? undefined : env.error.issues.slice(0, 3) });

  const sig = e.headers['gate-signature'];
  ctx.expect.that(typeof sig === 'string' && /^t=\d+,v1=[0-9a-f]+/.test(sig), 'Gate-Signature is t=<unix-ts>,v1=<hex>', { requirement: 'GATE-EVT-HEADER-SIGNATURE', actual: sig });
  const { t } = parseSignatureHeader(sig!);
  ctx.expect.equal(header(e, 'timestamp'), t, 'the timestamp header equals t', { requirement: 'GATE-EVT-HEADER-TIMESTAMP' });
  ctx.expect.equal(header(e, 'event-id'), j.id, 'the event-id header equals the envelope id', { requirement: 'GATE-EVT-HEADER-EVENT-ID' });
  ctx.expect.equal(header(e, 'event-type'), j.type, 'the event-type header equals the envelope type', { requirement: 'GATE-EVT-HEADER-EVENT-TYPE' });

  const arrivedS = Math.floor(e.arrivedAt / 1000);
  ctx.expect.that(Math.abs(arrivedS - Number(t)) <= GATE_LIMITS.webhook.signatureSkewSeconds, 'the signed timestamp is within 300 s of arrival', { requirement: 'GATE-SIG-TIMESTAMP-FRESH', actual: { t, arrivedS } });
  // Recompute over the raw bytes as received, with the tolerance wide open: freshness is asserted above.
  const v = verifyGateSignature({ rawBody: e.rawBody, header: sig, secrets: [secret], nowSeconds: Number(t), toleranceSeconds: 0 });
  ctx.expect.that(v.ok, 'v1 is HMAC-SHA256(secret, t + "." + raw body)', { requirement: 'GATE-SIG-HMAC', actual: v.reason });
}

export default defineSuite({
  service: 'gate',
  section: 'Events',
  checks: [
    {
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
      needs: ['gate.webhooks'],
      async run(ctx: CheckContext) {
        const actor = await ctx.gate.webhooks();
        const secret = actor.partner.webhookSecret!;
        const { session } = await createSession(ctx, actor, 'GATE-EVT-ENVELOPE-ID');
        await ctx.waitForEvent(actor.partner.name, (e) => e.json?.data?.id === session.id, EVENT_WAIT_MS, `an event about ${session.id}`);
        // Every delivery this partner received so far (any event type) follows the recipe.
        const got = ctx.receiver.attempts(actor.partner.name);
        for (const e of got) checkDelivery(ctx, e, secret);
        ctx.observe('gate-events-checked', got.length);
      },
    },
    {
      name: 'event data is shaped per the catalogue for each type caused: session, customer and test events',
      requirements: ['GATE-EVT-DATA-PER-TYPE'],
      needs: ['gate.webhooks'],
      timeoutMs: 120_000,
      async run(ctx: CheckContext) {
        const R = 'GATE-EVT-DATA-PER-TYPE';
        const actor = await ctx.gate.webhooks();
        const name = actor.partner.name;
        const { session } = await createSession(ctx, actor, R);
        ctx.expect.status(await actor.client.post(sessionPath(session.id, '/cancel'), undefined, { retry: false }), [200, 201], R);
        // Create and update statuses are not shown: any 2xx.
        const created = ctx.expect.status(await actor.client.post('/customers', newCustomerInput(), { idempotencyKey: true, retry: false }), [200, 201, 202], R);
        const customerId = String(created.json?.id);
        const path = `/customers/${encodeURIComponent(customerId)}`;
        ctx.expect.status(await actor.client.patch(path, { first_name: 'Grace' }, { retry: false }), [200, 201, 202], R);
        ctx.expect.status(await actor.client.delete(path, { retry: false }), 200, R);
        const test = ctx.expect.schema(ctx.expect.status(await actor.client.post('/webhooks/test', undefined, { retry: false }), [200, 201, 202], R), WebhookDelivery, R);

        // Which event is which: by the object it names anywhere in the raw body, so a misshapen data still matches.
        const about = (id: string) => (e: ReceivedEvent) => e.rawBody.toString('utf8').includes(id);
        const expected: { type: string; match: (e: ReceivedEvent) => boolean; id?: string }[] = [
          { type: 'gate_session.created', match: about(session.id), id: session.id },
          { type: 'gate_session.cancelled', match: about(session.id), id: session.id },
          { type: 'customer.created', match: about(customerId), id: customerId },
          { type: 'customer.updated', match: about(customerId), id: customerId },
          { type: 'customer.deleted', match: about(customerId), id: customerId },
          { type: 'webhook.test', match: (e) => e.eventId === test.event_id },
        ];
        for (const want of expected) {
          const e = await ctx.waitForEvent(name, (ev) => ev.eventType === want.type && want.match(ev), EVENT_WAIT_MS, want.type);
          const parsed = EVENT_DATA_SCHEMAS[want.type]!.safeParse(e.json?.data);
          ctx.expect.that(parsed.success, `${want.type} data has the documented shape`, {
            requirement: R,
            actual: parsed.success ? undefined : `${JSON.stringify(e.json?.data).slice(0, 200)} — ${parsed.error.issues.slice(0, 2).map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
          });
          if (want.id) ctx.expect.equal(e.json?.data?.id, want.id, `${want.type} data is the object the event is about`, { requirement: R });
        }
      },
    },
    {
      name: "rampart's receiver refuses a bad signature and a stale timestamp with 400",
      requirements: ['GATE-SIG-RECEIVER-REJECTS-BAD'],
      needs: [],
      async run(ctx: CheckContext) {
        const partner = 'rampart-receiver-selfcheck';
        const secret = 'whsec_rampart_receiver_selfcheck';
        ctx.receiver.setSecrets(partner, [secret]);
        const body = JSON.stringify({ id: '00000000-0000-4000-8000-000000000000', type: 'webhook.test', created_at: Math.floor(Date.now() / 1000), data: { livemode: false, message: 'selfcheck' } });
        const post = async (signWith: string, t: number) => {
          const headers = { 'content-type': 'application/json', 'gate-signature': signGateBody(signWith, t, body), 'x-gate-timestamp': String(t) };
          return (await fetch(ctx.receiver.urlFor(partner), { method: 'POST', headers, body })).status;
        };
        const now = Math.floor(Date.now() / 1000);
        const good = await post(secret, now);
        ctx.expect.that(good >= 200 && good < 300, 'a correct signature is acknowledged (2xx)', { requirement: 'GATE-SIG-RECEIVER-REJECTS-BAD', actual: good });
        ctx.expect.equal(await post('whsec_wrong', now), 400, 'a wrong signature is refused with 400', { requirement: 'GATE-SIG-RECEIVER-REJECTS-BAD' });
        ctx.expect.equal(await post(secret, now - GATE_LIMITS.webhook.signatureSkewSeconds - 1), 400, 'a correctly signed but stale timestamp is refused with 400', { requirement: 'GATE-SIG-RECEIVER-REJECTS-BAD' });
      },
    },
    {
      name: 'webhook.test is never sent on its own: session activity brings no webhook.test',
      requirements: ['GATE-EVT-WEBHOOK-TEST-ONLY'],
      needs: ['gate.webhooks'],
      async run(ctx: CheckContext) {
        const actor = await ctx.gate.webhooks();
        const name = actor.partner.name;
        const start = Date.now();
        const tests = () => ctx.receiver.events(name).filter((e) => e.eventType === 'webhook.test' && e.arrivedAt >= start).length;
        const { session } = await createSession(ctx, actor, 'GATE-EVT-WEBHOOK-TEST-ONLY');
        ctx.expect.status(await actor.client.post(sessionPath(session.id, '/cancel'), undefined, { retry: false }), [200, 201], 'GATE-EVT-WEBHOOK-TEST-ONLY');
        await ctx.waitForEvent(name, (e) => e.eventType === 'gate_session.cancelled' && e.json?.data?.id === session.id, EVENT_WAIT_MS, `gate_session.cancelled for ${session.id}`);
        await ctx.sleep(QUIET_MS, 'listening for an unrequested webhook.test');
        // Another check may have asked this partner for a test event meanwhile: such a delivery is listed as webhook.test by the target.
        const listed = await actor.client.get('/webhooks/deliveries', { limit: 200 });
        const requested = ((listed.json?.data ?? []) as { event_type?: string; created_at?: string | null }[]).filter((d) => d.event_type === 'webhook.test' && d.created_at && Date.parse(d.created_at) >= start - 1000).length;
        if (requested > 0) return ctx.observe('gate-webhook-test-only', `${requested} test event(s) were requested on this partner meanwhile; not judged`);
        ctx.expect.equal(tests(), 0, 'no webhook.test arrives without POST /webhooks/test', { requirement: 'GATE-EVT-WEBHOOK-TEST-ONLY' });
      },
    },
  ],
});
