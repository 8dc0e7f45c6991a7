// Pools "Authentication" and "Errors": key modes, the entitlement 403 codes,
// the error envelope, 401/404 rules.
import { defineArea } from '../define.js';

const area = defineArea({
  service: 'pools',
  section: 'Authentication',
  entries: {
    'POOLS-AUTH-KEY-MODE-ENV-403': { title: 'A key whose mode does not match the environment (a test key on production) gives 403 key_mode_mismatch', kind: 'auth' },
    'POOLS-AUTH-MISSING-KEY-401': { title: 'A request without a key gives 401', kind: 'auth' },
    'POOLS-AUTH-INVALID-KEY-401': { title: 'A request with an invalid key gives 401', kind: 'auth' },
    'POOLS-AUTH-PK-DISCOVERY': { title: 'A publishable key is usable on GET /pools', kind: 'auth' },
    'POOLS-AUTH-PK-SECRET-ROUTE-403': { title: 'A publishable key on any route other than GET /pools gives 403 key_mode_mismatch', kind: 'auth' },
    'POOLS-AUTH-NOT-ENABLED-403': { title: 'Entitled routes for a partner without pools enabled give 403 pools_not_enabled', kind: 'auth' },
    'POOLS-AUTH-SUSPENDED-403': { title: 'Entitled routes for a suspended partner give 403 pool_access_suspended', kind: 'auth' },
    'POOLS-AUTH-KYC-403': { title: 'Entitled routes for a partner whose KYC is not approved give 403 kyc_not_approved', kind: 'auth' },
    'POOLS-AUTH-POOL-NOT-ALLOWED-403': { title: 'Entitled routes on a pool outside the allowed set give 403 pool_not_allowed', kind: 'auth' },
    'POOLS-AUTH-READ-ROUTES-KEY-MODE-ONLY': { title: 'Secret-only read routes produce only key_mode_mismatch among 403 codes', kind: 'auth' },
    'POOLS-ERR-ENVELOPE': { title: 'Errors carry { type, code, message, request_id, doc_url, statusCode } and header X-Request-Id', kind: 'envelope', section: 'Errors' },
    'POOLS-ERR-UNKNOWN-ID-404': { title: 'An unknown id gives 404', kind: 'error', section: 'Errors' },
    'POOLS-ERR-CROSS-TENANT-404': { title: 'Another partner\'s quote, trade or transaction gives 404', kind: 'error', section: 'Errors' },
  },
});

export default area;

declare module '../define.js' {
  interface CatalogueAreas {
    'pools/authErrors': typeof area.entries;
  }
}
