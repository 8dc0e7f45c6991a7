// Gate "Authentication": credentials, key modes, revoked keys, cross-tenant answers.
// Not catalogued, each with its reason in src/model/specMap/gate.ts: account
// assertions (their transport is not shown), key rotation (no key endpoint is
// documented) and the partner's own obligations (where a secret key may live).
import { defineArea } from '../define.js';

const area = defineArea({
  service: 'gate',
  section: 'Authentication',
  entries: {
    'GATE-ERR-401-UNAUTHORIZED': {
      title: '401 has type unauthorized (missing or invalid credential)',
      kind: 'error',
      anchor: '| 401 | unauthorized | missing or invalid credential |',
    },
    'GATE-ERR-403-FORBIDDEN': {
      title: '403 has type forbidden (revoked key, mode mismatch)',
      kind: 'error',
      anchor: '| 403 | forbidden | revoked key, origin not allowed, mode mismatch',
    },
    'GATE-ERR-CROSS-TENANT-404': {
      title: "cross-tenant is 404 not_found, never 403: another partner's session id on read and on cancel (which leaves it open)",
      kind: 'auth',
      section: 'Errors',
      anchor: 'not scoped to the credential (cross-tenant is 404, never 403)',
    },
    'GATE-AUTH-MISSING-401': {
      title: 'a request without credentials gives 401 unauthorized',
      kind: 'auth',
      anchor: [
        'Missing or malformed credentials give 401.',
        'sessions, capabilities, quotes, rails, transactions, customers, branding, webhook tools, dashboard',
      ],
    },
    'GATE-AUTH-MALFORMED-401': {
      title: 'a malformed Authorization header or an unknown key gives 401 unauthorized',
      kind: 'auth',
      anchor: [
        'Missing or malformed credentials give 401.',
        '| Secret key | `sk_<test|live>_<32 chars>`, `Authorization: Bearer <API_KEY>` |',
        'The documented form for secret keys is bearer.',
      ],
    },
    'GATE-AUTH-REVOKED-403': {
      title: 'a revoked key (a secret key, or a publishable key on the embed bootstrap) gives 403 forbidden',
      kind: 'auth',
      anchor: [
        "A revoked key, an origin not in the partner's allowed domains, or a session of another partner gives 403.",
        '| 403 | forbidden | revoked key, origin not allowed',
      ],
    },
    'GATE-AUTH-MODE-MISMATCH-403': {
      title: 'key mode must match the environment: a test key on production, or a live key on sandbox, gives 403 forbidden',
      kind: 'auth',
      anchor: [
        'Key mode must match the environment.',
        'A test key on live, or a live key on sandbox, is rejected (403).',
        'Base addresses: `{base_url}` (production)',
        '| 403 | forbidden | revoked key, origin not allowed',
      ],
    },
    'GATE-AUTH-PK-SECRET-ROUTE': {
      title:
        'a publishable key is for POST /embed/bootstrap only: it cannot list or create sessions nor move money (POST /rails/pay_outs) — refused 401 or 403',
      kind: 'auth',
      anchor: [
        '| Publishable key | `pk_<test|live>_<32 chars>`, bearer | browser | `POST /embed/bootstrap` only; identifies the partner, cannot create sessions or move money |',
        'PK = publishable key bearer',
        'sessions, capabilities, quotes, rails, transactions, customers, branding, webhook tools, dashboard',
      ],
    },
    'GATE-AUTH-CROSS-TENANT-QUOTE': {
      title: "GET /quotes/{id} of another rail-entitled partner's signed quote gives 404 not_found",
      kind: 'auth',
      anchor: 'Partner-scoped ids of another partner return 404.',
    },
    'GATE-AUTH-CROSS-TENANT-DELIVERY': {
      title: "GET /webhooks/deliveries never lists another partner's delivery",
      kind: 'auth',
      anchor: 'Every resource is scoped to the partner and the environment (test or live) of the credential.',
    },
    'GATE-AUTH-CROSS-TENANT-CUSTOMER-WRITE': {
      title: "PATCH and DELETE /customers/{id} of another partner's customer give 404 and leave it unchanged",
      kind: 'auth',
      anchor: 'Partner-scoped ids of another partner return 404.',
    },
  },
});

export default area;

declare module '../define.js' {
  interface CatalogueAreas {
    'gate/auth': typeof area.entries;
  }
}
