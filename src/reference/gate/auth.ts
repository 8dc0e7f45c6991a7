// Authentication and errors: the credential rules live in world.ts
// (authSecret/authPublishable) and the error envelope in server.ts; this area
// owns their seeded faults. It has no routes of its own.
import type { GateArea } from './world.js';

export const area: GateArea = {
  name: 'auth',
  faults: [
    { name: 'auth-revoked-key-accepted', service: 'gate', requirements: ['GATE-AUTH-REVOKED-403'], description: 'A revoked secret key is accepted.', suite: 'conformance' },
    { name: 'auth-mode-mismatch-accepted', service: 'gate', requirements: ['GATE-AUTH-MODE-MISMATCH-403'], description: 'A live key works on the sandbox base and a test key on production.', suite: 'conformance' },
    { name: 'auth-publishable-key-on-secret-route', service: 'gate', requirements: ['GATE-AUTH-PK-SECRET-ROUTE'], description: 'A publishable key is accepted on secret-key routes.', suite: 'conformance' },
    { name: 'auth-missing-credential-403', service: 'gate', requirements: ['GATE-AUTH-MISSING-401'], description: 'A request without credentials gives 403 instead of 401.', suite: 'conformance' },
    { name: 'auth-malformed-key-403', service: 'gate', requirements: ['GATE-AUTH-MALFORMED-401'], description: 'A malformed or unknown key gives 403 instead of 401.', suite: 'conformance' },
    { name: 'err-cross-tenant-403', service: 'gate', requirements: ['GATE-ERR-CROSS-TENANT-404'], description: "Another partner's session gives 403 instead of 404.", suite: 'conformance' },
    { name: 'err-request-id-header-mismatch', service: 'gate', requirements: ['GATE-ERR-REQUEST-ID-HEADER'], description: 'X-Request-Id on errors differs from the envelope request_id.', suite: 'conformance' },
    { name: 'err-code-empty', service: 'gate', requirements: ['GATE-ERR-CODE-FALLBACK'], description: 'Error envelopes carry code "" instead of a code (or the type).', suite: 'conformance' },
    { name: 'err-400-type-bad-request', service: 'gate', requirements: ['GATE-ERR-400-INVALID-REQUEST'], description: '400 answers carry type bad_request.', suite: 'conformance' },
    { name: 'err-401-type-forbidden', service: 'gate', requirements: ['GATE-ERR-401-UNAUTHORIZED'], description: '401 answers carry type forbidden.', suite: 'conformance' },
    { name: 'err-403-type-unauthorized', service: 'gate', requirements: ['GATE-ERR-403-FORBIDDEN'], description: '403 answers carry type unauthorized.', suite: 'conformance' },
    { name: 'err-404-type-missing', service: 'gate', requirements: ['GATE-ERR-404-NOT-FOUND'], description: '404 answers carry type missing.', suite: 'conformance' },
    { name: 'err-409-type-invalid', service: 'gate', requirements: ['GATE-ERR-409-CONFLICT'], description: '409 answers carry type invalid_request.', suite: 'conformance' },
    { name: 'err-5xx-leaks-stack', service: 'gate', requirements: ['GATE-ERR-5XX-SCRUBBED'], description: 'A body that is not valid JSON answers 500 with the parser exception text.', suite: 'conformance' },
    { name: 'ver-no-v1-segment', service: 'gate', requirements: ['GATE-VER-V1-SEGMENT'], description: 'The Gate API answers at the root instead of under /v1.', suite: 'conformance' },
    { name: 'err-envelope-no-status-code', service: 'gate', requirements: ['GATE-ERR-ENVELOPE'], description: 'The error envelope lacks statusCode.', suite: 'conformance' },
  ],
  register() {
    // Credential checks run inside each route through world.authSecret / authPublishable.
  },
};
