// Pools "Authentication" and "Errors": key modes, the entitlement 403 codes,
// the error envelope, 401/404 rules.
import type { Requirement } from '../types.js';

type Entry = Omit<Requirement, 'service' | 'suite'> & { suite?: Requirement['suite'] };
const entry = (e: Entry): Requirement => ({ service: 'pools', suite: 'conformance', ...e });

const AUTH = 'Authentication';
const ERR = 'Errors';

export const requirements: Requirement[] = [
  entry({ id: 'POOLS-AUTH-KEY-MODE-ENV-403', section: AUTH, title: 'A key whose mode does not match the environment (a test key on production) gives 403 key_mode_mismatch', kind: 'auth', roles: ['pools.partner', 'pools.production'] }),
  entry({ id: 'POOLS-AUTH-MISSING-KEY-401', section: AUTH, title: 'A request without a key gives 401', kind: 'auth', roles: ['pools.partner'] }),
  entry({ id: 'POOLS-AUTH-INVALID-KEY-401', section: AUTH, title: 'A request with an invalid key gives 401', kind: 'auth', roles: ['pools.partner'] }),
  entry({ id: 'POOLS-AUTH-PK-DISCOVERY', section: AUTH, title: 'A publishable key is usable on GET /pools', kind: 'auth', roles: ['pools.publishableKey'] }),
  entry({ id: 'POOLS-AUTH-PK-SECRET-ROUTE-403', section: AUTH, title: 'A publishable key on any route other than GET /pools gives 403 key_mode_mismatch', kind: 'auth', roles: ['pools.publishableKey'] }),
  entry({ id: 'POOLS-AUTH-NOT-ENABLED-403', section: AUTH, title: 'Entitled routes for a partner without pools enabled give 403 pools_not_enabled', kind: 'auth', roles: ['pools.notEnabled'] }),
  entry({ id: 'POOLS-AUTH-SUSPENDED-403', section: AUTH, title: 'Entitled routes for a suspended partner give 403 pool_access_suspended', kind: 'auth', roles: ['pools.suspended'] }),
  entry({ id: 'POOLS-AUTH-KYC-403', section: AUTH, title: 'Entitled routes for a partner whose KYC is not approved give 403 kyc_not_approved', kind: 'auth', roles: ['pools.kycPending'] }),
  entry({ id: 'POOLS-AUTH-POOL-NOT-ALLOWED-403', section: AUTH, title: 'Entitled routes on a pool outside the allowed set give 403 pool_not_allowed', kind: 'auth', roles: ['pools.partner', 'pools.notAllowedPool'] }),
  entry({ id: 'POOLS-AUTH-READ-ROUTES-KEY-MODE-ONLY', section: AUTH, title: 'Secret-only read routes produce only key_mode_mismatch among 403 codes', kind: 'auth', roles: ['pools.kycPending'] }),
  entry({ id: 'POOLS-ERR-ENVELOPE', section: ERR, title: 'Errors carry { type, code, message, request_id, doc_url, statusCode } and header X-Request-Id', kind: 'envelope', roles: ['pools.partner'] }),
  entry({ id: 'POOLS-ERR-UNKNOWN-ID-404', section: ERR, title: 'An unknown id gives 404', kind: 'error', roles: ['pools.partner'] }),
  entry({ id: 'POOLS-ERR-CROSS-TENANT-404', section: ERR, title: "Another partner's quote, trade or transaction gives 404", kind: 'error', roles: ['pools.partner', 'pools.secondPartner'] }),
];
