// Seeded faults of the pools authentication rules; the checks themselves live
// in world.ts (auth, authEntitled) because every route uses them.
import type { PoolsArea } from './world.js';

export const area: PoolsArea = {
  name: 'auth',
  faults: [
    { name: 'pools-key-mode-env-accepted', service: 'pools', requirements: ['POOLS-AUTH-KEY-MODE-ENV-403'], description: 'A test key is accepted on the production base (no key_mode_mismatch for the environment).', suite: 'conformance' },
    { name: 'pools-publishable-key-on-secret-route', service: 'pools', requirements: ['POOLS-AUTH-PK-SECRET-ROUTE-403'], description: 'A publishable key is accepted on secret-only routes.', suite: 'conformance' },
    { name: 'pools-not-enabled-accepted', service: 'pools', requirements: ['POOLS-AUTH-NOT-ENABLED-403'], description: 'A partner without pools enabled passes entitled routes.', suite: 'conformance' },
    { name: 'pools-suspended-accepted', service: 'pools', requirements: ['POOLS-AUTH-SUSPENDED-403'], description: 'A suspended partner passes entitled routes.', suite: 'conformance' },
    { name: 'pools-kyc-pending-accepted', service: 'pools', requirements: ['POOLS-AUTH-KYC-403'], description: 'A partner whose KYC is not approved passes entitled routes.', suite: 'conformance' },
    { name: 'pools-not-allowed-accepted', service: 'pools', requirements: ['POOLS-AUTH-POOL-NOT-ALLOWED-403'], description: 'A pool outside the allowed set is usable.', suite: 'conformance' },
    { name: 'pools-missing-key-403', service: 'pools', requirements: ['POOLS-AUTH-MISSING-KEY-401'], description: 'A request without a key gives 403 instead of 401.', suite: 'conformance' },
    { name: 'pools-invalid-key-403', service: 'pools', requirements: ['POOLS-AUTH-INVALID-KEY-401'], description: 'An unknown key gives 403 instead of 401.', suite: 'conformance' },
    { name: 'pools-read-routes-entitlement-403', service: 'pools', requirements: ['POOLS-AUTH-READ-ROUTES-KEY-MODE-ONLY'], description: 'Secret-only read routes refuse a KYC-pending partner with 403 kyc_not_approved.', suite: 'conformance' },
    { name: 'pools-unknown-id-400', service: 'pools', requirements: ['POOLS-ERR-UNKNOWN-ID-404'], description: 'An unknown quote or trade id gives 400 instead of 404.', suite: 'conformance' },
  ],
  register() {},
};
