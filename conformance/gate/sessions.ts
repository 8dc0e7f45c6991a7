// Gate "Endpoints > Sessions" and the session state table: creation and its
// idempotency, client_secret, retrieve, list pagination, cancel and the
// terminal states, expiry on bootstrap, kyc_pre_verified.
import { randomUUID } from 'node:crypto';
import { defineSuite, type CheckContext } from '../../src/runner/check.js';
import { GateSession, GateSessionList } from '../../src/model/schemas/gate/sessions.js';
import { expectGateError } from './errors.js';
import { allowedOrigin, bootstrap, createSession, sessionBody, sessionPath } from './support/sessions.js';

const METADATA = { order: 'A-1001', nested: { n: 1, ok: true, list: [1, 'two', null] }, empty: '' };
/** Bound on extra sessions a pagination check may create (POST /gate_sessions is 10/min per key). */
const MAX_EXTRA_SESSIONS = 12;
const MAX_PAGES = 40;

export default defineSuite({
  service: 'gate',
  section: 'Endpoints > Sessions',
  checks: [
    {
      name: 'create answers a GateSession with a gsec_ client_secret, the currency uppercased and metadata verbatim; retrieve and list never show client_secret',
      requirements: [
        'GATE-SESS-CREATE-SHAPE',
        'GATE-SESS-CLIENT-SECRET-PREFIX',
        'GATE-SESS-CURRENCY-UPPERCASE',
        'GATE-SESS-METADATA-VERBATIM',
        'GATE-SESS-RETRIEVE',
        'GATE-SESS-CLIENT-SECRET-CREATE-ONLY',
        'GATE-SESS-LIST-ENVELOPE',
      ],
      needs: ['gate.partner'],
      async run(ctx: CheckContext) {
        const actor = ctx.gate.partner();
        const currency = String(sessionBody(ctx).currency ?? 'eur').toLowerCase();
        const { session, exchange } = await createSession(ctx, actor, 'GATE-SESS-CREATE-SHAPE', { currency, metadata: METADATA });
        ctx.expect.equal(session.status, 'open', 'a new session is open', { requirement: 'GATE-SESS-CREATE-SHAPE', exchange });
        ctx.expect.that(session.client_secret.startsWith('gsec_'), 'client_secret starts with gsec_', { requirement: 'GATE-SESS-CLIENT-SECRET-PREFIX', exchange });
        ctx.expect.equal(session.currency, currency.toUpperCase(), 'currency is uppercased', { requirement: 'GATE-SESS-CURRENCY-UPPERCASE', exchange });
        ctx.expect.equal(session.metadata, METADATA, 'metadata comes back verbatim', { requirement: 'GATE-SESS-METADATA-VERBATIM', exchange });

        const got = ctx.expect.status(await actor.client.get(sessionPath(session.id)), 200, 'GATE-SESS-RETRIEVE');
        const read = ctx.expect.schema(got, GateSession, 'GATE-SESS-RETRIEVE');
        ctx.expect.equal(read.id, session.id, 'retrieve answers the session asked for', { requirement: 'GATE-SESS-RETRIEVE', exchange: got });
        ctx.expect.equal(read.metadata, METADATA, 'metadata is verbatim on retrieve too', { requirement: 'GATE-SESS-METADATA-VERBATIM', exchange: got });
        ctx.expect.that(!('client_secret' in (got.json as object)), 'retrieve carries no client_secret', { requirement: 'GATE-SESS-CLIENT-SECRET-CREATE-ONLY', exchange: got });
        ctx.expect.that(!got.bodyText.includes(session.client_secret), 'the client_secret value appears nowhere in the retrieve response', { requirement: 'GATE-SESS-CLIENT-SECRET-CREATE-ONLY', exchange: got });

        const list = ctx.expect.status(await actor.client.get('/gate_sessions'), 200, 'GATE-SESS-LIST-ENVELOPE');
        ctx.expect.schema(list, GateSessionList, 'GATE-SESS-LIST-ENVELOPE');
        ctx.expect.that(!list.bodyText.includes('client_secret') && !list.bodyText.includes(session.client_secret), 'the list carries no client_secret', {
          requirement: 'GATE-SESS-CLIENT-SECRET-CREATE-ONLY',
          exchange: list,
        });
      },
    },
    {
      name: 'Idempotency-Key: required; a replay returns the original response; the same key with another body gives 409',
      requirements: ['GATE-SESS-IDEMPOTENCY-KEY-REQUIRED', 'GATE-SESS-IDEMPOTENT-REPLAY', 'GATE-SESS-IDEMPOTENCY-CONFLICT-409'],
      needs: ['gate.partner'],
      async run(ctx: CheckContext) {
        const actor = ctx.gate.partner();
        const without = await actor.client.post('/gate_sessions', sessionBody(ctx), { idempotencyKey: false, retry: false });
        ctx.expect.that(without.status >= 400 && without.status < 500, 'a create without Idempotency-Key is refused with a 4xx', {
          requirement: 'GATE-SESS-IDEMPOTENCY-KEY-REQUIRED',
          actual: without.status,
          exchange: without,
        });
        if (without.status === 400) expectGateError(ctx, without, 400);
        else ctx.observe('gate-session-missing-idempotency-key-status', without.status, 'the spec marks the key required without naming the status');

        const key = randomUUID();
        const body = sessionBody(ctx, { metadata: { attempt: 'first' } });
        const first = await actor.client.post('/gate_sessions', body, { idempotencyKey: key });
        ctx.expect.status(first, [200, 201], 'GATE-SESS-IDEMPOTENT-REPLAY');
        const replay = await actor.client.post('/gate_sessions', body, { idempotencyKey: key });
        ctx.expect.status(replay, first.status, 'GATE-SESS-IDEMPOTENT-REPLAY');
        ctx.expect.equal(replay.json?.id, first.json?.id, 'the replay answers the original session', { requirement: 'GATE-SESS-IDEMPOTENT-REPLAY', exchange: replay });
        ctx.expect.equal(replay.json?.client_secret, first.json?.client_secret, 'the replay answers the original client_secret', { requirement: 'GATE-SESS-IDEMPOTENT-REPLAY', exchange: replay });

        const conflict = await actor.client.post('/gate_sessions', sessionBody(ctx, { metadata: { attempt: 'second' } }), { idempotencyKey: key, retry: false });
        expectGateError(ctx, conflict, 409, 'GATE-SESS-IDEMPOTENCY-CONFLICT-409');
      },
    },
    {
      name: 'a create without amount, currency or return_url gives 400',
      requirements: ['GATE-SESS-CREATE-REQUIRED-FIELDS'],
      needs: ['gate.partner'],
      async run(ctx: CheckContext) {
        const actor = ctx.gate.partner();
        for (const field of ['amount', 'currency', 'return_url']) {
          const ex = await actor.client.post('/gate_sessions', sessionBody(ctx, { [field]: undefined }), { idempotencyKey: true, retry: false });
          ctx.expect.error(ex, 400, 'invalid_request', { requirement: 'GATE-SESS-CREATE-REQUIRED-FIELDS' });
        }
      },
    },
    {
      name: "another partner's session gives 404 on retrieve and cancel, and stays open",
      requirements: ['GATE-SESS-CROSS-TENANT-404'],
      needs: ['gate.partner', 'gate.secondPartner'],
      async run(ctx: CheckContext) {
        const owner = ctx.gate.partner();
        const other = ctx.gate.other();
        const { session } = await createSession(ctx, owner, 'GATE-SESS-CROSS-TENANT-404');
        ctx.expect.error(await other.client.get(sessionPath(session.id)), 404, 'not_found', { requirement: 'GATE-SESS-CROSS-TENANT-404' });
        ctx.expect.error(await other.client.post(sessionPath(session.id, '/cancel'), undefined, { retry: false }), 404, 'not_found', { requirement: 'GATE-SESS-CROSS-TENANT-404' });
        const still = ctx.expect.schema(ctx.expect.status(await owner.client.get(sessionPath(session.id)), 200, 'GATE-SESS-CROSS-TENANT-404'), GateSession, 'GATE-SESS-CROSS-TENANT-404');
        ctx.expect.equal(still.status, 'open', "the other partner's cancel changed nothing", { requirement: 'GATE-SESS-CROSS-TENANT-404' });
      },
    },
    {
      name: 'cancel moves an open session to cancelled; cancel of a cancelled or completed session gives 409 and changes nothing',
      requirements: ['GATE-SESS-CANCEL', 'GATE-SESS-CANCEL-TERMINAL-409', 'GATE-SESS-COMPLETE'],
      needs: ['gate.partner', 'gate.trigger.complete'],
      async run(ctx: CheckContext) {
        const actor = ctx.gate.partner();
        const { session } = await createSession(ctx, actor, 'GATE-SESS-CANCEL');
        const cancelled = ctx.expect.status(await actor.client.post(sessionPath(session.id, '/cancel'), undefined, { retry: false }), [200, 201], 'GATE-SESS-CANCEL');
        ctx.expect.equal(ctx.expect.schema(cancelled, GateSession, 'GATE-SESS-CANCEL').status, 'cancelled', 'cancel answers the cancelled session', { requirement: 'GATE-SESS-CANCEL', exchange: cancelled });
        expectGateError(ctx, await actor.client.post(sessionPath(session.id, '/cancel'), undefined, { retry: false }), 409, 'GATE-SESS-CANCEL-TERMINAL-409');

        const done = (await createSession(ctx, actor, 'GATE-SESS-COMPLETE')).session;
        await ctx.trigger('gate', 'completeSession', { sessionId: done.id }, actor);
        const read = ctx.expect.schema(ctx.expect.status(await actor.client.get(sessionPath(done.id)), 200, 'GATE-SESS-COMPLETE'), GateSession, 'GATE-SESS-COMPLETE');
        ctx.expect.equal(read.status, 'completed', 'a succeeded linked buy completes the session', { requirement: 'GATE-SESS-COMPLETE' });
        expectGateError(ctx, await actor.client.post(sessionPath(done.id, '/cancel'), undefined, { retry: false }), 409, 'GATE-SESS-CANCEL-TERMINAL-409');
        const after = ctx.expect.schema(ctx.expect.status(await actor.client.get(sessionPath(done.id)), 200, 'GATE-SESS-CANCEL-TERMINAL-409'), GateSession, 'GATE-SESS-CANCEL-TERMINAL-409');
        ctx.expect.equal(after.status, 'completed', 'a refused cancel leaves the session completed', { requirement: 'GATE-SESS-CANCEL-TERMINAL-409' });
      },
    },
    {
      name: 'past expires_at: retrieve still reads open; an embed bootstrap expires it; cancel then gives 409',
      requirements: ['GATE-SESS-RETRIEVE-NO-STATUS-CHANGE', 'GATE-SESS-EXPIRE-ON-BOOTSTRAP', 'GATE-SESS-CANCEL-TERMINAL-409'],
      needs: ['gate.publishableKey', 'gate.trigger.expire'],
      async run(ctx: CheckContext) {
        const actor = ctx.gate.embed();
        const origin = allowedOrigin(ctx, actor);
        const { session } = await createSession(ctx, actor, 'GATE-SESS-RETRIEVE-NO-STATUS-CHANGE');
        await ctx.trigger('gate', 'expireSession', { sessionId: session.id }, actor);
        const read = ctx.expect.schema(ctx.expect.status(await actor.client.get(sessionPath(session.id)), 200, 'GATE-SESS-RETRIEVE-NO-STATUS-CHANGE'), GateSession, 'GATE-SESS-RETRIEVE-NO-STATUS-CHANGE');
        ctx.expect.that(Date.parse(read.expires_at) <= Date.now(), 'the expireSession trigger put expires_at in the past', { requirement: 'GATE-SESS-RETRIEVE-NO-STATUS-CHANGE', actual: read.expires_at });
        ctx.expect.equal(read.status, 'open', 'retrieve past expires_at still reads open', { requirement: 'GATE-SESS-RETRIEVE-NO-STATUS-CHANGE' });

        const boot = await bootstrap(actor, { origin }, { clientSecret: session.client_secret });
        ctx.observe('gate-bootstrap-past-expiry-status', boot.status, 'the bootstrap response past expiry is not shown');
        const after = ctx.expect.schema(ctx.expect.status(await actor.client.get(sessionPath(session.id)), 200, 'GATE-SESS-EXPIRE-ON-BOOTSTRAP'), GateSession, 'GATE-SESS-EXPIRE-ON-BOOTSTRAP');
        ctx.expect.equal(after.status, 'expired', 'a bootstrap past expires_at expires the session', { requirement: 'GATE-SESS-EXPIRE-ON-BOOTSTRAP' });
        expectGateError(ctx, await actor.client.post(sessionPath(session.id, '/cancel'), undefined, { retry: false }), 409, 'GATE-SESS-CANCEL-TERMINAL-409');
      },
    },
    {
      name: 'list pagination: starting_after walks every page with no duplicate and no gap; has_more is true exactly when a next page has sessions',
      requirements: ['GATE-SESS-LIST-STARTING-AFTER', 'GATE-SESS-LIST-PAGINATION', 'GATE-SESS-LIST-ENVELOPE'],
      needs: ['gate.partner'],
      timeoutMs: 180_000,
      async run(ctx: CheckContext) {
        const actor = ctx.gate.partner();
        const mine = [(await createSession(ctx, actor, 'GATE-SESS-LIST-STARTING-AFTER')).session.id, (await createSession(ctx, actor, 'GATE-SESS-LIST-STARTING-AFTER')).session.id];
        const firstPage = async () => ctx.expect.schema(ctx.expect.status(await actor.client.get('/gate_sessions'), 200, 'GATE-SESS-LIST-ENVELOPE'), GateSessionList, 'GATE-SESS-LIST-ENVELOPE');
        // A full first page is needed to see has_more true; the page size is not shown, so grow the list until the first page stops growing.
        let page = await firstPage();
        for (let i = 0; i < MAX_EXTRA_SESSIONS && !page.has_more; i++) {
          const before = page.data.length;
          mine.push((await createSession(ctx, actor, 'GATE-SESS-LIST-PAGINATION')).session.id);
          page = await firstPage();
          ctx.expect.that(page.has_more || page.data.length > before, 'a first page that stopped growing after a new session says has_more', {
            requirement: 'GATE-SESS-LIST-PAGINATION',
            actual: { before, after: page.data.length, has_more: page.has_more },
          });
        }
        if (!page.has_more) ctx.observe('gate-session-list-first-page', `holds ${page.data.length}+ sessions; has_more never became true within ${MAX_EXTRA_SESSIONS} extra sessions`);

        const seen: string[] = [];
        for (let n = 0; n < MAX_PAGES; n++) {
          seen.push(...page.data.map((s) => s.id));
          const last = page.data[page.data.length - 1];
          if (!last) break;
          const next = ctx.expect.schema(
            ctx.expect.status(await actor.client.get('/gate_sessions', { starting_after: last.id }), 200, 'GATE-SESS-LIST-STARTING-AFTER'),
            GateSessionList,
            'GATE-SESS-LIST-STARTING-AFTER',
          );
          ctx.expect.equal(page.has_more, next.data.length > 0, `has_more of the page ending at ${last.id} says whether another page follows`, { requirement: 'GATE-SESS-LIST-PAGINATION' });
          if (!page.has_more) break;
          page = next;
        }
        const dupes = seen.filter((id, i) => seen.indexOf(id) !== i);
        ctx.expect.equal(dupes, [], 'no session appears on two pages', { requirement: 'GATE-SESS-LIST-STARTING-AFTER' });
        const missing = mine.filter((id) => !seen.includes(id));
        ctx.expect.equal(missing, [], 'every session this check created appears in the walk', { requirement: 'GATE-SESS-LIST-STARTING-AFTER' });
      },
    },
    {
      name: "kyc_pre_verified: true with a KYC-trusted partner's package, false without a package and for an untrusted partner",
      requirements: ['GATE-SESS-KYC-PRE-VERIFIED'],
      needs: ['gate.kycTrusted'],
      async run(ctx: CheckContext) {
        const trusted = ctx.gate.kycTrusted();
        const pkg = ctx.profile.gate.kycPackage;
        const accepted = await createSession(ctx, trusted, 'GATE-SESS-KYC-PRE-VERIFIED', { kyc_package: pkg, user_reference: `rampart-${randomUUID()}` });
        ctx.expect.equal(accepted.session.kyc_pre_verified, true, "a trusted partner's package sets kyc_pre_verified", { requirement: 'GATE-SESS-KYC-PRE-VERIFIED', exchange: accepted.exchange });
        const plain = await createSession(ctx, trusted, 'GATE-SESS-KYC-PRE-VERIFIED');
        ctx.expect.equal(plain.session.kyc_pre_verified, false, 'no package, no pre-verification', { requirement: 'GATE-SESS-KYC-PRE-VERIFIED', exchange: plain.exchange });
        const untrustedPartner = ctx.profile.gate.partners.find((p) => !p.kycTrusted && !p.reservedFor);
        if (!untrustedPartner) return ctx.observe('gate-kyc-untrusted', 'no untrusted partner in the profile');
        // A raw client with that partner's key: the lease pool does not pick partners by trust.
        const ex = await ctx.gate.rawClient().request({
          method: 'POST',
          path: '/gate_sessions',
          body: sessionBody(ctx, { kyc_package: pkg }),
          auth: { bearer: untrustedPartner.secretKey },
          idempotencyKey: true,
          retry: false,
        });
        if (ex.status >= 200 && ex.status < 300) {
          ctx.expect.equal(ex.json?.kyc_pre_verified, false, "an untrusted partner's package is not accepted", { requirement: 'GATE-SESS-KYC-PRE-VERIFIED', exchange: ex });
          ctx.observe('gate-kyc-untrusted', 'created, kyc_pre_verified false');
        } else ctx.observe('gate-kyc-untrusted', `refused with ${ex.status}`);
      },
    },
  ],
});
