// Gate "Authentication": credentials, key modes, revoked keys, cross-tenant answers.
import { defineArea } from '../define.js';

const area = defineArea({
  service: 'gate',
  section: 'Authentication',
  entries: {
    'GATE-ERR-401-UNAUTHORIZED': { title: '401 has type unauthorized (missing or invalid credential)', kind: 'error' },
    'GATE-ERR-403-FORBIDDEN': { title: '403 has type forbidden (revoked key, mode mismatch)', kind: 'error' },
    'GATE-ERR-CROSS-TENANT-404': {
      title: "cross-tenant is 404 not_found, never 403: another partner's session id on read and on cancel (which leaves it open)",
      kind: 'auth',
      section: 'Errors',
    },
    'GATE-AUTH-MISSING-401': { title: 'a request without credentials gives 401 unauthorized', kind: 'auth' },
    'GATE-AUTH-MALFORMED-401': { title: 'a malformed Authorization header or an unknown key gives 401 unauthorized', kind: 'auth' },
    'GATE-AUTH-REVOKED-403': { title: 'a revoked key (a secret key, or a publishable key on the embed bootstrap) gives 403 forbidden', kind: 'auth' },
    'GATE-AUTH-MODE-MISMATCH-403': { title: 'key mode must match the environment: a test key on production, or a live key on sandbox, gives 403 forbidden', kind: 'auth' },
    'GATE-AUTH-PK-SECRET-ROUTE': { title: 'a publishable key is for POST /embed/bootstrap only: it cannot list or create sessions (refused 401 or 403)', kind: 'auth' },
    'GATE-AUTH-CROSS-TENANT-QUOTE': { title: "GET /quotes/{id} of another rail-entitled partner's signed quote gives 404 not_found", kind: 'auth' },
    'GATE-AUTH-CROSS-TENANT-DELIVERY': { title: 'GET /webhooks/deliveries never lists another partner\'s delivery', kind: 'auth' },
    'GATE-AUTH-CROSS-TENANT-CUSTOMER-WRITE': { title: 'PATCH and DELETE /customers/{id} of another partner\'s customer give 404 and leave it unchanged', kind: 'auth' },
  },
});

export default area;

declare module '../define.js' {
  interface CatalogueAreas {
    'gate/auth': typeof area.entries;
  }
}
