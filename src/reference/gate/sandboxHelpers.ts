// Sandbox-only helpers for what only a real user or bank could cause: a linked
// buy/sell succeeding, entering processing or failing, a session's expiry
// passing, a session blocked pending KYC, a usage quota approached or
// exhausted, and a server-side failure (a 500 through the normal error path, so
// the scrubbing of 5xx messages can be judged). Reached by the harness only through the profile's triggers; they
// exist on the sandbox base only (404 on production) and need the partner's
// secret key.
import { choiceOf } from '../kit/dialect.js';
import { HttpError, type Req } from '../kit/http.js';
import { noteTerminal } from './sessionReadCopies.js';
import { expireOnRead } from './sessions.js';
import type { GateArea, GateCaller, GateWorld, SessionRecord } from './world.js';
import { RACE, raceGap } from './raceFaults.js';

function sandboxSession(world: GateWorld, req: Req): { caller: GateCaller; s: SessionRecord } {
  const caller = world.authSecret(req);
  if (caller.mode !== 'test') throw new HttpError(404, 'Sandbox helpers exist only on the sandbox base.', 'route_not_found');
  return { caller, s: world.session(caller, req.params.id!) };
}

function requireOpen(s: SessionRecord): void {
  if (s.status !== 'open') throw new HttpError(409, `Session ${s.id} is ${s.status}.`, 'session_terminal');
}

export const area: GateArea = {
  name: 'sandboxHelpers',
  faults: [
    {
      name: 'sess-completed-no-tx-refid',
      service: 'gate',
      requirements: ['GATE-EVT-SESSION-COMPLETED'],
      description: 'gate_session.completed is sent without tx_refid.',
      suite: 'conformance',
    },
    {
      name: 'sess-processing-event-missing',
      service: 'gate',
      requirements: ['GATE-EVT-SESSION-PROCESSING'],
      description: 'No gate_session.processing event when a linked buy enters processing.',
      suite: 'conformance',
    },
    {
      name: 'evt-kyc-required-no-user-reference',
      service: 'gate',
      requirements: ['GATE-EVT-KYC-REQUIRED'],
      description: "kyc.required data leaves out the session's user_reference.",
      suite: 'conformance',
    },
    {
      name: 'evt-quota-warning-not-counters',
      service: 'gate',
      requirements: ['GATE-EVT-QUOTA-WARNING'],
      description: 'partner.quota.warning carries a bare number as data instead of the usage counters.',
      suite: 'conformance',
    },
    {
      name: 'evt-quota-exhausted-no-counters',
      service: 'gate',
      requirements: ['GATE-EVT-QUOTA-EXHAUSTED'],
      description: 'partner.quota.exhausted carries an empty object as data (no usage counter).',
      suite: 'conformance',
    },
    {
      name: 'sess-failed-event-missing',
      service: 'gate',
      requirements: ['GATE-EVT-SESSION-FAILED'],
      description: 'No gate_session.failed event when a linked buy fails.',
      suite: 'conformance',
    },
    {
      name: 'evt-kyc-required-no-session-id',
      service: 'gate',
      requirements: ['GATE-EVT-KYC-REQUIRED'],
      description: 'kyc.required names the session under session_id instead of gate_session_id.',
      suite: 'conformance',
    },
    {
      name: 'sess-complete-terminal',
      service: 'gate',
      requirements: ['GATE-SESS-TERMINAL-STAYS'],
      description: 'A succeeded linked buy completes a cancelled or expired session too (the completion control does not check for a terminal state).',
      suite: 'conformance',
    },
  ],
  register(router, world) {
    const prefix = world.profile.reference?.helperPrefix ?? '/_sandbox';

    router.on('POST', `${prefix}/gate_sessions/:id/complete`, async (req) => {
      const { caller, s } = sandboxSession(world, req);
      // Reading (gate.session.lateCompletion 'expires'): a buy that succeeds past expires_at finds the session expired.
      if (choiceOf(world.profile, 'gate.session.lateCompletion') === 'expires' && s.status === 'open') expireOnRead(world, caller, s);
      // Fault: a cancelled or expired session is completed like an open one.
      if (!(world.faults.has('sess-complete-terminal') && (s.status === 'cancelled' || s.status === 'expired'))) requireOpen(s);
      // Race fault: the session was checked open; it is completed a round trip later, whatever happened in between.
      await raceGap(world.faults, RACE.sessionCompletion);
      const tx = world.newTransaction(s);
      if (!world.faults.has('sess-complete-noop')) s.status = 'completed';
      noteTerminal(world, s);
      s.txRefid = tx.refid;
      const view = world.sessionView(s);
      world.emit(caller, 'gate_session.completed', world.faults.has('sess-completed-no-tx-refid') ? view : { ...view, tx_refid: tx.refid });
      return { status: 200, body: { ...view, tx_refid: tx.refid } };
    });

    // Processing and failure have no session status of their own (spec: not shown): the session stays open.
    router.on('POST', `${prefix}/gate_sessions/:id/process`, (req) => {
      const { caller, s } = sandboxSession(world, req);
      requireOpen(s);
      const view = world.sessionView(s);
      if (!world.faults.has('sess-processing-event-missing')) world.emit(caller, 'gate_session.processing', view);
      return { status: 200, body: view };
    });

    router.on('POST', `${prefix}/gate_sessions/:id/fail`, (req) => {
      const { caller, s } = sandboxSession(world, req);
      requireOpen(s);
      // Reading (gate.session.failedStatus 'cancelled'): the session ends when its linked buy fails (no status is shown for it).
      if (choiceOf(world.profile, 'gate.session.failedStatus') === 'cancelled') {
        s.status = 'cancelled';
        noteTerminal(world, s);
      }
      const view = world.sessionView(s);
      if (!world.faults.has('sess-failed-event-missing')) world.emit(caller, 'gate_session.failed', view);
      return { status: 200, body: view };
    });

    // Blocks the session pending KYC: kyc.required with the session's correlation ids (the session stays open:
    // no status is shown for it).
    router.on('POST', `${prefix}/gate_sessions/:id/require_kyc`, (req) => {
      const { caller, s } = sandboxSession(world, req);
      requireOpen(s);
      const idKey = world.faults.has('evt-kyc-required-no-session-id') ? 'session_id' : 'gate_session_id';
      // Reading (gate.events.kycRequiredStatus): the kyc_status value is not shown.
      const kycStatus = choiceOf(world.profile, 'gate.events.kycRequiredStatus') === 'required' ? 'required' : 'pending';
      const data: Record<string, unknown> = { [idKey]: s.id, kyc_status: kycStatus, user_reference: s.userReference };
      if (world.faults.has('evt-kyc-required-no-user-reference')) delete data.user_reference;
      world.emit(caller, 'kyc.required', data);
      return { status: 200, body: world.sessionView(s) };
    });

    // Usage quotas (not shown in the spec): a warning at 80 % of the hourly request quota, exhaustion at 100 %.
    const quota = (type: 'partner.quota.warning' | 'partner.quota.exhausted', used: number) => (req: Req) => {
      const caller = world.authSecret(req);
      if (caller.mode !== 'test') throw new HttpError(404, 'Sandbox helpers exist only on the sandbox base.', 'route_not_found');
      // Reading (gate.events.quotaCounters): the counters' shape is not shown — flat, or nested under the quota.
      const counters =
        choiceOf(world.profile, 'gate.events.quotaCounters') === 'nested'
          ? { object: 'usage', quota: { name: 'requests_per_hour', window: { seconds: 3600 }, counters: { used, limit: 1000, remaining: 1000 - used } } }
          : { object: 'usage', quota: 'requests_per_hour', used, limit: 1000, window_seconds: 3600 };
      let data: unknown = counters;
      if (type === 'partner.quota.warning' && world.faults.has('evt-quota-warning-not-counters')) data = used;
      if (type === 'partner.quota.exhausted' && world.faults.has('evt-quota-exhausted-no-counters')) data = {};
      world.emitDelivery(caller, type, data);
      return { status: 200, body: counters };
    };
    router.on('POST', `${prefix}/quota/warning`, quota('partner.quota.warning', 800));
    router.on('POST', `${prefix}/quota/exhausted`, quota('partner.quota.exhausted', 1000));

    // An unexpected exception, answered by the pipeline like any other: 500 server_error, message scrubbed
    // (gate/errors.ts). The text is what a careless server would leak: an exception with internals.
    // Reading (reference.controlDialect 'own', the second world): the control arms the partner's next request
    // instead, and that request is the one that fails (world.authSecret).
    if (choiceOf(world.profile, 'gate.controls.serverError') === 'arms-next' || world.profile.reference?.controlDialect === 'own')
      router.on('POST', `${prefix}/fail_next`, (req) => {
        const caller = world.authSecret(req);
        if (caller.mode !== 'test') throw new HttpError(404, 'Sandbox helpers exist only on the sandbox base.', 'route_not_found');
        world.armedFailures.add(`${caller.partner.name}\u0000${caller.mode}`);
        return { status: 200, body: { armed: true, fails: 'the next request of this partner' } };
      });
    else
      router.on('POST', `${prefix}/server_error`, (req) => {
        const caller = world.authSecret(req);
        if (caller.mode !== 'test') throw new HttpError(404, 'Sandbox helpers exist only on the sandbox base.', 'route_not_found');
        const query = 'SELECT balance FROM ledger WHERE partner_id = $1';
        throw new TypeError(`Cannot read properties of undefined (reading 'balance') in ledger lookup for ${caller.partner.name}: ${query}`);
      });

    // Moves expires_at into the past without reading the session: status and events are unchanged.
    router.on('POST', `${prefix}/gate_sessions/:id/expire`, (req) => {
      const { s } = sandboxSession(world, req);
      const past = world.clock.now() - 1000;
      if (s.expiresAtMs > past) s.expiresAtMs = past;
      return { status: 200, body: world.sessionView(s) };
    });
  },
};
