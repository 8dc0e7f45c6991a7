// Gate "Errors" and "Authentication": the error envelope, the type of each
// status, and the credential rules a client can observe over HTTP.
// Left out on purpose:
// - Authentication rule 5 (account assertions): its header/transport is "not shown" (rule 6), so no request can carry one.
// - Rule 7 (alternative secret-key header): its name is "not shown".
// - Rule 8 (key rotation) is an operational procedure with no API surface in this spec.
// - A secret key on the publishable-key route and the allowed-origin rule belong to Embed (GATE-EMBED-*).
// - 429 rate_limited is GATE-RATE-429-ENVELOPE (limits.ts): only a load run reaches it.
// - Cross-tenant customer/transaction/pay-out reads and delivery replay already have ids
//   (GATE-CUST-FOREIGN-404, GATE-TXN-FOREIGN-404, GATE-RAIL-PAYOUT-FOREIGN-404, GATE-WHOPS-REPLAY-FOREIGN-404).
import type { Requirement } from '../types.js';

const r = (id: string, section: string, title: string, kind: Requirement['kind'], roles: Requirement['roles']): Requirement => ({
  id,
  service: 'gate',
  section,
  title,
  kind,
  roles,
  suite: 'conformance',
});

const ERR = 'Errors';
const AUTH = 'Authentication';

export const requirements: Requirement[] = [
  r('GATE-ERR-ENVELOPE', ERR, 'every error carries the envelope: type, code, message and request_id strings, doc_url string or null, statusCode mirroring the HTTP status; request_id differs per request', 'envelope', ['gate.partner']),
  r('GATE-ERR-REQUEST-ID-HEADER', ERR, 'an error response carries header X-Request-Id equal to the envelope request_id', 'envelope', ['gate.partner']),
  r('GATE-ERR-CODE-FALLBACK', ERR, 'code is a stable machine code and falls back to type (never empty)', 'envelope', ['gate.partner']),
  r('GATE-ERR-VALIDATION-JOINED', ERR, 'message of a validation error joins the validation errors with "; "', 'envelope', ['gate.partner']),
  r('GATE-ERR-400-INVALID-REQUEST', ERR, '400 has type invalid_request (missing or malformed field, unknown key where strict)', 'error', ['gate.partner']),
  r('GATE-ERR-401-UNAUTHORIZED', ERR, '401 has type unauthorized (missing or invalid credential)', 'error', ['gate.partner']),
  r('GATE-ERR-403-FORBIDDEN', ERR, '403 has type forbidden (revoked key, mode mismatch)', 'error', ['gate.revokedKey']),
  r('GATE-ERR-404-NOT-FOUND', ERR, '404 has type not_found for a missing resource', 'error', ['gate.partner']),
  r('GATE-ERR-409-CONFLICT', ERR, '409 has type conflict (duplicate customer email)', 'error', ['gate.partner']),
  r('GATE-ERR-5XX-SCRUBBED', ERR, '5xx has type server_error and its message is scrubbed to a generic internal error text', 'error', ['gate.partner']),
  r('GATE-ERR-CROSS-TENANT-404', ERR, "a session of another partner is 404 not_found, never 403, on read and on cancel (which leaves it open)", 'auth', ['gate.partner', 'gate.secondPartner']),
  r('GATE-AUTH-MISSING-401', AUTH, 'a request without credentials gives 401 unauthorized', 'auth', ['gate.partner']),
  r('GATE-AUTH-MALFORMED-401', AUTH, 'a malformed Authorization header or an unknown key gives 401 unauthorized', 'auth', ['gate.partner']),
  r('GATE-AUTH-REVOKED-403', AUTH, 'a revoked secret key gives 403 forbidden', 'auth', ['gate.revokedKey']),
  r('GATE-AUTH-MODE-MISMATCH-403', AUTH, 'key mode must match the environment: a test key on production, or a live key on sandbox, gives 403 forbidden', 'auth', ['gate.liveKey', 'gate.production']),
  r('GATE-AUTH-PK-SECRET-ROUTE', AUTH, 'a publishable key is for POST /embed/bootstrap only: it cannot list or create sessions (refused 401 or 403)', 'auth', ['gate.publishableKey']),
  r('GATE-AUTH-CROSS-TENANT-QUOTE', AUTH, "GET /quotes/{id} of another partner's signed quote gives 404 not_found", 'auth', ['gate.rails', 'gate.secondPartner']),
  r('GATE-AUTH-CROSS-TENANT-DELIVERY', AUTH, "GET /webhooks/deliveries never lists another partner's delivery", 'auth', ['gate.webhooks', 'gate.secondPartner']),
  r('GATE-AUTH-CROSS-TENANT-CUSTOMER-WRITE', AUTH, "PATCH and DELETE /customers/{id} of another partner's customer give 404 and leave it unchanged", 'auth', ['gate.partner', 'gate.secondPartner']),
];
