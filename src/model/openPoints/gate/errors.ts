// Open points of the Gate spec's errors: the code values, the request id's spelling, doc_url, a 5xx's generic text,
// how a validation message joins its parts, and how a 5xx is reached in the sandbox (Errors). The retry-delay
// header on 429 is the Limits' (gate/limits.ts).
import { defineOpenPoints } from '../define.js';

const area = defineOpenPoints({
  spec: 'gate',
  section: 'Errors',
  entries: {
    'gate.errors.codes': {
      kind: 'error-codes',
      passage: 'The full list of `code` values and any retry-delay header on 429: not shown.',
      what: 'which code an error carries: a specific machine code (resource_missing, parameter_invalid, …), or always its type (the documented fallback)',
      choices: ['specific', 'type'],
      readBy: ['support/gate/errors.ts', 'conformance/gate/errors.ts'],
    },
    'gate.errors.requestId': {
      kind: 'spelling',
      passage: '| request_id | string | UUID-like per-request id |',
      what: 'how a request id is spelled: a UUID, or 22 base-62 characters (both "UUID-like")',
      choices: ['uuid', 'base62'],
      readBy: ['support/gate/errors.ts', 'conformance/gate/errors.ts'],
      note: 'the reference.requestIdStyle knob (shared with pools) still applies; this point sets the Gate ids alone',
    },
    'gate.errors.docUrl': {
      kind: 'nullable',
      passage: '| doc_url | string or null |',
      what: 'whether an error carries a doc_url or null',
      choices: ['null', 'url'],
      readBy: ['support/gate/errors.ts'],
    },
    'gate.errors.serverMessage': {
      kind: 'value',
      passage: 'body message is scrubbed to a generic internal error text',
      what: "the generic text of a 5xx: the reference's own, or another (one that names a time)",
      choices: ['generic', 'names-a-time'],
      readBy: ['support/gate/errors.ts', 'conformance/gate/errors.ts'],
    },
    'gate.errors.validationJoin': {
      kind: 'message-join',
      passage: 'validation errors joined with `; `',
      what: 'how many parts an invalid field adds to the joined message: one of its own, or several (fields failing one check share a part that names them all, and each adds a part of its own)',
      choices: ['one-per-check', 'grouped-and-repeated'],
      readBy: ['support/gate/validation.ts', 'conformance/gate/errors.ts'],
    },
    'gate.controls.serverError': {
      kind: 'reading',
      passage: '| 5xx | server_error | body message is scrubbed to a generic internal error text |',
      what: "how the sandbox makes a 5xx (the spec has no request that must fail on the server): its control fails itself, or arms the partner's next request (the profile's serverError trigger then arms it)",
      choices: ['fails-itself', 'arms-next'],
      readBy: ['src/needs/gate/serverError.ts', 'conformance/gate/errors.ts'],
      note: "the reference.controlDialect knob ('own', shared with pools) still applies",
    },
  },
});

export default area;

declare module '../define.js' {
  interface OpenPointAreas {
    'gate/errors': typeof area.entries;
  }
}
