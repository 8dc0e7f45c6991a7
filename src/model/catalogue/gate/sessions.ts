// Gate "Endpoints > Sessions", the GateSession resource and the session state
// table. Session events live in events.ts.
import { defineArea } from '../define.js';

const area = defineArea({
  service: 'gate',
  section: 'Endpoints > Sessions',
  entries: {
    'GATE-SESS-CREATE-SHAPE': {
      title: 'A created session is a GateSession: object gate_session, mode, amount, status open, expires_at, metadata object, kyc_pre_verified boolean',
      kind: 'field',
      section: 'Resources and their fields > GateSession',
      anchor: [
        'A partner server creates a hosted session.',
        'Money amounts are decimal strings.',
        'Timestamps are ISO 8601 / RFC 3339 strings',
        'Single-object responses carry an `object` discriminator string.',
        '| id | string | session id |',
        '| object | string | `gate_session` |',
        '| status | string | `open`, `completed`, `expired`, `cancelled` |',
        '| expires_at | string | ISO 8601 |',
        '| created_at | string or null | ISO 8601 |',
        'Response: GateSession plus `client_secret`.',
      ],
    },
    'GATE-SESS-CREATE-REQUIRED-FIELDS': {
      title: 'amount, currency and return_url are required: a create without one of them is refused with 400',
      kind: 'error',
      anchor: '`return_url` are present in every example and are required',
    },
    'GATE-SESS-CREATE-MALFORMED-400': {
      title:
        'a malformed field gives 400 invalid_request: amount that is no decimal string (a JSON number, "abc", "1,00"), metadata that is no object (a string)',
      kind: 'error',
      anchor: ['Body: `amount` (decimal string), `currency` (ISO 4217)', '`user_reference`, `metadata` (object), `kyc_package` optional'],
    },
    'GATE-SESS-UNSENT-TERMS-NULL': {
      title:
        'an optional term the partner did not send (cancel_url, target_token, target_network, wallet_address, user_reference) reads back null; flow reads back null or its one documented value (on_ramp), which is observed',
      kind: 'field',
      section: 'Resources and their fields > GateSession',
      anchor: [
        '| cancel_url | string or null | cancel redirect |',
        '| flow | string or null | locked flow |',
        '| target_token | string or null | token constraint |',
        '| target_network | string or null | network constraint |',
        '| wallet_address | string or null | pre-filled wallet |',
        '| user_reference | string or null | opaque partner correlation id |',
      ],
    },
    'GATE-SESS-IDEMPOTENCY-KEY-UUID': {
      title: 'the Idempotency-Key of POST /gate_sessions is a UUID: a key that is not one is refused with 400 invalid_request',
      kind: 'idempotency',
      anchor: '| POST | /gate_sessions | SK + `Idempotency-Key` (UUID) |',
    },
    'GATE-SESS-TERMINAL-STAYS': {
      title:
        'a terminal session stays terminal: a cancelled or completed session bootstrapped past expires_at keeps its status (never expired), and a succeeded linked buy leaves a cancelled or expired session as it is (never completed)',
      kind: 'transition',
      section: 'States and transitions > Session',
      anchor: [
        '`completed`, `expired`, `cancelled` are terminal.',
        '| open | embed bootstrap | now is past `expires_at` | expired |',
        '| open | a buy or sell linked to the session succeeds | at least one intent succeeded | completed |',
      ],
      needs: ['gateEmbed', 'gateExpireSession', 'gateCompleteSession'],
    },
    'GATE-SESS-IDEMPOTENCY-KEY-REQUIRED': {
      title: 'POST /gate_sessions requires an Idempotency-Key (UUID): without one it is refused',
      kind: 'idempotency',
      anchor: '| POST | /gate_sessions | SK + `Idempotency-Key` (UUID) |',
    },
    'GATE-SESS-IDEMPOTENT-REPLAY': {
      title: 'A repeat with the same Idempotency-Key and body returns the original response (same session, same client_secret)',
      kind: 'idempotency',
      anchor: 'Idempotency: a repeat with the same key and body returns the original response.',
    },
    'GATE-SESS-IDEMPOTENCY-CONFLICT-409': {
      title: 'The same Idempotency-Key with a different request fingerprint is rejected with 409 conflict',
      kind: 'idempotency',
      anchor: ['The same key with a different request fingerprint is rejected with a conflict.', 'idempotency fingerprint mismatch'],
    },
    'GATE-SESS-CLIENT-SECRET-PREFIX': {
      title: 'The creation response carries client_secret with prefix gsec_',
      kind: 'field',
      section: 'Resources and their fields > GateSession',
      anchor: ['`client_secret` (prefix `gsec_`) appears only in the creation response', '| client_secret | prefix `gsec_` |'],
    },
    'GATE-SESS-CLIENT-SECRET-CREATE-ONLY': {
      title: 'client_secret appears only in the creation response: never on retrieve or in the list',
      kind: 'field',
      section: 'Resources and their fields > GateSession',
      anchor: [
        'appears only in the creation response and is never returned by retrieve',
        'The browser receives a one-time `client_secret`',
        'GateSession without `client_secret`',
      ],
    },
    'GATE-SESS-CURRENCY-UPPERCASE': {
      title: 'currency is the uppercased ISO 4217 code',
      kind: 'field',
      section: 'Resources and their fields > GateSession',
      anchor: '| currency | string | uppercased ISO 4217 |',
    },
    'GATE-SESS-METADATA-VERBATIM': {
      title: 'metadata is returned verbatim',
      kind: 'field',
      section: 'Resources and their fields > GateSession',
      anchor: '| metadata | object | returned verbatim |',
    },
    'GATE-SESS-ECHO-TERMS': {
      title:
        'The session binds the terms the partner sent: amount (the same decimal), return_url, cancel_url, flow, target_token, target_network, wallet_address and user_reference, each the request carried, read back as sent on create and on retrieve',
      kind: 'field',
      section: 'Resources and their fields > GateSession',
      anchor: [
        'The session fixes amount, currency and flow constraints on the server.',
        '| amount | string | bound amount, decimal |',
        '| return_url | string | success redirect |',
        '| cancel_url | string or null | cancel redirect |',
        '| flow | string or null | locked flow |',
        '| target_token | string or null | token constraint |',
        '| target_network | string or null | network constraint |',
        '| wallet_address | string or null | pre-filled wallet |',
        '| user_reference | string or null | opaque partner correlation id |',
      ],
    },
    'GATE-SESS-MODE-OF-KEY': {
      title: "A session's mode is the environment of the key that created it: test for a sandbox (test) key, live for a live key on the production base",
      kind: 'field',
      section: 'Resources and their fields > GateSession',
      anchor: '| mode | string | `test` or `live` |',
    },
    'GATE-SESS-RETRIEVE': {
      title: 'GET /gate_sessions/{id} returns the GateSession with 200',
      kind: 'status',
      anchor: '| GET | /gate_sessions/{id} | SK | GateSession without `client_secret`. 200. |',
    },
    'GATE-SESS-CROSS-TENANT-404': {
      title: "Another partner's session id gives 404 on retrieve and cancel",
      kind: 'auth',
      anchor: ['Partner-scoped ids of another partner return 404.', 'A resource of another partner is reported as 404.'],
    },
    'GATE-SESS-LIST-ENVELOPE': {
      title: 'GET /gate_sessions answers the list envelope: object list, data, has_more boolean, url string',
      kind: 'pagination',
      section: 'Resources and their fields > Conventions',
      anchor: ['List envelope: `object` = `list`, `data` (array), `has_more` (boolean), `url` (string, path of the list).', 'Response: list of GateSession.'],
    },
    'GATE-SESS-LIST-STARTING-AFTER': {
      title: 'starting_after continues the list after the named session: walking pages gives no duplicate and no gap',
      kind: 'pagination',
      anchor: 'Query: `starting_after` (cursor).',
    },
    'GATE-SESS-LIST-PAGINATION': {
      title: 'has_more is true exactly when a further page (starting_after the last item) has sessions',
      kind: 'pagination',
      anchor: 'Query: `starting_after` (cursor).',
    },
    'GATE-SESS-LIST-TENANT': {
      title: "GET /gate_sessions never lists another partner's session",
      kind: 'auth',
      section: 'What the service does',
      anchor: 'Every resource is scoped to the partner and the environment (test or live) of the credential.',
    },
    'GATE-SESS-CANCEL': {
      title: 'POST cancel of an open session moves it to cancelled',
      kind: 'transition',
      section: 'States and transitions > Session',
      anchor: ['| open | POST cancel | session is open | cancelled |', 'Cancels an open session'],
    },
    'GATE-SESS-CANCEL-TERMINAL-409': {
      title: 'POST cancel of a terminal session (cancelled, completed, expired) gives 409 conflict and leaves it unchanged',
      kind: 'transition',
      section: 'States and transitions > Session',
      anchor: [
        '| cancelled, completed, expired | POST cancel | session is terminal | unchanged | 409 conflict |',
        '`completed`, `expired`, `cancelled` are terminal.',
        '409 if already terminal',
        'cancelling a terminal session',
      ],
    },
    'GATE-SESS-RETRIEVE-NO-STATUS-CHANGE': {
      title: 'Retrieve never changes status: an open session past expires_at still reads open',
      kind: 'transition',
      section: 'States and transitions > Session',
      anchor: 'Retrieve never changes status; an open session past `expires_at` still reads as `open` there.',
    },
    'GATE-SESS-EXPIRE-ON-BOOTSTRAP': {
      title:
        "An embed bootstrap past expires_at moves an open session to expired, and only past it: before expires_at (on the target's clock) a bootstrap leaves it open",
      kind: 'transition',
      section: 'States and transitions > Session',
      anchor: '| open | embed bootstrap | now is past `expires_at` | expired |',
    },
    'GATE-SESS-COMPLETE': {
      title: 'A succeeded linked buy or sell moves an open session to completed',
      kind: 'transition',
      section: 'States and transitions > Session',
      anchor: '| open | a buy or sell linked to the session succeeds | at least one intent succeeded | completed |',
    },
    'GATE-SESS-KYC-PRE-VERIFIED': {
      title: 'kyc_pre_verified is true only when an accepted kyc_package was supplied at creation (a KYC-trusted partner), false otherwise',
      kind: 'field',
      section: 'Resources and their fields > GateSession',
      anchor: '| kyc_pre_verified | boolean | true only when an accepted kyc_package was supplied at creation |',
    },
  },
});

export default area;

declare module '../define.js' {
  interface CatalogueAreas {
    'gate/sessions': typeof area.entries;
  }
}
