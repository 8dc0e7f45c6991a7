// Seeded faults of the pools authentication and error rules; the checks
// themselves live in world.ts (auth, authEntitled) and index.ts (the error
// envelope) because every route uses them.
import type { ActiveFaults } from '../kit/faults.js';
import { errorEnvelope, HttpError, type Router } from '../kit/http.js';
import type { PoolsArea } from './world.js';

export const area: PoolsArea = {
  name: 'authErrors',
  faults: [
    {
      name: 'pools-key-mode-env-accepted',
      service: 'pools',
      requirements: ['POOLS-AUTH-KEY-MODE-ENV-403'],
      description: 'A test key is accepted on the production base (no key_mode_mismatch for the environment).',
      suite: 'conformance',
    },
    {
      name: 'pools-publishable-key-on-secret-route',
      service: 'pools',
      requirements: ['POOLS-AUTH-PK-SECRET-ROUTE-403'],
      description: 'A publishable key is accepted on secret-only routes.',
      suite: 'conformance',
    },
    {
      name: 'pools-not-enabled-accepted',
      service: 'pools',
      requirements: ['POOLS-AUTH-NOT-ENABLED-403'],
      description: 'A partner without pools enabled passes entitled routes.',
      suite: 'conformance',
    },
    {
      name: 'pools-suspended-accepted',
      service: 'pools',
      requirements: ['POOLS-AUTH-SUSPENDED-403'],
      description: 'A suspended partner passes entitled routes.',
      suite: 'conformance',
    },
    {
      name: 'pools-kyc-pending-accepted',
      service: 'pools',
      requirements: ['POOLS-AUTH-KYC-403'],
      description: 'A partner whose KYC is not approved passes entitled routes.',
      suite: 'conformance',
    },
    {
      name: 'pools-not-allowed-accepted',
      service: 'pools',
      requirements: ['POOLS-AUTH-POOL-NOT-ALLOWED-403'],
      description: 'A pool outside the allowed set is usable.',
      suite: 'conformance',
    },
    {
      name: 'pools-missing-key-403',
      service: 'pools',
      requirements: ['POOLS-AUTH-MISSING-KEY-401'],
      description: 'A request without a key gives 403 instead of 401.',
      suite: 'conformance',
    },
    {
      name: 'pools-invalid-key-403',
      service: 'pools',
      requirements: ['POOLS-AUTH-INVALID-KEY-401'],
      description: 'An unknown key gives 403 instead of 401.',
      suite: 'conformance',
    },
    {
      name: 'pools-read-routes-entitlement-403',
      service: 'pools',
      requirements: ['POOLS-AUTH-READ-ROUTES-KEY-MODE-ONLY'],
      description: 'Secret-only read routes refuse a KYC-pending partner with 403 kyc_not_approved.',
      suite: 'conformance',
    },
    {
      name: 'pools-read-routes-refuse-not-enabled',
      service: 'pools',
      requirements: ['POOLS-AUTH-READ-ROUTES-KEY-MODE-ONLY'],
      description: 'Secret-only read routes refuse a partner whose pools are not enabled with 403 pools_not_enabled.',
      suite: 'conformance',
    },
    {
      name: 'pools-read-routes-refuse-suspended',
      service: 'pools',
      requirements: ['POOLS-AUTH-READ-ROUTES-KEY-MODE-ONLY'],
      description: 'Secret-only read routes refuse a suspended partner with 403 pool_access_suspended.',
      suite: 'conformance',
    },
    {
      name: 'pools-error-envelope-no-request-id',
      service: 'pools',
      requirements: ['POOLS-ERR-ENVELOPE'],
      description: 'Pools errors omit request_id from the envelope.',
      suite: 'conformance',
    },
    {
      name: 'pools-revoked-key-accepted',
      service: 'pools',
      requirements: ['POOLS-AUTH-REVOKED-KEY-401'],
      description: 'A revoked secret key still authenticates its partner.',
      suite: 'conformance',
    },
    {
      name: 'pools-live-key-on-sandbox-accepted',
      service: 'pools',
      requirements: ['POOLS-AUTH-LIVE-KEY-SANDBOX-403'],
      description: 'A live secret key is accepted on the sandbox (no key_mode_mismatch).',
      suite: 'conformance',
    },
    {
      name: 'pools-capabilities-without-key',
      service: 'pools',
      requirements: ['POOLS-AUTH-MISSING-KEY-401'],
      description: "GET /pools/{id}/capabilities without a key answers the pool's public capabilities (200) instead of 401.",
      suite: 'conformance',
    },
    {
      name: 'pools-unknown-id-400',
      service: 'pools',
      requirements: ['POOLS-ERR-UNKNOWN-ID-404'],
      description: 'An unknown quote or trade id gives 400 instead of 404.',
      suite: 'conformance',
    },
  ],
  register() {},
};

/**
 * A router whose handlers answer their errors with the broken envelope of the
 * envelope fault (every pools route throws through it, so index.ts wraps the
 * router before the areas register).
 */
export function withErrorFaults(router: Router, faults: ActiveFaults): Router {
  if (!faults.has('pools-error-envelope-no-request-id')) return router;
  const on = router.on.bind(router);
  router.on = (method, pattern, handler) =>
    on(method, pattern, async (req) => {
      try {
        return await handler(req);
      } catch (e) {
        if (!(e instanceof HttpError)) throw e;
        const { request_id: _dropped, ...body } = errorEnvelope(e, req.requestId);
        return { status: e.status, body, headers: e.headers };
      }
    });
  return router;
}
