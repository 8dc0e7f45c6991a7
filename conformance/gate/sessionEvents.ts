// Gate session events (Events > Catalogue): created, cancelled, completed with
// tx_refid, processing, failed, expired exactly once, kyc_package_accepted, and
// kyc.required (data gate_session_id, kyc_status, user_reference).
// Each arrives signed at rampart's receiver; the gate_session.* ones carry the session object as data.
import { randomUUID } from 'node:crypto';
import type { GateWebhookActor } from '../../src/needs/define.js';
import type { SessionTrigger } from '../../src/needs/support/sessionTrigger.js';
import { check, defineSuite, type CheckTools, type RequirementId } from '../../src/runner/check.js';
import { GateSession } from '../../src/model/schemas/gate/sessions.js';
import { KycRequiredData } from '../../src/model/schemas/gate/webhooks.js';
import type { ReceivedEvent } from '../../src/webhooks/types.js';
import { expect2xx } from '../../support/expect.js';
import { sessionForEvents } from '../../support/gate/sessionEvents.js';
import { bootstrap, createSession, readPastExpiry, sessionPath } from '../../support/gate/sessions.js';

const EVENT_WAIT_MS = 30_000;
/** How long to keep listening for a second gate_session.expired after the first. */
const DUPLICATE_WINDOW_MS = 3_000;

const forSession = (type: string, id: string) => (e: ReceivedEvent) => e.eventType === type && e.json?.data?.id === id;

/** Wait for the event of `type` about session `id`: signed, its data the session object without client_secret. */
async function expectSessionEvent(t: CheckTools, actor: GateWebhookActor, type: string, id: string, requirement: RequirementId): Promise<ReceivedEvent> {
  const e = await actor.hooks.waitFor(forSession(type, id), EVENT_WAIT_MS, `${type} for ${id}`, requirement);
  t.expect.that(e.verification.ok, `${type} carries a valid signature`, { requirement, actual: e.verification.reason });
  const parsed = GateSession.safeParse(e.json?.data);
  t.expect.that(parsed.success, `${type} data is the session object`, { requirement, actual: parsed.success ? undefined : parsed.error.issues.slice(0, 3) });
  t.expect.that(!('client_secret' in (e.json?.data ?? {})), `${type} data carries no client_secret`, { requirement });
  return e;
}

/**
 * A session another check left in `status` whose gate_session.created event this partner's receiver already has
 * (so its webhooks were wired before it was made, and its later events were sent too), or undefined.
 */
async function caused(
  t: CheckTools,
  actor: GateWebhookActor,
  status: 'cancelled' | 'completed' | 'expired',
): Promise<{ id: string; status: string; client_secret: string } | undefined> {
  await t.earlierChecksDone();
  for (let s = t.take<{ id: string; status: string; client_secret: string }>(sessionForEvents(status, actor)); s; s = t.take(sessionForEvents(status, actor)))
    if (actor.hooks.events().some(forSession('gate_session.created', s.id))) return s;
  return undefined;
}

/** One session, one trigger, one event (processing and failed have no session status of their own). */
async function triggeredEvent(t: CheckTools, actor: GateWebhookActor, trigger: SessionTrigger, type: string, requirement: RequirementId): Promise<void> {
  const { session } = await createSession(t, actor, requirement);
  await trigger(session.id, actor);
  await expectSessionEvent(t, actor, type, session.id, requirement);
}

export default defineSuite({
  service: 'gate',
  section: 'Events > Catalogue',
  checks: [
    check({
      name: 'gate_session.created and gate_session.cancelled fire with the session object',
      requirements: ['GATE-EVT-SESSION-CREATED', 'GATE-EVT-SESSION-CANCELLED'],
      needs: ['gateWebhooks'],
      // Runs late: the cancel check's session, when its created event already arrived, caused both events judged here.
      late: true,
      async run({ gateWebhooks: actor }, t: CheckTools) {
        const session = (await caused(t, actor, 'cancelled')) ?? (await createSession(t, actor, 'GATE-EVT-SESSION-CREATED')).session;
        const created = await expectSessionEvent(t, actor, 'gate_session.created', session.id, 'GATE-EVT-SESSION-CREATED');
        t.expect.equal(created.json.data.status, 'open', 'created carries the open session', { requirement: 'GATE-EVT-SESSION-CREATED' });
        // The cancel response is not shown: any 2xx.
        if (session.status === 'open')
          expect2xx(t, await actor.client.post(sessionPath(session.id, '/cancel'), undefined, { retry: false }), 'GATE-EVT-SESSION-CANCELLED');
        const cancelled = await expectSessionEvent(t, actor, 'gate_session.cancelled', session.id, 'GATE-EVT-SESSION-CANCELLED');
        t.expect.equal(cancelled.json.data.status, 'cancelled', 'cancelled carries the cancelled session', { requirement: 'GATE-EVT-SESSION-CANCELLED' });
      },
    }),
    check({
      name: 'gate_session.completed carries the session object plus tx_refid',
      requirements: ['GATE-EVT-SESSION-COMPLETED'],
      needs: ['gateWebhooks', 'gateCompleteSession'],
      // Runs late: the completion check's session, when its created event already arrived, caused the event judged here.
      late: true,
      async run({ gateWebhooks: actor, gateCompleteSession: complete }, t: CheckTools) {
        const R = 'GATE-EVT-SESSION-COMPLETED';
        const session = (await caused(t, actor, 'completed')) ?? (await createSession(t, actor, R)).session;
        if (session.status === 'open') await complete(session.id, actor);
        const e = await expectSessionEvent(t, actor, 'gate_session.completed', session.id, R);
        const ref = e.json.data.tx_refid;
        t.expect.that(typeof ref === 'string' && ref.length > 0, 'completed data carries tx_refid', { requirement: R, actual: ref });
      },
    }),
    check({
      name: 'gate_session.processing fires when a linked buy enters processing',
      requirements: ['GATE-EVT-SESSION-PROCESSING'],
      needs: ['gateWebhooks', 'gateProcessSession'],
      async run({ gateWebhooks: actor, gateProcessSession: process }, t: CheckTools) {
        await triggeredEvent(t, actor, process, 'gate_session.processing', 'GATE-EVT-SESSION-PROCESSING');
      },
    }),
    check({
      name: 'gate_session.failed fires when a linked buy fails',
      requirements: ['GATE-EVT-SESSION-FAILED'],
      needs: ['gateWebhooks', 'gateFailSession'],
      async run({ gateWebhooks: actor, gateFailSession: fail }, t: CheckTools) {
        await triggeredEvent(t, actor, fail, 'gate_session.failed', 'GATE-EVT-SESSION-FAILED');
      },
    }),
    check({
      name: 'gate_session.expired fires exactly once, on the first bootstrap past expires_at',
      requirements: ['GATE-EVT-SESSION-EXPIRED'],
      needs: ['gateWebhooksEmbed', 'gateExpireSession'],
      // Runs late: the session the expiry check bootstrapped past expires_at (when the partner was wired for it) is the
      // one judged; otherwise one of its own, expired and bootstrapped here.
      late: true,
      async run({ gateWebhooksEmbed: actor, gateExpireSession: expire }, t: CheckTools) {
        const R = 'GATE-EVT-SESSION-EXPIRED';
        const origin = actor.partner.allowedOrigins![0]!;
        let session = await caused(t, actor, 'expired');
        if (!session) {
          const made = (await createSession(t, actor, R)).session;
          // The event is about the first read past expires_at; if the way to expire it did not get there, nothing is judged.
          await readPastExpiry(t, actor, expire, made, R);
          const first = await bootstrap(actor, { origin }, { clientSecret: made.client_secret });
          t.observe('gate-bootstrap-past-expiry-status', first.status, 'the bootstrap response past expiry is not shown');
          session = made;
        }
        await expectSessionEvent(t, actor, 'gate_session.expired', session.id, R);
        const second = await bootstrap(actor, { origin }, { clientSecret: session.client_secret });
        t.observe('gate-bootstrap-expired-session-status', second.status, 'a bootstrap of an already expired session: not shown');
        await t.sleep(DUPLICATE_WINDOW_MS, 'listening for a second gate_session.expired', 'target');
        const ids = new Set(
          actor.hooks
            .events()
            .filter(forSession('gate_session.expired', session.id))
            .map((e) => e.eventId),
        );
        t.expect.equal(ids.size, 1, 'gate_session.expired fires once per session (distinct event ids)', { requirement: R });
      },
    }),
    check({
      name: "kyc.required fires when a session is blocked pending KYC, with the session's id, kyc_status and user_reference",
      requirements: ['GATE-EVT-KYC-REQUIRED'],
      needs: ['gateWebhooks'],
      async run({ gateWebhooks: actor, gateRequireKyc: requireKyc }, t: CheckTools) {
        const R = 'GATE-EVT-KYC-REQUIRED';
        const ref = `rampart-${randomUUID()}`;
        const { session } = await createSession(t, actor, R, { user_reference: ref });
        await requireKyc(session.id, actor);
        // Matched on the raw body, so a misshapen data is judged below rather than missed.
        const e = await actor.hooks.waitFor(
          (ev) => ev.eventType === 'kyc.required' && ev.rawBody.includes(session.id),
          EVENT_WAIT_MS,
          `kyc.required for ${session.id}`,
          R,
        );
        t.expect.that(e.verification.ok, 'kyc.required carries a valid signature', { requirement: R, actual: e.verification.reason });
        const data = KycRequiredData.safeParse(e.json?.data);
        t.expect.that(data.success, 'kyc.required data carries gate_session_id, kyc_status and user_reference', {
          requirement: R,
          actual: data.success
            ? undefined
            : `${JSON.stringify(e.json?.data).slice(0, 200)} — ${data.error.issues
                .slice(0, 2)
                .map((i) => `${i.path.join('.')}: ${i.message}`)
                .join('; ')}`,
        });
        t.expect.equal(
          [e.json.data.gate_session_id, e.json.data.user_reference],
          [session.id, ref],
          'the data names the blocked session and its user_reference',
          { requirement: R },
        );
        t.observe('gate-kyc-required-status', e.json.data.kyc_status, 'kyc_status values are not shown');
      },
    }),
    check({
      name: "gate_session.kyc_package_accepted fires when a KYC-trusted partner's package is accepted",
      requirements: ['GATE-EVT-KYC-PACKAGE-ACCEPTED'],
      // The webhook partner first: the KYC-trusted need then reuses it when it fits, and gives the profile's package.
      needs: ['gateWebhooksKycTrusted', 'gateKycTrusted'],
      async run({ gateWebhooksKycTrusted: actor, gateKycTrusted: trusted }, t: CheckTools) {
        const R = 'GATE-EVT-KYC-PACKAGE-ACCEPTED';
        const ref = `rampart-${randomUUID()}`;
        const { session } = await createSession(t, actor, R, { kyc_package: trusted.kycPackage, user_reference: ref });
        // The data is a redacted record of correlation ids and a timestamp: find it by the session id or our user_reference.
        const e = await actor.hooks.waitFor(
          (ev) => ev.eventType === 'gate_session.kyc_package_accepted' && (ev.rawBody.includes(session.id) || ev.rawBody.includes(ref)),
          EVENT_WAIT_MS,
          `gate_session.kyc_package_accepted for ${session.id}`,
          R,
        );
        t.expect.that(e.verification.ok, 'the event carries a valid signature', { requirement: R, actual: e.verification.reason });
        t.expect.that(e.json?.data && typeof e.json.data === 'object' && !Array.isArray(e.json.data), 'data is an object', { requirement: R });
        t.observe('gate-kyc-accepted-data-keys', Object.keys(e.json.data).sort());
      },
    }),
  ],
});
