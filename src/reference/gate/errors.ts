// Errors: the Gate error envelope every route answers with, built once in the
// request pipeline (server.ts calls gateErrorReply and gateServerErrorReply),
// and the seeded faults of that envelope. A thrown HttpError is the documented
// error; any other throw is a 500 whose message is scrubbed to a generic text
// (the stack goes to the log only).
import type { Profile } from '../../profile/schema.js';
import { choiceOf } from '../kit/dialect.js';
import type { ActiveFaults } from '../kit/faults.js';
import { errorEnvelope, HttpError, newRequestId, NOT_JSON, type Reply } from '../kit/http.js';
import type { GateArea } from './world.js';

/** Error-type faults: the status keeps its number, the envelope type is wrong. */
const RETYPE: Record<string, [number, string]> = {
  'err-400-type-bad-request': [400, 'bad_request'],
  'err-401-type-forbidden': [401, 'forbidden'],
  'err-403-type-unauthorized': [403, 'unauthorized'],
  'err-404-type-missing': [404, 'missing'],
  'err-409-type-invalid': [409, 'invalid_request'],
};

let requestCounter = 0;
let codeCounter = 0;

/** What the world's errors leave open, as it chose (src/model/openPoints/gate/errors.ts). */
export interface GateErrorReadings {
  /** Every code is the error's type (the documented fallback) instead of a specific machine code. */
  codeIsType: boolean;
  /** doc_url names a page per code instead of null. */
  docUrl: boolean;
  /** A 400's joined message groups fields failing one check in one part, and gives each field a part of its own too (gateErrorReply). */
  groupedParts: boolean;
}

export function gateErrorReadings(profile: Profile): GateErrorReadings {
  return {
    codeIsType: choiceOf(profile, 'gate.errors.codes') === 'type',
    docUrl: choiceOf(profile, 'gate.errors.docUrl') === 'url',
    groupedParts: choiceOf(profile, 'gate.errors.validationJoin') === 'grouped-and-repeated',
  };
}

/**
 * A validation message "a must …; b must …; c is required" rewritten with its parts grouped: the fields whose parts say
 * the same after the field's name share one part ("a and b must …"), and each field named adds a part of its own
 * ("a is invalid") — every field is named in several parts, and some part names two.
 */
export function groupedMessage(message: string): string {
  const parts = message.split('; ');
  const byRest = new Map<string, string[]>();
  const loose: string[] = [];
  const fields: string[] = [];
  for (const part of parts) {
    const m = /^([a-z][a-z0-9_]*) (.+)$/.exec(part);
    if (!m) {
      loose.push(part);
      continue;
    }
    byRest.set(m[2]!, [...(byRest.get(m[2]!) ?? []), m[1]!]);
    if (!fields.includes(m[1]!)) fields.push(m[1]!);
  }
  const grouped = [...byRest].map(([rest, names]) => `${names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : names[0]} ${rest}`);
  return [...grouped, ...loose, ...fields.map((f) => `${f} is invalid`)].join('; ');
}

/** The envelope as sent, with the world's readings and the envelope faults that are on applied to it. */
function envelopeReply(faults: ActiveFaults, err: HttpError, requestId: string, message?: string, readings?: GateErrorReadings): Reply {
  const body: Record<string, unknown> = errorEnvelope(err, requestId);
  if (message !== undefined) body.message = message;
  if (readings?.codeIsType) body.code = err.type;
  if (readings?.docUrl) body.doc_url = `https://docs.gate.example/errors/${String(body.code)}`;
  if (faults.has('err-code-empty')) body.code = '';
  // Faults: the code is the human message; the code falls back to another type than the envelope's.
  if (faults.has('err-code-is-message')) body.code = body.message;
  if (faults.has('err-code-other-type') && err.status !== 400) body.code = 'invalid_request';
  // Fault: the code carries a per-answer counter (resource_missing_7): a token, but not a stable machine code.
  if (faults.has('err-code-per-request')) body.code = `${String(body.code)}_${++codeCounter}`;
  // Fault: request ids count up (req-1, req-2, …): per request, but nothing like a UUID.
  if (faults.has('err-request-id-counter')) body.request_id = `req-${++requestCounter}`;
  if (faults.has('err-envelope-no-status-code')) delete body.statusCode;
  const headers = faults.has('err-request-id-header-mismatch')
    ? { ...(err.headers ?? {}), 'x-request-id': newRequestId() }
    : faults.has('err-request-id-counter')
      ? { ...(err.headers ?? {}), 'x-request-id': String(body.request_id) }
      : err.headers;
  return { status: err.status, body, ...(headers ? { headers } : {}) };
}

/** The answer to a documented error (an HttpError thrown by a Gate route). */
export function gateErrorReply(faults: ActiveFaults, err: HttpError, requestId: string, readings?: GateErrorReadings): Reply {
  // Fault: a body that is not JSON reaches the handler and fails there (scrubbed, but a 500, not the 400).
  if (faults.has('err-malformed-json-500') && err.status === 400 && err.message === NOT_JSON)
    return gateServerErrorReply(faults, err, requestId, undefined, readings);
  let e = err;
  for (const [name, [status, type]] of Object.entries(RETYPE)) {
    if (faults.has(name) && e.status === status) e = new HttpError(status, e.message, e.code, type as HttpError['type'], e.headers);
  }
  // Validation errors are joined with "; " where they are raised; the fault re-joins them with ", ".
  const joined = readings?.groupedParts && e.status === 400 ? groupedMessage(e.message) : e.message;
  const message = faults.has('err-validation-joined-comma') && e.status === 400 ? joined.split('; ').join(', ') : joined === e.message ? undefined : joined;
  return envelopeReply(faults, e, requestId, message, readings);
}

/** Leak faults: a 500 whose message is one line of internals a blacklist of stack frames and exception names misses. */
const LEAKED_TEXT: Record<string, string> = {
  'err-5xx-leaks-js-error': "Cannot read properties of undefined (reading 'id')",
  'err-5xx-leaks-db-host': 'connect ECONNREFUSED 10.0.0.5:5432',
  'err-5xx-leaks-sql-error': 'duplicate key value violates unique constraint "customers_email_key"',
};

/** The answer to an unexpected exception: 500 server_error with a generic message (the profile's reference.serverErrorMessage, if any). */
export function gateServerErrorReply(faults: ActiveFaults, thrown: unknown, requestId: string, generic?: string, readings?: GateErrorReadings): Reply {
  const err = new HttpError(500, 'internal', 'internal_error', 'server_error');
  const leaked = Object.entries(LEAKED_TEXT).find(([name]) => faults.has(name));
  if (leaked) return envelopeReply(faults, err, requestId, leaked[1], readings);
  if (!faults.has('err-5xx-leaks-stack')) return envelopeReply(faults, err, requestId, generic, readings);
  const e = thrown as Error | undefined;
  return envelopeReply(faults, err, requestId, e?.stack ?? `${e?.name ?? 'Error'}: ${e?.message ?? String(thrown)}`, readings);
}

export const area: GateArea = {
  name: 'errors',
  faults: [
    {
      name: 'err-envelope-no-status-code',
      service: 'gate',
      requirements: ['GATE-ERR-ENVELOPE'],
      description: 'The error envelope lacks statusCode.',
      suite: 'conformance',
    },
    {
      name: 'err-request-id-header-mismatch',
      service: 'gate',
      requirements: ['GATE-ERR-REQUEST-ID-HEADER'],
      description: 'X-Request-Id on errors differs from the envelope request_id.',
      suite: 'conformance',
    },
    {
      name: 'err-code-empty',
      service: 'gate',
      requirements: ['GATE-ERR-CODE-FALLBACK'],
      description: 'Error envelopes carry code "" instead of a code (or the type).',
      suite: 'conformance',
    },
    {
      name: 'err-validation-joined-comma',
      service: 'gate',
      requirements: ['GATE-ERR-VALIDATION-JOINED'],
      description: 'A 400 reporting several validation errors joins them with ", " instead of "; ".',
      suite: 'conformance',
    },
    {
      name: 'err-400-type-bad-request',
      service: 'gate',
      requirements: ['GATE-ERR-400-INVALID-REQUEST'],
      description: '400 answers carry type bad_request.',
      suite: 'conformance',
    },
    {
      name: 'err-401-type-forbidden',
      service: 'gate',
      requirements: ['GATE-ERR-401-UNAUTHORIZED'],
      description: '401 answers carry type forbidden.',
      suite: 'conformance',
    },
    {
      name: 'err-403-type-unauthorized',
      service: 'gate',
      requirements: ['GATE-ERR-403-FORBIDDEN'],
      description: '403 answers carry type unauthorized.',
      suite: 'conformance',
    },
    {
      name: 'err-404-type-missing',
      service: 'gate',
      requirements: ['GATE-ERR-404-NOT-FOUND'],
      description: '404 answers carry type missing.',
      suite: 'conformance',
    },
    {
      name: 'err-409-type-invalid',
      service: 'gate',
      requirements: ['GATE-ERR-409-CONFLICT'],
      description: '409 answers carry type invalid_request.',
      suite: 'conformance',
    },
    {
      name: 'err-5xx-leaks-stack',
      service: 'gate',
      requirements: ['GATE-ERR-5XX-SCRUBBED'],
      description: 'A 500 (an unexpected exception) carries the exception text and stack trace as its message instead of a generic text.',
      suite: 'conformance',
    },
    {
      name: 'err-malformed-json-500',
      service: 'gate',
      requirements: ['GATE-ERR-400-INVALID-REQUEST'],
      description: 'A request body that is not JSON (truncated) is answered with a scrubbed 500 server_error instead of 400 invalid_request.',
      suite: 'conformance',
    },
    {
      name: 'err-unknown-id-400',
      service: 'gate',
      requirements: ['GATE-ERR-404-NOT-FOUND'],
      description: 'GET /gate_sessions/{id} of a well-formed id naming no session answers 400 (invalid id) instead of 404.',
      suite: 'conformance',
    },
    {
      name: 'err-5xx-leaks-js-error',
      service: 'gate',
      requirements: ['GATE-ERR-5XX-SCRUBBED'],
      description: `A 500's message is the JavaScript error text (one line, no stack): "${LEAKED_TEXT['err-5xx-leaks-js-error']}".`,
      suite: 'conformance',
    },
    {
      name: 'err-5xx-leaks-db-host',
      service: 'gate',
      requirements: ['GATE-ERR-5XX-SCRUBBED'],
      description: `A 500's message names the database host and port it failed to reach: "${LEAKED_TEXT['err-5xx-leaks-db-host']}".`,
      suite: 'conformance',
    },
    {
      name: 'err-5xx-leaks-sql-error',
      service: 'gate',
      requirements: ['GATE-ERR-5XX-SCRUBBED'],
      description: `A 500's message is the database's error text: '${LEAKED_TEXT['err-5xx-leaks-sql-error']}'.`,
      suite: 'conformance',
    },
    {
      name: 'err-code-is-message',
      service: 'gate',
      requirements: ['GATE-ERR-CODE-FALLBACK'],
      description: 'Every error carries its human message as code (prose, not a machine code).',
      suite: 'conformance',
    },
    {
      name: 'err-code-other-type',
      service: 'gate',
      requirements: ['GATE-ERR-CODE-FALLBACK'],
      description: 'Every error but a 400 carries code invalid_request: the name of another type than its own, neither specific nor its fallback.',
      suite: 'conformance',
    },
    {
      name: 'err-code-per-request',
      service: 'gate',
      requirements: ['GATE-ERR-CODE-FALLBACK'],
      description: 'Every error code carries a per-answer counter (resource_missing_7, then resource_missing_8): two answers to the same error differ in code.',
      suite: 'conformance',
    },
    {
      name: 'err-request-id-counter',
      service: 'gate',
      requirements: ['GATE-ERR-REQUEST-ID-UUID'],
      description: 'request_id (and X-Request-Id) count up as req-1, req-2, …: per request, but not UUID-like.',
      suite: 'conformance',
    },
  ],
  register() {
    // No routes: the pipeline (server.ts) answers every Gate error through gateErrorReply / gateServerErrorReply.
  },
};
