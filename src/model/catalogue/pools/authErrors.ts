// Pools "Authentication" and "Errors": key modes, the entitlement 403 codes,
// the error envelope, 401/404 rules.
import { defineArea } from '../define.js';

const ENTITLED =
  'Entitled routes (capabilities, quote, transact, balance) also require: pools enabled for the partner, access not suspended, KYC approved, pool in the allowed set.';
const FAILURES_403 = 'Failures give 403 codes listed under Errors.';
const CODES_403 = '| 403 | codes: `pools_not_enabled`, `pool_access_suspended`, `kyc_not_approved`, `pool_not_allowed`, `key_mode_mismatch` |';
const ROW_401 = '| 401 | missing or invalid key |';
const ROW_404 = '| 404 | unknown or cross-tenant id';

const area = defineArea({
  service: 'pools',
  section: 'Authentication',
  entries: {
    'POOLS-AUTH-KEY-MODE-ENV-403': {
      title: 'A key whose mode does not match the environment (a test key on production) gives 403 key_mode_mismatch',
      kind: 'auth',
      anchor: [
        'Key mode must match the environment and the operation.',
        'A mismatch (for example a publishable key on a secret-only route) gives 403 with code `key_mode_mismatch`.',
        CODES_403,
      ],
    },
    'POOLS-AUTH-LIVE-KEY-SANDBOX-403': {
      title: 'A live secret key on the sandbox gives 403 key_mode_mismatch (the key mode must match the environment)',
      kind: 'auth',
      anchor: [
        'Key mode must match the environment and the operation.',
        'Secret key `sk_<test|live>_*` as `Authorization: Bearer <API_KEY>`, server side only.',
      ],
      needs: ['poolsLiveKey'],
    },
    'POOLS-AUTH-MISSING-KEY-401': {
      title: 'A request without a key gives 401, on every route (discovery included: it takes a publishable or a secret key)',
      kind: 'auth',
      anchor: [
        'Secret key `sk_<test|live>_*` as `Authorization: Bearer <API_KEY>`, server side only.',
        'It is required for every operation except discovery.',
        ROW_401,
      ],
    },
    'POOLS-AUTH-INVALID-KEY-401': { title: 'A request with an invalid key gives 401', kind: 'auth', anchor: ROW_401 },
    'POOLS-AUTH-REVOKED-KEY-401': {
      title: 'A revoked secret key is an invalid key: 401 (the documented 403 codes name no revoked key)',
      kind: 'auth',
      anchor: ROW_401,
      needs: ['poolsRevokedKey'],
    },
    'POOLS-AUTH-PK-DISCOVERY': {
      title: 'A publishable key is usable on GET /pools',
      kind: 'auth',
      anchor: ['Publishable key `pk_<test|live>_*` as bearer, usable only on `GET /pools`.', '| GET | /pools | PK or SK |'],
    },
    'POOLS-AUTH-PK-SECRET-ROUTE-403': {
      title: 'A publishable key on any route other than GET /pools gives 403 key_mode_mismatch',
      kind: 'auth',
      anchor: [
        'usable only on `GET /pools`',
        'A mismatch (for example a publishable key on a secret-only route) gives 403 with code `key_mode_mismatch`.',
        'It is required for every operation except discovery.',
      ],
    },
    'POOLS-AUTH-NOT-ENABLED-403': {
      title: 'Entitled routes for a partner without pools enabled give 403 pools_not_enabled',
      kind: 'auth',
      anchor: [ENTITLED, FAILURES_403, CODES_403],
    },
    'POOLS-AUTH-SUSPENDED-403': {
      title: 'Entitled routes for a suspended partner give 403 pool_access_suspended',
      kind: 'auth',
      anchor: [ENTITLED, FAILURES_403, CODES_403],
    },
    'POOLS-AUTH-KYC-403': {
      title: 'Entitled routes for a partner whose KYC is not approved give 403 kyc_not_approved',
      kind: 'auth',
      anchor: [ENTITLED, FAILURES_403, CODES_403],
    },
    'POOLS-AUTH-POOL-NOT-ALLOWED-403': {
      title: 'Entitled routes on a pool outside the allowed set give 403 pool_not_allowed',
      kind: 'auth',
      anchor: [ENTITLED, FAILURES_403, CODES_403],
    },
    'POOLS-AUTH-READ-ROUTES-KEY-MODE-ONLY': {
      title: 'Secret-only read routes produce only key_mode_mismatch among 403 codes',
      kind: 'auth',
      anchor: 'Secret-only read routes (funding, ledger, trades, quotes, transactions, reject) produce only `key_mode_mismatch` among 403 codes.',
    },
    'POOLS-ERR-ENVELOPE': {
      title: 'Errors carry { type, code, message, request_id, doc_url, statusCode } and header X-Request-Id',
      kind: 'envelope',
      section: 'Errors',
      anchor: [
        'Envelope: `{ type, code, message, request_id, doc_url, statusCode }`, plus header `X-Request-Id`.',
        '`type` is one of `invalid_request`, `unauthorized`, `forbidden`, `not_found`, `conflict`, `rate_limited`, `server_error`.',
      ],
    },
    'POOLS-ERR-UNKNOWN-ID-404': { title: 'An unknown id gives 404', kind: 'error', section: 'Errors', anchor: ROW_404 },
    'POOLS-ERR-CROSS-TENANT-404': {
      title: "Another partner's quote, trade or transaction gives 404",
      kind: 'error',
      section: 'Errors',
      anchor: ["Another partner's object gives 404.", ROW_404],
    },
  },
});

export default area;

declare module '../define.js' {
  interface CatalogueAreas {
    'pools/authErrors': typeof area.entries;
  }
}
