// Gate session events (Events > Catalogue): created, cancelled, completed with
// tx_refid, processing, failed, expired exactly once, kyc_package_accepted.
// Each arrives signed at rampart's receiver with the session object as data.
import type { CheckContext, CheckDef, GateActor } from '../../src/runner/check.js';
import { GateSession } from '../../src/model/schemas/gate/sessions.js';
import type { ReceivedEvent } from '../../src/webhooks/types.js';
import { defineSuite } from '../../src/runner/check.js';
import { allowedOrigin, bootstrap, createSession, sessionPath } from './support/sessions.js';

const EVENT_WAIT_MS = 30_000;
/** How long to keep listening for a second gate_session.expired after the first. */
const DUPLICATE_WINDOW_MS = 1_500;

const forSession = (type: string, id: string) => (e: ReceivedEvent) => e.eventType === type && e.json?.data?.id === id;

async function expectSessionEvent(ctx: CheckContext, actor: GateActor, type: string, id: string, requirement: string): Promise<ReceivedEvent> {
  const e = await ctx.waitForEvent(actor.partner.name, forSession(type, id), EVENT_WAIT_MS, `${type} for ${id}`);
  ctx.expect.that(e.verification.ok, `${type} carries a valid signature`, { requirement, actual: e.verification.reason });
  const parsed = GateSession.safeParse(e.json?.data);
  ctx.expect.that(parsed.success, `${type} data is the session object`, { requirement, actual: parsed.success ? undefined : parsed.error.issues.slice(0, 3) });
  ctx.expect.that(!('client_secret' in (e.json?.data ?? {})), `${type} data carries no client_secret`, { requirement });
  return e;
}

/** One session, one trigger, one event. */
function triggeredEvent(name: string, trigger: 'processSession' | 'failSession', type: string, requirement: string, role: 'gate.trigger.process' | 'gate.trigger.fail'): CheckDef {
  return {
    name,
    requirements: [requirement],
    needs: ['gate.webhooks', role],
    async run(ctx: CheckContext) {
      const actor = await ctx.gate.webhooks();
      const { session } = await createSession(ctx, actor, requirement);
      await ctx.trigger('gate', trigger, { sessionId: session.id }, actor);
      await expectSessionEvent(ctx, actor, type, session.id, requirement);
    },
  };
}

export default defineSuite({
  service: 'gate',
  section: 'Events > Catalogue',
  checks: [
    {
      name: 'gate_session.created and gate_session.cancelled fire with the session object',
      requirements: ['GATE-EVT-SESSION-CREATED', 'GATE-EVT-SESSION-CANCELLED'],
      needs: ['gate.webhooks'],
      async run(ctx: CheckContext) {
        const actor = await ctx.gate.webhooks();
        const { session } = await createSession(ctx, actor, 'GATE-EVT-SESSION-CREATED');
        const created = await expectSessionEvent(ctx, actor, 'gate_session.created', session.id, 'GATE-EVT-SESSION-CREATED');
        ctx.expect.equal(created.json.data.status, 'open', 'created carries the open session', { requirement: 'GATE-EVT-SESSION-CREATED' });
        ctx.expect.status(await actor.client.post(sessionPath(session.id, '/cancel'), undefined, { retry: false }), [200, 201], 'GATE-EVT-SESSION-CANCELLED');
        const cancelled = await expectSessionEvent(ctx, actor, 'gate_session.cancelled', session.id, 'GATE-EVT-SESSION-CANCELLED');
        ctx.expect.equal(cancelled.json.data.status, 'cancelled', 'cancelled carries the cancelled session', { requirement: 'GATE-EVT-SESSION-CANCELLED' });
      },
    },
    {
      name: 'gate_session.completed carries the session object plus tx_refid',
      requirements: ['GATE-EVT-SESSION-COMPLETED'],
      needs: ['gate.webhooks', 'gate.trigger.complete'],
      async run(ctx: CheckContext) {
        const actor = await ctx.gate.webhooks();
        const { session } = await createSession(ctx, actor, 'GATE-EVT-SESSION-COMPLETED');
        await ctx.trigger('gate', 'completeSession', { sessionId: session.id }, actor);
        const e = await expectSessionEvent(ctx, actor, 'gate_session.completed', session.id, 'GATE-EVT-SESSION-COMPLETED');
        const ref = e.json.data.tx_refid;
        ctx.expect.that(typeof ref === 'string' && ref.length > 0, 'completed data carries tx_refid', { requirement: 'GATE-EVT-SESSION-COMPLETED', actual: ref });
      },
    },
    triggeredEvent('gate_session.processing fires when a linked buy enters processing', 'processSession', 'gate_session.processing', 'GATE-EVT-SESSION-PROCESSING', 'gate.trigger.process'),
    triggeredEvent('gate_session.failed fires when a linked buy fails', 'failSession', 'gate_session.failed', 'GATE-EVT-SESSION-FAILED', 'gate.trigger.fail'),
    {
      name: 'gate_session.expired fires exactly once, on the first bootstrap past expires_at',
      requirements: ['GATE-EVT-SESSION-EXPIRED'],
      needs: ['gate.webhooks', 'gate.publishableKey', 'gate.trigger.expire'],
      async run(ctx: CheckContext) {
        const actor = await ctx.gate.webhooks({ embed: true });
        const origin = allowedOrigin(ctx, actor);
        const { session } = await createSession(ctx, actor, 'GATE-EVT-SESSION-EXPIRED');
        await ctx.trigger('gate', 'expireSession', { sessionId: session.id }, actor);
        await bootstrap(actor, { origin }, { clientSecret: session.client_secret });
        await expectSessionEvent(ctx, actor, 'gate_session.expired', session.id, 'GATE-EVT-SESSION-EXPIRED');
        await bootstrap(actor, { origin }, { clientSecret: session.client_secret });
        await ctx.sleep(DUPLICATE_WINDOW_MS, 'listening for a second gate_session.expired');
        const ids = new Set(ctx.receiver.events(actor.partner.name).filter(forSession('gate_session.expired', session.id)).map((e) => e.eventId));
        ctx.expect.equal(ids.size, 1, 'gate_session.expired fires once per session (distinct event ids)', { requirement: 'GATE-EVT-SESSION-EXPIRED' });
      },
    },
    {
      name: "gate_session.kyc_package_accepted fires when a KYC-trusted partner's package is accepted",
      requirements: ['GATE-EVT-KYC-PACKAGE-ACCEPTED'],
      needs: ['gate.webhooks', 'gate.kycTrusted'],
      async run(ctx: CheckContext) {
        const actor = await ctx.gate.webhooks({ kycTrusted: true });
        const ref = `rampart-${Date.now().toString(36)}`;
        const { session } = await createSession(ctx, actor, 'GATE-EVT-KYC-PACKAGE-ACCEPTED', { kyc_package: ctx.profile.gate.kycPackage, user_reference: ref });
        // The data is a redacted record of correlation ids and a timestamp: find it by the session id or our user_reference.
        const e = await ctx.waitForEvent(
          actor.partner.name,
          (ev) => ev.eventType === 'gate_session.kyc_package_accepted' && (ev.rawBody.includes(session.id) || ev.rawBody.includes(ref)),
          EVENT_WAIT_MS,
          `gate_session.kyc_package_accepted for ${session.id}`,
        );
        ctx.expect.that(e.verification.ok, 'the event carries a valid signature', { requirement: 'GATE-EVT-KYC-PACKAGE-ACCEPTED', actual: e.verification.reason });
        ctx.expect.that(e.json?.data && typeof e.json.data === 'object', 'data is an object', { requirement: 'GATE-EVT-KYC-PACKAGE-ACCEPTED' });
        ctx.observe('gate-kyc-accepted-data-keys', Object.keys(e.json.data).sort());
      },
    },
  ],
});
