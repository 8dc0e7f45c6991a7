// Gate sessions: create (Idempotency-Key), list, retrieve, cancel, and the
// session events. Retrieve never changes status; expiry happens only on embed
// bootstrap (see embed.ts, expireOnRead).
//
// Not shown — chosen (also in README.md):
// - POST /gate_sessions answers 201. Idempotency-Key must be a UUID (400 otherwise: the spec's "(UUID)").
// - Only what the spec states is checked, never a limit it does not state: amount a decimal string,
//   currency an ISO 4217 alphabetic code (either case; stored uppercased), return_url and cancel_url absolute
//   URIs, flow and the optional strings any string, metadata an object, kyc_package any value. Keys the spec
//   does not name are ignored (what the service does with them is not shown).
// - kyc_package from a partner that is not KYC-trusted is ignored (kyc_pre_verified false), not an error.
// - List: `limit` 1–100, default 10; a starting_after that names no session of the caller yields an empty page.
import { randomBytes } from 'node:crypto';
import { choiceOf } from '../kit/dialect.js';
import { HttpError, jsonObject, type Req } from '../kit/http.js';
import { listBounds, listOrdered } from './lists.js';
import { listedStatus, listedView, noteTerminal, readCache, readView } from './sessionReadCopies.js';
import type { GateArea, GateCaller, GateWorld, SessionRecord } from './world.js';
import { SESSION_FAULTS } from './sessionFaults.js';
import { noteSessionCancelled, noteSessionKey, sessionKeyScope } from './blindSessionCopies.js';

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** The spec's decimal string (src/model/schemas/common.ts Decimal). */
const DECIMAL_RE = /^-?\d+(\.\d+)?$/;
const CURRENCY_RE = /^[A-Za-z]{3}$/;
const OPTIONAL_STRINGS = ['flow', 'target_token', 'target_network', 'wallet_address', 'user_reference'] as const;

function isAbsoluteUri(v: string): boolean {
  try {
    new URL(v);
    return true;
  } catch {
    return false;
  }
}

/** Emit gate_session.expired the first time an open session is read past expires_at (embed bootstrap). */
export function expireOnRead(world: GateWorld, caller: GateCaller, s: SessionRecord): void {
  // The repeat fault fires again on every later read of an expired session.
  const repeat = world.faults.has('sess-expired-event-repeats') && s.status === 'expired';
  // Fault: a cancelled or completed session past expires_at is expired too, as if it were open.
  const expirable = s.status === 'open' || (world.faults.has('sess-bootstrap-expires-terminal') && s.status !== 'expired');
  // Fault: the session really ends 5 s after creation, whatever its expires_at says (and no Date header shows the clock).
  const endsAtMs = world.faults.has('sess-ends-early-no-date') ? Math.min(s.expiresAtMs, s.createdAtMs + 5_000) : s.expiresAtMs;
  if (!repeat && (!expirable || world.clock.now() <= endsAtMs)) return;
  s.status = 'expired';
  if (!s.expiredEventSent || world.faults.has('sess-expired-event-repeats')) {
    s.expiredEventSent = true;
    world.emit(caller, 'gate_session.expired', world.sessionView(s));
  }
}

/** Readings of what a creation takes: the flow values (gate.session.flowValues) and the kyc_package's shape (gate.session.kycPackage). */
function validateReadings(body: Record<string, unknown>, world: GateWorld, errs: string[]): void {
  const { flow, kyc_package } = body;
  if (choiceOf(world.profile, 'gate.session.flowValues') === 'ramp-sides' && typeof flow === 'string' && flow !== 'on_ramp' && flow !== 'off_ramp')
    errs.push('flow must be on_ramp or off_ramp');
  const notObject = kyc_package !== undefined && (kyc_package === null || typeof kyc_package !== 'object' || Array.isArray(kyc_package));
  if (choiceOf(world.profile, 'gate.session.kycPackage') === 'object-only' && notObject) errs.push('kyc_package must be an object');
}

function validateCreate(body: Record<string, unknown>, world: GateWorld): string[] {
  const errs: string[] = [];
  const { amount, currency, return_url, cancel_url, metadata } = body;
  if (amount === undefined) errs.push('amount is required');
  else if (typeof amount === 'number' && world.faults.has('sess-amount-number-accepted')) body.amount = String(amount);
  else if (typeof amount !== 'string' || (!DECIMAL_RE.test(amount) && !world.faults.has('sess-amount-any-string')))
    errs.push('amount must be a decimal string');
  if (currency === undefined) errs.push('currency is required');
  else if (typeof currency !== 'string' || !CURRENCY_RE.test(currency)) errs.push('currency must be an ISO 4217 code');
  if (return_url === undefined) {
    if (!world.faults.has('sess-return-url-optional')) errs.push('return_url is required');
  } else if (typeof return_url !== 'string' || !isAbsoluteUri(return_url)) errs.push('return_url must be an absolute URI');
  if (cancel_url !== undefined && cancel_url !== null && (typeof cancel_url !== 'string' || !isAbsoluteUri(cancel_url))) {
    errs.push('cancel_url must be an absolute URI or null');
  }
  for (const k of OPTIONAL_STRINGS) {
    const v = body[k];
    if (v !== undefined && v !== null && typeof v !== 'string') errs.push(`${k} must be a string`);
  }
  const notObject = metadata !== undefined && (metadata === null || typeof metadata !== 'object' || Array.isArray(metadata));
  if (notObject && world.faults.has('sess-metadata-string-accepted') && typeof metadata === 'string') delete body.metadata;
  else if (notObject) errs.push('metadata must be an object');
  validateReadings(body, world, errs);
  return errs;
}

function createSession(world: GateWorld, caller: GateCaller, body: Record<string, unknown>): { record: SessionRecord; kycAccepted: boolean } {
  const now = world.moment();
  const lifetimeS = world.profile.reference?.sessionLifetimeSeconds ?? 1800;
  const kycGiven = body.kyc_package !== undefined;
  // Faults: an untrusted partner's package is accepted; a trusted partner's is ignored.
  const kycAccepted =
    kycGiven && !world.faults.has('sess-kyc-trusted-ignored') && (caller.partner.kycTrusted === true || world.faults.has('sess-kyc-untrusted-accepted'));
  const currency = body.currency as string;
  // Fault: an optional term the partner did not send reads back "" instead of null.
  const unsent = world.faults.has('sess-unsent-terms-empty-string') ? '' : null;
  const opt = (k: string) => (typeof body[k] === 'string' ? (body[k] as string) : unsent);
  const record: SessionRecord = {
    id: world.newId('gs'),
    partner: caller.partner.name,
    mode: caller.mode,
    status: 'open',
    expiresAtMs: now + lifetimeS * 1000,
    createdAtMs: now,
    amount: body.amount as string,
    currency: world.faults.has('sess-currency-not-uppercased') ? currency : currency.toUpperCase(),
    returnUrl: typeof body.return_url === 'string' ? body.return_url : '',
    // Fault: cancel_url is not kept (the session reads it back as null).
    cancelUrl: world.faults.has('sess-cancel-url-dropped') ? null : opt('cancel_url'),
    // Reading (reference.unsentFlow, which the open point gate.session.unsentFlow sets): a session created without flow is locked to on_ramp, the spec's one documented value.
    flow: body.flow === undefined && unsentFlowOnRamp(world) && unsent === null ? 'on_ramp' : opt('flow'),
    targetToken: opt('target_token'),
    targetNetwork: opt('target_network'),
    walletAddress: opt('wallet_address'),
    userReference: opt('user_reference'),
    metadata: (body.metadata as Record<string, unknown> | undefined) ?? {},
    kycPreVerified: kycAccepted,
    clientSecret: clientSecret(world),
    expiredEventSent: false,
    txRefid: null,
    seq: world.nextSeq(),
  };
  if (world.faults.has('sess-metadata-not-verbatim')) {
    record.metadata = Object.fromEntries(Object.entries(record.metadata).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]));
  }
  world.sessions.set(record.id, record);
  return { record, kycAccepted };
}

function unsentFlowOnRamp(world: GateWorld): boolean {
  return world.profile.reference?.unsentFlow === 'on_ramp';
}

/** A client_secret: gsec_ and 24 letters and digits (of an id), or 48 hex characters (gate.session.clientSecret). */
function clientSecret(world: GateWorld): string {
  if (choiceOf(world.profile, 'gate.session.clientSecret') === 'hex-48') return `gsec_${randomBytes(24).toString('hex')}`;
  return `gsec_${world.newId('x').slice(2)}`;
}

/** Query parameters GET /gate_sessions knows; another is refused where the world refuses what it does not know (gate.session.listFilters). */
const LIST_QUERY = new Set(['starting_after', 'limit']);

function ownSessions(world: GateWorld, caller: GateCaller): SessionRecord[] {
  const out: SessionRecord[] = [];
  // Fault: the list shows every partner's sessions of the environment.
  const anyPartner = world.faults.has('sess-list-all-partners');
  for (const s of world.sessions.values()) if ((anyPartner || s.partner === caller.partner.name) && s.mode === caller.mode) out.push(s);
  // Newest first; seq breaks ties within one millisecond.
  out.sort((a, b) => b.seq - a.seq);
  return out;
}

export const area: GateArea = {
  name: 'sessions',
  faults: SESSION_FAULTS,
  register(router, world) {
    router.on('POST', '/gate_sessions', async (req) => {
      const caller = world.authSecret(req);
      const key = req.headers['idempotency-key'];
      if (typeof key === 'string' && key.trim() !== '' && !UUID_RE.test(key.trim()) && !world.faults.has('sess-idempotency-key-not-uuid-accepted')) {
        throw new HttpError(400, 'Idempotency-Key must be a UUID.', 'idempotency_key_invalid');
      }
      const scope = sessionKeyScope(world, caller, req);
      const validate = () => {
        const body = jsonObject(req);
        const errs = validateCreate(body, world);
        if (errs.length) throw new HttpError(400, errs.join('; '), 'parameter_invalid');
        return body;
      };
      return world.idempotent(caller, req, scope, { required: true, validate }, () => {
        const body = validate();
        const { record, kycAccepted } = createSession(world, caller, body);
        noteSessionKey(world, caller, req, record);
        if (world.faults.has('seq-sess-list-status-stale')) listedStatus.set(record, 'open');
        world.settings(caller).sessionsCreated++;
        const view = world.sessionView(record);
        if (world.faults.has('sess-created-kyc-pre-verified-missing')) delete (view as Record<string, unknown>).kyc_pre_verified;
        if (!world.faults.has('sess-created-event-missing')) world.emit(caller, 'gate_session.created', view);
        if (kycAccepted && !world.faults.has('sess-kyc-accepted-event-missing')) {
          // Redacted record: correlation ids and a timestamp, never the package itself.
          world.emit(caller, 'gate_session.kyc_package_accepted', {
            gate_session_id: record.id,
            user_reference: record.userReference,
            accepted_at: world.iso(record.createdAtMs),
          });
        }
        const secret = world.faults.has('sess-client-secret-wrong-prefix') ? record.clientSecret.replace(/^gsec_/, 'cs_') : record.clientSecret;
        // Faults: a test key's session answers mode live; a live key's session answers mode test.
        const wrongMode = world.faults.has('sess-mode-live')
          ? 'live'
          : world.faults.has('sess-live-key-mode-test') && caller.mode === 'live'
            ? 'test'
            : undefined;
        return { status: 201, body: { ...view, ...(wrongMode ? { mode: wrongMode } : {}), client_secret: secret } };
      });
    });

    router.on('GET', '/gate_sessions', (req: Req) => {
      const caller = world.authSecret(req);
      if (choiceOf(world.profile, 'gate.session.listFilters') === 'unknown-refused')
        for (const k of req.query.keys()) if (!LIST_QUERY.has(k)) throw new HttpError(400, `unknown query parameter: ${k}`, 'parameter_unknown');
      const { max, def } = listBounds(world);
      const limitQ = req.query.get('limit');
      let limit = def;
      if (limitQ !== null) {
        if (!/^\d{1,3}$/.test(limitQ) || Number(limitQ) < 1 || Number(limitQ) > max) {
          throw new HttpError(400, `limit must be an integer between 1 and ${max}`, 'invalid_limit');
        }
        limit = Number(limitQ);
      }
      // Listed newest first, or oldest first where the world lists so (gate.lists.order).
      const all = listOrdered(world, ownSessions(world, caller));
      // Reading (gate.session.expiryNoticed 'list-too'): the list is a read, and it notices an open session past expires_at.
      if (choiceOf(world.profile, 'gate.session.expiryNoticed') === 'list-too')
        for (const s of all) if (s.partner === caller.partner.name) expireOnRead(world, caller, s);
      const after = req.query.get('starting_after');
      let start = 0;
      if (after !== null && after !== '') {
        const i = all.findIndex((s) => s.id === after);
        // A cursor that names no session of the caller: an empty page (the spec shows no cursor error).
        start = i < 0 ? all.length : world.faults.has('sess-list-cursor-inclusive') ? i : i + 1;
      }
      const page = all.slice(start, start + limit);
      const hasMore = !world.faults.has('sess-list-has-more-false') && all.length > start + limit;
      const envelope: Record<string, unknown> = { object: 'list', data: page.map((s) => listedView(world, s)), has_more: hasMore, url: '/v1/gate_sessions' };
      if (world.faults.has('sess-list-url-missing')) delete envelope.url;
      return { status: 200, body: envelope };
    });

    router.on('GET', '/gate_sessions/:id', (req) => {
      const caller = world.authSecret(req);
      let s = world.session(caller, req.params.id!);
      if (world.faults.has('sess-retrieve-other-session')) s = ownSessions(world, caller)[0] ?? s;
      if (world.faults.has('sess-retrieve-expires') && s.status === 'open' && world.clock.now() > s.expiresAtMs) s.status = 'expired';
      // Sequence fault: a read caches the session's view, and the cancel path (alone) forgets to drop it.
      if (world.faults.has('seq-sess-read-cache-survives-cancel')) {
        const cached = readCache.get(s);
        if (cached && (cached.status === s.status || s.status === 'cancelled')) return { status: 200, body: cached.view };
        readCache.set(s, { status: s.status, view: world.sessionView(s) });
      }
      const view = readView(world, s);
      return { status: 200, body: world.faults.has('sess-client-secret-on-retrieve') ? { ...view, client_secret: s.clientSecret } : view };
    });

    router.on('POST', '/gate_sessions/:id/cancel', (req) => {
      const caller = world.authSecret(req);
      const s = world.session(caller, req.params.id!);
      const cancellable = s.status === 'open' || (s.status === 'expired' && world.faults.has('sess-cancel-expired-allowed'));
      if (!cancellable) {
        if (world.faults.has('sess-cancel-terminal-200')) return { status: 200, body: world.sessionView(s) };
        throw new HttpError(409, `Session ${s.id} is ${s.status} and cannot be cancelled.`, 'session_terminal');
      }
      if (!world.faults.has('sess-cancel-noop')) s.status = 'cancelled';
      if (world.faults.has('seq-sess-list-status-stale')) listedStatus.set(s, s.status);
      noteTerminal(world, s);
      noteSessionCancelled(world, s);
      const view = world.sessionView(s);
      if (!world.faults.has('sess-cancelled-event-missing')) world.emit(caller, 'gate_session.cancelled', view);
      return { status: 200, body: view };
    });
  },
};
