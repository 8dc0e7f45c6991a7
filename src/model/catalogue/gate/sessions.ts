// Gate "Endpoints > Sessions", the GateSession resource and the session state
// table. Session events live in events.ts.
import { defineArea } from '../define.js';

const area = defineArea({
  service: 'gate',
  section: 'Endpoints > Sessions',
  entries: {
    'GATE-SESS-CREATE-SHAPE': { title: 'A created session is a GateSession: object gate_session, mode, amount, status open, expires_at, metadata object, kyc_pre_verified boolean', kind: 'field', section: 'Resources and their fields > GateSession' },
    'GATE-SESS-CREATE-REQUIRED-FIELDS': { title: 'amount, currency and return_url are required: a create without one of them is refused with 400', kind: 'error' },
    'GATE-SESS-IDEMPOTENCY-KEY-REQUIRED': { title: 'POST /gate_sessions requires an Idempotency-Key (UUID): without one it is refused', kind: 'idempotency' },
    'GATE-SESS-IDEMPOTENT-REPLAY': { title: 'A repeat with the same Idempotency-Key and body returns the original response (same session, same client_secret)', kind: 'idempotency' },
    'GATE-SESS-IDEMPOTENCY-CONFLICT-409': { title: 'The same Idempotency-Key with a different request fingerprint is rejected with 409 conflict', kind: 'idempotency' },
    'GATE-SESS-CLIENT-SECRET-PREFIX': { title: 'The creation response carries client_secret with prefix gsec_', kind: 'field', section: 'Resources and their fields > GateSession' },
    'GATE-SESS-CLIENT-SECRET-CREATE-ONLY': { title: 'client_secret appears only in the creation response: never on retrieve or in the list', kind: 'field', section: 'Resources and their fields > GateSession' },
    'GATE-SESS-CURRENCY-UPPERCASE': { title: 'currency is the uppercased ISO 4217 code', kind: 'field', section: 'Resources and their fields > GateSession' },
    'GATE-SESS-METADATA-VERBATIM': { title: 'metadata is returned verbatim', kind: 'field', section: 'Resources and their fields > GateSession' },
    'GATE-SESS-RETRIEVE': { title: 'GET /gate_sessions/{id} returns the GateSession with 200', kind: 'status' },
    'GATE-SESS-CROSS-TENANT-404': { title: 'Another partner\'s session id gives 404 on retrieve and cancel', kind: 'auth' },
    'GATE-SESS-LIST-ENVELOPE': { title: 'GET /gate_sessions answers the list envelope: object list, data, has_more boolean, url string', kind: 'pagination', section: 'Resources and their fields > Conventions' },
    'GATE-SESS-LIST-STARTING-AFTER': { title: 'starting_after continues the list after the named session: walking pages gives no duplicate and no gap', kind: 'pagination' },
    'GATE-SESS-LIST-PAGINATION': { title: 'has_more is true exactly when a further page (starting_after the last item) has sessions', kind: 'pagination' },
    'GATE-SESS-CANCEL': { title: 'POST cancel of an open session moves it to cancelled', kind: 'transition', section: 'States and transitions > Session' },
    'GATE-SESS-CANCEL-TERMINAL-409': { title: 'POST cancel of a terminal session (cancelled, completed, expired) gives 409 conflict and leaves it unchanged', kind: 'transition', section: 'States and transitions > Session' },
    'GATE-SESS-RETRIEVE-NO-STATUS-CHANGE': { title: 'Retrieve never changes status: an open session past expires_at still reads open', kind: 'transition', section: 'States and transitions > Session' },
    'GATE-SESS-EXPIRE-ON-BOOTSTRAP': { title: 'An embed bootstrap past expires_at moves an open session to expired', kind: 'transition', section: 'States and transitions > Session' },
    'GATE-SESS-COMPLETE': { title: 'A succeeded linked buy or sell moves an open session to completed', kind: 'transition', section: 'States and transitions > Session' },
    'GATE-SESS-KYC-PRE-VERIFIED': { title: 'kyc_pre_verified is true only when an accepted kyc_package was supplied at creation (a KYC-trusted partner), false otherwise', kind: 'field', section: 'Resources and their fields > GateSession' },
  },
});

export default area;

declare module '../define.js' {
  interface CatalogueAreas {
    'gate/sessions': typeof area.entries;
  }
}
