// Open points of the pools spec's errors and authentication: the 400 and 409 code values, and which 403 or 404 an
// entitled route answers a partner with two faults (Errors; Authentication).
import { defineOpenPoints } from '../define.js';

const area = defineOpenPoints({
  spec: 'pools',
  section: 'Errors',
  entries: {
    'pools.errors.codes': {
      kind: 'error-codes',
      passage: 'Code values for 400 and 409 other than `invalid_limit` and `idempotency-conflict`: not shown.',
      what: "the code of a 400 or 409 other than the two documented: a specific one (parameter_missing, quote_expired, …), or the error's type (invalid_request, conflict)",
      choices: ['specific', 'type'],
      readBy: ['support/pools/errors.ts', 'conformance/pools/authErrors.ts'],
    },
    'pools.entitled.order': {
      kind: 'validation-order',
      passage:
        'Entitled routes (capabilities, quote, transact, balance) also require: pools enabled for the partner, access not suspended, KYC approved, pool in the allowed set.',
      what: 'which error an entitled route gives a partner with two faults: the access state first (pools_not_enabled, pool_access_suspended, kyc_not_approved), then the pool (404, pool_not_allowed); or the pool first',
      choices: ['access-first', 'pool-first'],
      readBy: ['conformance/pools/authErrors.ts'],
    },
    'pools.controls.words': {
      kind: 'reading',
      passage: 'Unavailable: HTTP 200 with `available` false, `unavailableReason` in `pool_dry`, `engine_unavailable`, `rate_unavailable`, and no `quoteId`.',
      what: "the words of the sandbox's pool-state control (the spec has no request that makes a pool unavailable): the spec's reasons, or its own (open, dry, engine_down, no_rate; the profile's poolState trigger maps them)",
      choices: ['spec-words', 'own-words'],
      readBy: ['src/needs/pools/poolState.ts', 'conformance/pools/quotes.ts'],
      note: "the reference.controlDialect knob ('own', shared with Gate) still applies",
    },
  },
});

export default area;

declare module '../define.js' {
  interface OpenPointAreas {
    'pools/errors': typeof area.entries;
  }
}
