// Gate "Endpoints > Sessions" and the session state table: creation and its
// idempotency, client_secret, retrieve, list pagination, cancel and the
// terminal states, expiry on bootstrap, kyc_pre_verified.
import { randomUUID } from 'node:crypto';
import type { GateActor } from '../../src/needs/define.js';
import type { SessionTrigger } from '../../src/needs/support/sessionTrigger.js';
import { check, defineSuite, type CheckTools } from '../../src/runner/check.js';
import { refusedTogether } from '../../support/gate/validation.js';
import { CreatedGateSession, GateSession, GateSessionList } from '../../src/model/schemas/gate/sessions.js';
import { expect2xx } from '../../support/expect.js';
import { requireKeyRoom } from '../../support/gate/budget.js';
import { expectGateError } from '../../support/gate/errors.js';
import { expectListUrl, expectNeverListed } from '../../support/gate/lists.js';
import { sessionForEvents } from '../../support/gate/sessionEvents.js';
import {
  bootstrap,
  createSession,
  expectOpenBeforeExpiresAt,
  expectTermsEchoed,
  expectUnsentTermsNull,
  readPastExpiry,
  sessionBody,
  sessionPath,
} from '../../support/gate/sessions.js';

const METADATA = { order: 'A-1001', nested: { n: 1, ok: true, list: [1, 'two', null] }, empty: '' };
/** Bound on extra sessions a pagination check may create (POST /gate_sessions is 10/min per key). */
const MAX_EXTRA_SESSIONS = 12;
const MAX_PAGES = 40;

type CreatedSession = ReturnType<typeof CreatedGateSession.parse>;
/** Where a check leaves a session it made terminal, for the terminal-stays check to take (one partner's sessions only). */
const terminalSession = (status: 'cancelled' | 'completed', actor: GateActor) => `gate session ${status} of ${actor.partner.name}`;

/** The completion control on a terminal session (whatever it answers: not shown) leaves it as it is. */
async function expectCompletionLeaves(t: CheckTools, actor: GateActor, complete: SessionTrigger, id: string, status: 'cancelled' | 'expired'): Promise<void> {
  const R = 'GATE-SESS-TERMINAL-STAYS';
  const res = await complete.send(id, actor);
  t.observe(
    'gate-complete-terminal-session',
    { status, answered: res.exchange.status },
    'what the completion control answers for a terminal session is not shown',
  );
  const after = t.expect.schema(t.expect.status(await actor.client.get(sessionPath(id)), 200, R), GateSession, R);
  t.expect.equal(after.status, status, `a succeeded linked buy leaves the ${status} session ${status} (terminal)`, { requirement: R });
}

export default defineSuite({
  service: 'gate',
  section: 'Endpoints > Sessions',
  checks: [
    check({
      name: "create answers a GateSession of the key's mode with a gsec_ client_secret, the terms sent, the currency uppercased and metadata verbatim; retrieve and list never show client_secret",
      requirements: [
        'GATE-SESS-CREATE-SHAPE',
        'GATE-SESS-CLIENT-SECRET-PREFIX',
        'GATE-SESS-CURRENCY-UPPERCASE',
        'GATE-SESS-METADATA-VERBATIM',
        'GATE-SESS-ECHO-TERMS',
        'GATE-SESS-MODE-OF-KEY',
        'GATE-SESS-RETRIEVE',
        'GATE-SESS-CLIENT-SECRET-CREATE-ONLY',
        'GATE-SESS-LIST-ENVELOPE',
        'GATE-SESS-UNSENT-TERMS-NULL',
      ],
      needs: ['gatePartner'],
      async run({ gatePartner: actor }, t: CheckTools) {
        const currency = String(sessionBody(t).currency ?? 'eur').toLowerCase();
        // The optional terms a partner may bind: flow (on_ramp is a documented value), a cancel redirect and a correlation id.
        const terms = {
          currency,
          metadata: METADATA,
          cancel_url: `https://rampart.example.test/cancel/${randomUUID()}`,
          flow: 'on_ramp',
          user_reference: `rampart-${randomUUID()}`,
        };
        const exchange = expect2xx(t, await actor.client.post('/gate_sessions', sessionBody(t, terms), { idempotencyKey: true }), 'GATE-SESS-CREATE-SHAPE');
        // The field rules first, on the raw body: a wrong prefix or a lowercase currency is its own rule broken, not the shape.
        const raw = (exchange.json ?? {}) as { client_secret?: unknown; currency?: unknown };
        t.expect.that(typeof raw.client_secret === 'string' && raw.client_secret.startsWith('gsec_'), 'client_secret starts with gsec_', {
          requirement: 'GATE-SESS-CLIENT-SECRET-PREFIX',
          actual: typeof raw.client_secret === 'string' ? `${raw.client_secret.slice(0, 5)}…` : raw.client_secret,
          exchange,
        });
        t.expect.equal(raw.currency, currency.toUpperCase(), 'currency is uppercased', { requirement: 'GATE-SESS-CURRENCY-UPPERCASE', exchange });
        const session = t.expect.schema(exchange, CreatedGateSession, 'GATE-SESS-CREATE-SHAPE');
        t.expect.equal(session.status, 'open', 'a new session is open', { requirement: 'GATE-SESS-CREATE-SHAPE', exchange });
        t.expect.equal(session.mode, 'test', 'a session a test key creates on the sandbox is mode test', { requirement: 'GATE-SESS-MODE-OF-KEY', exchange });
        t.expect.equal(session.metadata, METADATA, 'metadata comes back verbatim', { requirement: 'GATE-SESS-METADATA-VERBATIM', exchange });
        const sent = sessionBody(t, terms);
        expectTermsEchoed(t, session, sent, exchange, 'GATE-SESS-ECHO-TERMS');
        expectUnsentTermsNull(t, session, sent, exchange, 'GATE-SESS-UNSENT-TERMS-NULL');

        // A later session exists when the first is read back, so "the session asked for" is not merely the newest one.
        // It carries only the profile's defaults: every other optional term reads back null.
        const later = await createSession(t, actor, 'GATE-SESS-RETRIEVE');
        expectUnsentTermsNull(t, later.session, sessionBody(t), later.exchange, 'GATE-SESS-UNSENT-TERMS-NULL');
        const got = t.expect.status(await actor.client.get(sessionPath(session.id)), 200, 'GATE-SESS-RETRIEVE');
        const read = t.expect.schema(got, GateSession, 'GATE-SESS-RETRIEVE');
        t.expect.equal(read.id, session.id, 'retrieve answers the session asked for', { requirement: 'GATE-SESS-RETRIEVE', exchange: got });
        t.expect.equal(read.metadata, METADATA, 'metadata is verbatim on retrieve too', { requirement: 'GATE-SESS-METADATA-VERBATIM', exchange: got });
        expectTermsEchoed(t, read, sent, got, 'GATE-SESS-ECHO-TERMS');
        expectUnsentTermsNull(t, read, sent, got, 'GATE-SESS-UNSENT-TERMS-NULL');
        t.expect.equal([read.mode, read.currency], [session.mode, session.currency], 'retrieve reads the mode and currency the creation answered', {
          requirement: 'GATE-SESS-MODE-OF-KEY',
          exchange: got,
        });
        t.expect.that(!('client_secret' in (got.json as object)), 'retrieve carries no client_secret', {
          requirement: 'GATE-SESS-CLIENT-SECRET-CREATE-ONLY',
          exchange: got,
        });
        t.expect.that(!got.bodyText.includes(session.client_secret), 'the client_secret value appears nowhere in the retrieve response', {
          requirement: 'GATE-SESS-CLIENT-SECRET-CREATE-ONLY',
          exchange: got,
        });

        const list = t.expect.status(await actor.client.get('/gate_sessions'), 200, 'GATE-SESS-LIST-ENVELOPE');
        t.expect.schema(list, GateSessionList, 'GATE-SESS-LIST-ENVELOPE');
        expectListUrl(t, list, '/gate_sessions', 'GATE-SESS-LIST-ENVELOPE');
        t.expect.that(!list.bodyText.includes('client_secret') && !list.bodyText.includes(session.client_secret), 'the list carries no client_secret', {
          requirement: 'GATE-SESS-CLIENT-SECRET-CREATE-ONLY',
          exchange: list,
        });
      },
    }),
    check({
      name: 'a session a live key creates on the production base is mode live, created and read (only where the profile allows live writes; cancelled at once)',
      requirements: ['GATE-SESS-MODE-OF-KEY'],
      needs: ['gateLiveWrites'],
      async run({ gateLiveWrites: live }, t: CheckTools) {
        const R = 'GATE-SESS-MODE-OF-KEY';
        const ex = expect2xx(
          t,
          await live.client.request({ method: 'POST', path: '/gate_sessions', body: sessionBody(t), idempotencyKey: true, retry: false }),
          R,
          'POST /gate_sessions with the live key',
        );
        const made = t.expect.schema(ex, CreatedGateSession, R);
        try {
          t.expect.equal(made.mode, 'live', 'a session a live key creates on the production base is mode live', { requirement: R, exchange: ex });
          const read = t.expect.schema(t.expect.status(await live.client.get(sessionPath(made.id)), 200, R), GateSession, R);
          t.expect.equal(read.mode, 'live', 'retrieve with the live key reads mode live', { requirement: R });
        } finally {
          // Nothing live is left open: the session is cancelled whatever was judged.
          await live.client.post(sessionPath(made.id, '/cancel'), undefined, { retry: false }).catch(() => undefined);
        }
      },
    }),
    check({
      name: 'Idempotency-Key: required and a UUID (another key gives 400); a replay returns the original response; the same key with another body gives 409',
      requirements: [
        'GATE-SESS-IDEMPOTENCY-KEY-REQUIRED',
        'GATE-SESS-IDEMPOTENCY-KEY-UUID',
        'GATE-SESS-IDEMPOTENT-REPLAY',
        'GATE-SESS-IDEMPOTENCY-CONFLICT-409',
      ],
      needs: ['gatePartner'],
      async run({ gatePartner: actor }, t: CheckTools) {
        const without = await actor.client.post('/gate_sessions', sessionBody(t), { idempotencyKey: false, retry: false });
        t.expect.that(without.status >= 400 && without.status < 500, 'a create without Idempotency-Key is refused with a 4xx', {
          requirement: 'GATE-SESS-IDEMPOTENCY-KEY-REQUIRED',
          actual: without.status,
          exchange: without,
        });
        if (without.status === 400) expectGateError(t, without, 400, 'GATE-SESS-IDEMPOTENCY-KEY-REQUIRED');
        else t.observe('gate-session-missing-idempotency-key-status', without.status, 'the spec marks the key required without naming the status');
        // "Idempotency-Key (UUID)": a key of another form is a malformed header, refused like any malformed field.
        const notUuid = await actor.client.post('/gate_sessions', sessionBody(t), { idempotencyKey: `rampart-${randomUUID().slice(0, 8)}`, retry: false });
        expectGateError(t, notUuid, 400, 'GATE-SESS-IDEMPOTENCY-KEY-UUID');

        const key = randomUUID();
        const body = sessionBody(t, { metadata: { attempt: 'first' } });
        const first = expect2xx(t, await actor.client.post('/gate_sessions', body, { idempotencyKey: key }), 'GATE-SESS-IDEMPOTENT-REPLAY');
        const replay = await actor.client.post('/gate_sessions', body, { idempotencyKey: key });
        t.expect.status(replay, first.status, 'GATE-SESS-IDEMPOTENT-REPLAY');
        t.expect.equal(replay.json?.id, first.json?.id, 'the replay answers the original session', {
          requirement: 'GATE-SESS-IDEMPOTENT-REPLAY',
          exchange: replay,
        });
        t.expect.equal(replay.json?.client_secret, first.json?.client_secret, 'the replay answers the original client_secret', {
          requirement: 'GATE-SESS-IDEMPOTENT-REPLAY',
          exchange: replay,
        });

        const conflict = await actor.client.post('/gate_sessions', sessionBody(t, { metadata: { attempt: 'second' } }), { idempotencyKey: key, retry: false });
        expectGateError(t, conflict, 409, 'GATE-SESS-IDEMPOTENCY-CONFLICT-409');
      },
    }),
    check({
      name: 'a create without amount, currency or return_url gives 400',
      requirements: ['GATE-SESS-CREATE-REQUIRED-FIELDS'],
      needs: ['gatePartner'],
      async run({ gatePartner: actor }, t: CheckTools) {
        // All three left out at once first: a 400 naming each in its own part proves each required (support/gate/validation.ts).
        await refusedTogether(
          t,
          (body) => actor.client.post('/gate_sessions', body, { idempotencyKey: true, retry: false }),
          sessionBody(t),
          ['amount', 'currency', 'return_url'].map((field) => ({
            field,
            body: { [field]: undefined },
            requirement: 'GATE-SESS-CREATE-REQUIRED-FIELDS' as const,
          })),
        );
      },
    }),
    check({
      name: 'a malformed amount (a JSON number, "abc", "1,00") or metadata that is no object (a string) gives 400',
      requirements: ['GATE-SESS-CREATE-MALFORMED-400'],
      needs: ['gatePartner'],
      async run({ gatePartner: actor }, t: CheckTools) {
        const R = 'GATE-SESS-CREATE-MALFORMED-400';
        const amount = String(sessionBody(t).amount ?? '100.00');
        // A decimal string is digits with an optional point: a number, letters or a decimal comma are malformed.
        // A number for amount and a string for metadata: two fields, one body first (support/gate/validation.ts).
        const send = (body: Record<string, unknown>) => actor.client.post('/gate_sessions', body, { idempotencyKey: true, retry: false });
        for (const ex of await refusedTogether(t, send, sessionBody(t), [
          { field: 'amount', body: { amount: Number(amount) }, requirement: R },
          { field: 'metadata', body: { metadata: 'order A-1001' }, requirement: R },
        ]))
          expectGateError(t, ex, 400, R);
        const cases: [string, Record<string, unknown>][] = [
          ['amount "abc"', { amount: 'abc' }],
          ['amount "1,00" (a decimal comma)', { amount: '1,00' }],
        ];
        for (const [what, override] of cases) {
          const ex = await actor.client.post('/gate_sessions', sessionBody(t, override), { idempotencyKey: true, retry: false });
          t.expect.that(ex.status === 400, `a create with ${what} gives 400`, { requirement: R, expected: 400, actual: ex.status, exchange: ex });
          expectGateError(t, ex, 400, R);
        }
      },
    }),
    check({
      name: "cross-tenant is 404, never 403: another partner's session gives 404 on retrieve and cancel, and stays open",
      requirements: ['GATE-SESS-CROSS-TENANT-404', 'GATE-ERR-CROSS-TENANT-404'],
      needs: ['gatePartner', 'gateOtherTenant'],
      async run({ gatePartner: owner, gateOtherTenant: other }, t: CheckTools) {
        const R = 'GATE-SESS-CROSS-TENANT-404';
        const { session } = await createSession(t, owner, R);
        // Endpoints: "Partner-scoped ids of another partner return 404"; Errors: "cross-tenant is 404, never 403".
        // The 403 of Authentication rule 3 reads for another partner's session bound by clientSecret (Embed).
        const read = await other.client.get(sessionPath(session.id));
        // Not readable at all is this endpoint's rule; the 404 rather than 403 is the Errors table's.
        t.expect.that(read.status >= 400 && read.status < 500, "another partner's retrieve of the session is refused", {
          requirement: R,
          actual: read.status,
          exchange: read,
        });
        expectGateError(t, read, 404, 'GATE-ERR-CROSS-TENANT-404');
        expectGateError(t, await other.client.post(sessionPath(session.id, '/cancel'), undefined, { retry: false }), 404, R);
        const still = t.expect.schema(t.expect.status(await owner.client.get(sessionPath(session.id)), 200, R), GateSession, R);
        t.expect.equal(still.status, 'open', "the other partner's cancel changed nothing", { requirement: R });
      },
    }),
    check({
      name: "another partner's session list never shows the partner's session",
      requirements: ['GATE-SESS-LIST-TENANT'],
      needs: ['gatePartner', 'gateOtherTenant'],
      async run({ gatePartner: owner, gateOtherTenant: other }, t: CheckTools) {
        const R = 'GATE-SESS-LIST-TENANT';
        const { session } = await createSession(t, owner, R);
        await expectNeverListed(t, other, '/gate_sessions', session.id, R, `the session ${session.id} of another partner`);
      },
    }),
    check({
      name: 'cancel moves an open session to cancelled; cancel of a cancelled session gives 409 and changes nothing',
      requirements: ['GATE-SESS-CANCEL', 'GATE-SESS-CANCEL-TERMINAL-409'],
      needs: ['gatePartner'],
      async run({ gatePartner: actor }, t: CheckTools) {
        const { session } = await createSession(t, actor, 'GATE-SESS-CANCEL');
        // The cancel response is not shown: any 2xx; the effect is judged through a read.
        expect2xx(t, await actor.client.post(sessionPath(session.id, '/cancel'), undefined, { retry: false }), 'GATE-SESS-CANCEL');
        const read = t.expect.schema(
          t.expect.status(await actor.client.get(sessionPath(session.id)), 200, 'GATE-SESS-CANCEL'),
          GateSession,
          'GATE-SESS-CANCEL',
        );
        t.expect.equal(read.status, 'cancelled', 'cancel moves the session to cancelled', { requirement: 'GATE-SESS-CANCEL' });
        expectGateError(t, await actor.client.post(sessionPath(session.id, '/cancel'), undefined, { retry: false }), 409, 'GATE-SESS-CANCEL-TERMINAL-409');
        const after = t.expect.schema(
          t.expect.status(await actor.client.get(sessionPath(session.id)), 200, 'GATE-SESS-CANCEL-TERMINAL-409'),
          GateSession,
          'GATE-SESS-CANCEL-TERMINAL-409',
        );
        t.expect.equal(after.status, 'cancelled', 'a refused cancel leaves the session cancelled', { requirement: 'GATE-SESS-CANCEL-TERMINAL-409' });
        t.offer(terminalSession('cancelled', actor), { ...session, status: after.status });
        t.offer(sessionForEvents('cancelled', actor), { ...session, status: after.status });
      },
    }),
    check({
      name: 'a succeeded linked buy completes the session; cancel of the completed session gives 409 and changes nothing',
      requirements: ['GATE-SESS-COMPLETE', 'GATE-SESS-CANCEL-TERMINAL-409'],
      needs: ['gatePartner', 'gateCompleteSession'],
      async run({ gatePartner: actor, gateCompleteSession: complete }, t: CheckTools) {
        const done = (await createSession(t, actor, 'GATE-SESS-COMPLETE')).session;
        await complete(done.id, actor);
        const read = t.expect.schema(
          t.expect.status(await actor.client.get(sessionPath(done.id)), 200, 'GATE-SESS-COMPLETE'),
          GateSession,
          'GATE-SESS-COMPLETE',
        );
        t.expect.equal(read.status, 'completed', 'a succeeded linked buy completes the session', { requirement: 'GATE-SESS-COMPLETE' });
        expectGateError(t, await actor.client.post(sessionPath(done.id, '/cancel'), undefined, { retry: false }), 409, 'GATE-SESS-CANCEL-TERMINAL-409');
        const after = t.expect.schema(
          t.expect.status(await actor.client.get(sessionPath(done.id)), 200, 'GATE-SESS-CANCEL-TERMINAL-409'),
          GateSession,
          'GATE-SESS-CANCEL-TERMINAL-409',
        );
        t.expect.equal(after.status, 'completed', 'a refused cancel leaves the session completed', { requirement: 'GATE-SESS-CANCEL-TERMINAL-409' });
        t.offer(terminalSession('completed', actor), { ...done, status: after.status });
        t.offer(sessionForEvents('completed', actor), { ...done, status: after.status });
      },
    }),
    check({
      name: 'before expires_at a bootstrap leaves the session open; past it retrieve still reads open, an embed bootstrap expires it, and cancel then gives 409',
      requirements: ['GATE-SESS-RETRIEVE-NO-STATUS-CHANGE', 'GATE-SESS-EXPIRE-ON-BOOTSTRAP', 'GATE-SESS-CANCEL-TERMINAL-409'],
      needs: ['gateEmbed', 'gateExpireSession'],
      async run({ gateEmbed: actor, gateExpireSession: expire }, t: CheckTools) {
        const created = await createSession(t, actor, 'GATE-SESS-RETRIEVE-NO-STATUS-CHANGE');
        const { session } = created;
        // Before expires_at a bootstrap leaves it open (a target ending sessions on a timer of its own fails here).
        await expectOpenBeforeExpiresAt(t, actor, created);
        // The behaviour judged needs expires_at in the past; if the way to expire it did not get there, nothing is judged.
        const read = await readPastExpiry(t, actor, expire, session, 'GATE-SESS-RETRIEVE-NO-STATUS-CHANGE');
        // "First read past expiry": which reads notice it is not shown beyond the bootstrap (a list is a read too), and
        // another check may have listed this partner's sessions meanwhile. A session read expired is tried once more, on
        // a fresh session read at once: a retrieve that expires sessions reads expired twice.
        const judged =
          read.status === 'open'
            ? read
            : await readPastExpiry(
                t,
                actor,
                expire,
                (await createSession(t, actor, 'GATE-SESS-RETRIEVE-NO-STATUS-CHANGE')).session,
                'GATE-SESS-RETRIEVE-NO-STATUS-CHANGE',
              );
        if (judged !== read)
          t.observe('gate-session-expired-before-retrieve', { first: read.status, again: judged.status }, 'which reads notice an expiry is not shown');
        t.expect.equal(judged.status, 'open', 'retrieve past expires_at still reads open', { requirement: 'GATE-SESS-RETRIEVE-NO-STATUS-CHANGE' });

        const boot = await bootstrap(actor, { origin: actor.origin }, { clientSecret: session.client_secret });
        t.observe('gate-bootstrap-past-expiry-status', boot.status, 'the bootstrap response past expiry is not shown');
        const after = t.expect.schema(
          t.expect.status(await actor.client.get(sessionPath(session.id)), 200, 'GATE-SESS-EXPIRE-ON-BOOTSTRAP'),
          GateSession,
          'GATE-SESS-EXPIRE-ON-BOOTSTRAP',
        );
        t.expect.equal(after.status, 'expired', 'a bootstrap past expires_at expires the session', { requirement: 'GATE-SESS-EXPIRE-ON-BOOTSTRAP' });
        expectGateError(t, await actor.client.post(sessionPath(session.id, '/cancel'), undefined, { retry: false }), 409, 'GATE-SESS-CANCEL-TERMINAL-409');
        // Its first bootstrap past expires_at is the one gate_session.expired is about.
        t.offer(sessionForEvents('expired', actor), { ...session, status: after.status });
      },
    }),
    check({
      name: 'a terminal session stays terminal: a cancelled and a completed session, bootstrapped past expires_at, keep their status; a succeeded linked buy leaves a cancelled and an expired session as they are',
      requirements: ['GATE-SESS-TERMINAL-STAYS'],
      // Runs late: the cancel and completion checks leave their terminal sessions for it, so it makes none of its own.
      late: true,
      async run({ gateEmbed: actor, gateExpireSession: expire, gateCompleteSession: complete }, t: CheckTools) {
        const R = 'GATE-SESS-TERMINAL-STAYS';
        await t.earlierChecksDone();
        const cancelled = t.take<CreatedSession>(terminalSession('cancelled', actor)) ?? (await createSession(t, actor, R)).session;
        if (cancelled.status === 'open')
          expect2xx(t, await actor.client.post(sessionPath(cancelled.id, '/cancel'), undefined, { retry: false }), R, 'cancel (making the session terminal)');
        const completed = t.take<CreatedSession>(terminalSession('completed', actor)) ?? (await createSession(t, actor, R)).session;
        if (completed.status === 'open') await complete(completed.id, actor);
        for (const [s, status] of [
          [cancelled, 'cancelled'],
          [completed, 'completed'],
        ] as const) {
          const before = await readPastExpiry(t, actor, expire, s, R);
          t.expect.equal(before.status, status, `the ${status} session reads ${status} past expires_at`, { requirement: R });
          // The bootstrap past expiry that expires an open session: a terminal one is not open, so nothing moves it.
          const boot = await bootstrap(actor, { origin: actor.origin }, { clientSecret: s.client_secret });
          t.observe('gate-bootstrap-terminal-session-status', { status, answered: boot.status }, 'the bootstrap answer for a terminal session is not shown');
          const after = t.expect.schema(t.expect.status(await actor.client.get(sessionPath(s.id)), 200, R), GateSession, R);
          t.expect.equal(after.status, status, `a bootstrap past expires_at leaves a ${status} session ${status} (terminal)`, { requirement: R });
        }
        // A succeeded linked buy completes an open session only: on the cancelled one, then on one expired here, nothing moves.
        await expectCompletionLeaves(t, actor, complete, cancelled.id, 'cancelled');
        const fresh = await createSession(t, actor, R);
        await readPastExpiry(t, actor, expire, fresh.session, R);
        await bootstrap(actor, { origin: actor.origin }, { clientSecret: fresh.session.client_secret });
        const expired = t.expect.schema(t.expect.status(await actor.client.get(sessionPath(fresh.session.id)), 200, R), GateSession, R);
        if (expired.status !== 'expired')
          t.unverified(
            `a session bootstrapped past expires_at read ${expired.status}, not expired (the expiry check judges that): no expired session to apply the completion to`,
          );
        await expectCompletionLeaves(t, actor, complete, fresh.session.id, 'expired');
      },
    }),
    check({
      name: 'list pagination: starting_after walks every page with no duplicate and no gap; has_more is true exactly when a next page has sessions',
      requirements: ['GATE-SESS-LIST-STARTING-AFTER', 'GATE-SESS-LIST-PAGINATION', 'GATE-SESS-LIST-ENVELOPE'],
      needs: ['gatePartner', 'gateKeyRoom'],
      // Runs last: the sessions other checks created on this partner fill the first page for free.
      late: true,
      async run({ gatePartner: actor, gateKeyRoom: room }, t: CheckTools) {
        // Sized as it goes, on what the list shows: late in a run the first page is usually full already, and
        // the walk is a few pages. Each step first asks for its own room in the key's hour window.
        const R = 'growing the list to a second page and walking it';
        requireKeyRoom(t, room, actor, 2, R);
        const mine = [(await createSession(t, actor, 'GATE-SESS-LIST-STARTING-AFTER')).session.id];
        const firstPage = async () =>
          t.expect.schema(
            t.expect.status(await actor.client.get('/gate_sessions'), 200, 'GATE-SESS-LIST-ENVELOPE'),
            GateSessionList,
            'GATE-SESS-LIST-ENVELOPE',
          );
        // A full first page is needed to see has_more true; the page size is not shown, so grow the list until the first page stops growing.
        let page = await firstPage();
        for (let i = 0; i < MAX_EXTRA_SESSIONS && !page.has_more; i++) {
          requireKeyRoom(t, room, actor, 2, R);
          const before = page.data.length;
          mine.push((await createSession(t, actor, 'GATE-SESS-LIST-PAGINATION')).session.id);
          page = await firstPage();
          t.expect.that(page.has_more || page.data.length > before, 'a first page that stopped growing after a new session says has_more', {
            requirement: 'GATE-SESS-LIST-PAGINATION',
            actual: { before, after: page.data.length, has_more: page.has_more },
          });
        }
        if (!page.has_more)
          t.unverified(
            `the first page holds ${page.data.length}+ sessions and has_more never became true within ${MAX_EXTRA_SESSIONS} extra sessions: a second page could not be reached`,
          );

        const seen: string[] = [];
        const read = async (cursor: string | undefined) =>
          t.expect.schema(
            t.expect.status(await actor.client.get('/gate_sessions', cursor ? { starting_after: cursor } : undefined), 200, 'GATE-SESS-LIST-STARTING-AFTER'),
            GateSessionList,
            'GATE-SESS-LIST-STARTING-AFTER',
          );
        let pageCursor: string | undefined;
        for (let n = 0; n < MAX_PAGES; n++) {
          seen.push(...page.data.map((s) => s.id));
          const last = page.data[page.data.length - 1];
          if (!last) break;
          requireKeyRoom(t, room, actor, 1, R);
          const next = await read(last.id);
          // The page after a cursor starts after it: nothing already walked comes back (judged before has_more, which a repeat would skew).
          const again = next.data.filter((x) => seen.includes(x.id)).map((x) => x.id);
          t.expect.equal(again, [], `the page after ${last.id} repeats no session already walked`, { requirement: 'GATE-SESS-LIST-STARTING-AFTER' });
          if (!page.has_more && next.data.length > 0) {
            // The list's order is not shown: one listed oldest first grows at its end, so a session made between the two
            // reads may follow the last page. The page read again says which: it grew (has_more now, or it holds what
            // followed it), or it still ends where the next page begins.
            requireKeyRoom(t, room, actor, 1, R);
            const reread = await read(pageCursor);
            const grew = reread.has_more || next.data.some((x) => reread.data.some((y) => y.id === x.id));
            t.observe('gate-session-list-grew-at-its-end', { after: last.id, grew }, "the list's order is not shown");
            t.expect.that(grew, `has_more of the page ending at ${last.id} says whether another page follows`, {
              requirement: 'GATE-SESS-LIST-PAGINATION',
              expected: 'has_more true on a page another page follows (read again: the list may have grown at its end meanwhile)',
              actual: `has_more false twice, and starting_after=${last.id} answered ${next.data.length} sessions the page read again does not hold`,
            });
            break;
          }
          t.expect.equal(page.has_more, next.data.length > 0, `has_more of the page ending at ${last.id} says whether another page follows`, {
            requirement: 'GATE-SESS-LIST-PAGINATION',
          });
          if (!page.has_more) break;
          pageCursor = last.id;
          page = next;
        }
        const dupes = seen.filter((id, i) => seen.indexOf(id) !== i);
        t.expect.equal(dupes, [], 'no session appears on two pages', { requirement: 'GATE-SESS-LIST-STARTING-AFTER' });
        const missing = mine.filter((id) => !seen.includes(id));
        t.expect.equal(missing, [], 'every session this check created appears in the walk', { requirement: 'GATE-SESS-LIST-STARTING-AFTER' });
      },
    }),
    check({
      name: "kyc_pre_verified: true with a KYC-trusted partner's package, false without a package",
      requirements: ['GATE-SESS-KYC-PRE-VERIFIED'],
      needs: ['gateKycTrusted'],
      async run({ gateKycTrusted: trusted }, t: CheckTools) {
        const R = 'GATE-SESS-KYC-PRE-VERIFIED';
        const accepted = await createSession(t, trusted, R, { kyc_package: trusted.kycPackage, user_reference: `rampart-${randomUUID()}` });
        t.expect.equal(accepted.session.kyc_pre_verified, true, "a trusted partner's package sets kyc_pre_verified", {
          requirement: R,
          exchange: accepted.exchange,
        });
        const plain = await createSession(t, trusted, R);
        t.expect.equal(plain.session.kyc_pre_verified, false, 'no package, no pre-verification', { requirement: R, exchange: plain.exchange });
      },
    }),
    check({
      name: "kyc_pre_verified: an untrusted partner's package is not accepted (false, or the create refused)",
      requirements: ['GATE-SESS-KYC-PRE-VERIFIED'],
      needs: ['gateKycUntrusted'],
      async run({ gateKycUntrusted: untrusted }, t: CheckTools) {
        const R = 'GATE-SESS-KYC-PRE-VERIFIED';
        const pkg = t.profile.gate.kycPackage ?? { rampart: 'kyc-package' };
        const ex = await untrusted.client.post('/gate_sessions', sessionBody(t, { kyc_package: pkg }), { idempotencyKey: true, retry: false });
        if (ex.status >= 200 && ex.status < 300) {
          t.expect.equal(ex.json?.kyc_pre_verified, false, "an untrusted partner's package is not accepted", { requirement: R, exchange: ex });
          t.observe('gate-kyc-untrusted', 'created, kyc_pre_verified false');
        } else {
          // Refusing the package outright is the other documented way of not accepting it.
          t.expect.that(ex.status >= 400 && ex.status < 500, "an untrusted partner's package is refused with a 4xx or ignored", {
            requirement: R,
            actual: ex.status,
            exchange: ex,
          });
          t.observe('gate-kyc-untrusted', `refused with ${ex.status}`);
        }
      },
    }),
  ],
});
