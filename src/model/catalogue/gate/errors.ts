// Gate "Errors": the error envelope, the type of each status, joined
// validation messages and scrubbed 5xx bodies (401/403 and tenancy: auth.ts).
// Left out on purpose:
// - Authentication rule 5 (account assertions): its header/transport is "not shown" (rule 6), so no request can carry one.
// - Rule 7 (alternative secret-key header): its name is "not shown".
// - Rule 8 (key rotation) is an operational procedure with no API surface in this spec.
// - A secret key on the publishable-key route and the allowed-origin rule belong to Embed (GATE-EMBED-*).
// - 429 rate_limited is GATE-RATE-429-ENVELOPE (limits.ts): only a load run reaches it.
// - Cross-tenant customer/transaction/pay-out reads and delivery replay already have ids
//   (GATE-CUST-FOREIGN-404, GATE-TXN-FOREIGN-404, GATE-RAIL-PAYOUT-FOREIGN-404, GATE-WHOPS-REPLAY-FOREIGN-404).
import { defineArea } from '../define.js';

const area = defineArea({
  service: 'gate',
  section: 'Errors',
  entries: {
    'GATE-ERR-ENVELOPE': {
      title:
        'every error carries the envelope: type, code, message and request_id strings, doc_url string or null, statusCode mirroring the HTTP status; request_id differs per request',
      kind: 'envelope',
      anchor: [
        'Envelope on every error (response also carries header `X-Request-Id` equal to `request_id`):',
        '| type | string | `invalid_request`, `not_found`, `conflict`, `unauthorized`, `forbidden`, `rate_limited`, `server_error` |',
        '| request_id | string | UUID-like per-request id |',
        '| doc_url | string or null |  |',
        '| statusCode | integer | mirrors HTTP status |',
      ],
    },
    'GATE-ERR-REQUEST-ID-HEADER': {
      title: 'an error response carries header X-Request-Id equal to the envelope request_id',
      kind: 'envelope',
      anchor: 'response also carries header `X-Request-Id` equal to `request_id`',
    },
    'GATE-ERR-REQUEST-ID-UUID': {
      title:
        "request_id is a UUID-like per-request id: one token, alone or after a short word prefix, writing about a UUID's worth of random bits (96 or more) in any alphabet (hex, ULID, base-62, base-64url); a counter or a timestamp is not",
      kind: 'envelope',
      anchor: '| request_id | string | UUID-like per-request id |',
    },
    'GATE-ERR-CODE-FALLBACK': {
      title:
        'code is a stable machine code and falls back to type: one non-empty token, either a specific code or the type itself, never the name of another error type',
      kind: 'envelope',
      anchor: '| code | string | stable machine code; falls back to `type` |',
    },
    'GATE-ERR-VALIDATION-JOINED': {
      title: 'a 400 whose message reports several validation errors joins exactly those messages with "; " (each part names its field)',
      kind: 'envelope',
      anchor: 'validation errors joined with `; `',
    },
    'GATE-ERR-400-INVALID-REQUEST': {
      title: '400 has type invalid_request (missing or malformed field, unknown key where strict)',
      kind: 'error',
      anchor: '| 400 | invalid_request | missing or malformed field, unknown key where strict',
    },
    'GATE-ERR-404-NOT-FOUND': { title: '404 has type not_found for a missing resource', kind: 'error', anchor: '| 404 | not_found | missing resource' },
    'GATE-ERR-409-CONFLICT': {
      title: '409 has type conflict (duplicate customer email)',
      kind: 'error',
      anchor: '| 409 | conflict | cancelling a terminal session',
    },
    'GATE-ERR-5XX-SCRUBBED': {
      title: 'a 5xx has the error envelope with type server_error and its message scrubbed to a generic internal error text',
      kind: 'error',
      anchor: 'body message is scrubbed to a generic internal error text',
      // No documented request must fail on the server: only a sandbox control reaches a 5xx.
      needs: ['gateServerError'],
    },
  },
});

export default area;

declare module '../define.js' {
  interface CatalogueAreas {
    'gate/errors': typeof area.entries;
  }
}
