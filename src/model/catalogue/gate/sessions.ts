// Gate "Endpoints > Sessions", the GateSession resource and the session state
// table. Session events live in events.ts.
import type { Requirement } from '../types.js';

const s = (id: string, section: string, title: string, kind: Requirement['kind'], roles: Requirement['roles'] = ['gate.partner']): Requirement => ({
  id,
  service: 'gate',
  section,
  title,
  kind,
  roles,
  suite: 'conformance',
});

const EP = 'Endpoints > Sessions';
const RES = 'Resources and their fields > GateSession';
const ST = 'States and transitions > Session';

export const requirements: Requirement[] = [
  s('GATE-SESS-CREATE-SHAPE', RES, 'A created session is a GateSession: object gate_session, mode, amount, status open, expires_at, metadata object, kyc_pre_verified boolean', 'field'),
  s('GATE-SESS-CREATE-REQUIRED-FIELDS', EP, 'amount, currency and return_url are required: a create without one of them is refused with 400', 'error'),
  s('GATE-SESS-IDEMPOTENCY-KEY-REQUIRED', EP, 'POST /gate_sessions requires an Idempotency-Key (UUID): without one it is refused', 'idempotency'),
  s('GATE-SESS-IDEMPOTENT-REPLAY', EP, 'A repeat with the same Idempotency-Key and body returns the original response (same session, same client_secret)', 'idempotency'),
  s('GATE-SESS-IDEMPOTENCY-CONFLICT-409', EP, 'The same Idempotency-Key with a different request fingerprint is rejected with 409 conflict', 'idempotency'),
  s('GATE-SESS-CLIENT-SECRET-PREFIX', RES, 'The creation response carries client_secret with prefix gsec_', 'field'),
  s('GATE-SESS-CLIENT-SECRET-CREATE-ONLY', RES, 'client_secret appears only in the creation response: never on retrieve or in the list', 'field'),
  s('GATE-SESS-CURRENCY-UPPERCASE', RES, 'currency is the uppercased ISO 4217 code', 'field'),
  s('GATE-SESS-METADATA-VERBATIM', RES, 'metadata is returned verbatim', 'field'),
  s('GATE-SESS-RETRIEVE', EP, 'GET /gate_sessions/{id} returns the GateSession with 200', 'status'),
  s('GATE-SESS-CROSS-TENANT-404', EP, "Another partner's session id gives 404 on retrieve and cancel", 'auth', ['gate.partner', 'gate.secondPartner']),
  s('GATE-SESS-LIST-ENVELOPE', 'Resources and their fields > Conventions', 'GET /gate_sessions answers the list envelope: object list, data, has_more boolean, url string', 'pagination'),
  s('GATE-SESS-LIST-STARTING-AFTER', EP, 'starting_after continues the list after the named session: walking pages gives no duplicate and no gap', 'pagination'),
  s('GATE-SESS-LIST-PAGINATION', EP, 'has_more is true exactly when a further page (starting_after the last item) has sessions', 'pagination'),
  s('GATE-SESS-CANCEL', ST, 'POST cancel of an open session moves it to cancelled', 'transition'),
  s('GATE-SESS-CANCEL-TERMINAL-409', ST, 'POST cancel of a terminal session (cancelled, completed, expired) gives 409 conflict and leaves it unchanged', 'transition', ['gate.partner', 'gate.trigger.complete']),
  s('GATE-SESS-RETRIEVE-NO-STATUS-CHANGE', ST, 'Retrieve never changes status: an open session past expires_at still reads open', 'transition', ['gate.partner', 'gate.trigger.expire']),
  s('GATE-SESS-EXPIRE-ON-BOOTSTRAP', ST, 'An embed bootstrap past expires_at moves an open session to expired', 'transition', ['gate.publishableKey', 'gate.trigger.expire']),
  s('GATE-SESS-COMPLETE', ST, 'A succeeded linked buy or sell moves an open session to completed', 'transition', ['gate.partner', 'gate.trigger.complete']),
  s('GATE-SESS-KYC-PRE-VERIFIED', RES, 'kyc_pre_verified is true only when an accepted kyc_package was supplied at creation (a KYC-trusted partner), false otherwise', 'field', ['gate.kycTrusted']),
];
