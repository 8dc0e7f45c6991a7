// The Gate error envelope as every check expects it (Errors): the status, the
// envelope, X-Request-Id equal to request_id, a non-empty code, and the type of
// that status, each under its own requirement id so a report names the rule.
import type { Exchange } from '../../src/client/types.js';
import type { CheckTools, RequirementId } from '../../src/runner/check.js';
import { ERROR_TYPES, ErrorEnvelope } from '../../src/model/schemas/common.js';

/** The error type the Errors table gives each status. */
const TYPE_ID: Record<number, { type: string; id: RequirementId }> = {
  400: { type: 'invalid_request', id: 'GATE-ERR-400-INVALID-REQUEST' },
  401: { type: 'unauthorized', id: 'GATE-ERR-401-UNAUTHORIZED' },
  403: { type: 'forbidden', id: 'GATE-ERR-403-FORBIDDEN' },
  404: { type: 'not_found', id: 'GATE-ERR-404-NOT-FOUND' },
  409: { type: 'conflict', id: 'GATE-ERR-409-CONFLICT' },
};

/** Longest text a "generic internal error text" is taken to be: a sentence or two, never a dump. */
export const GENERIC_TEXT_MAX = 200;

/**
 * What a 5xx message "scrubbed to a generic internal error text" must not carry, by kind. The text itself is
 * not shown, so it is judged by its shape: one short line of plain words. Each kind below is a way a message
 * gives internals away; the envelope's own code, type and request_id are taken out first (a generic text may
 * quote them).
 */
const LEAKS: [kind: string, pattern: RegExp][] = [
  ['a second line', /[\r\n]/],
  ['a stack frame', /\bat\s+(async\s+)?[\w$.<>[\]]+\s+\(|\bat\s+\S+:\d+:\d+|Traceback|goroutine \d|^\s*File "/m],
  [
    'a file path or source location',
    /(^|[\s('"=])(~|\.\.?)?\/(usr|var|home|app|srv|opt|src|tmp|etc|lib|root|Users|workspace|build|dist)\/|[\w-]\/[\w./-]*\.(ts|js|mjs|cjs|py|go|java|rb|php|cs|rs|kt|scala)\b|\.(ts|js|mjs|cjs|py|go|java|rb|php|cs|rs|kt|scala):\d+|[A-Za-z]:\\|node_modules|file:\/\//,
  ],
  [
    'a URL, host, IP address or port',
    // host:port only where the host has a letter (digits and a colon alone are a time: "10:30").
    /\b[a-z][a-z0-9+.-]*:\/\/|\b\d{1,3}(\.\d{1,3}){3}\b|\b[0-9a-f]{0,4}(:[0-9a-f]{0,4}){3,7}\b|\b(?=[\w.-]*[a-z])[\w-]+(\.[\w-]+)*:\d{2,5}\b|\blocalhost\b/i,
  ],
  ['a system error code', /\bE[A-Z]{3,}\b/],
  // Keywords in capitals only: "from", "where" and "update" are plain English words.
  ['SQL', /\b(SELECT|INSERT|UPDATE|DELETE|FROM|WHERE|JOIN|VALUES|RETURNING)\b/],
  [
    'database error text',
    /duplicate key|violates (unique|foreign key|check|not-null|exclusion) constraint|(relation|column|table) "|\bSQLSTATE\b|\bORA-\d|syntax error at or near|\bdeadlock\b|\b(postgres(ql)?|mysql|sqlite|mongo(db)?|redis)\b/i,
  ],
  [
    'an exception or JavaScript error text',
    /\b[A-Z][A-Za-z]*(Error|Exception)\b|\bundefined\b|\bnull\b|\bNaN\b|cannot read propert|is not a function|is not defined|is not iterable|unexpected token|maximum call stack|\(reading '|\bpanic:/i,
  ],
  // Plain words use letters, digits and sentence punctuation; braces, brackets, underscores, backticks, = or | are code.
  [
    'code: an identifier, a member call or a character plain words never use',
    /\b[a-z]+_[a-z0-9_]+\b|\b[a-z]+[A-Z]\w*\b|\w\.\w+\(|[^\p{L}\p{N}\s.,;:!?'"’“”()\-–—…/@&%+#]/u,
  ],
];

/**
 * Times and dates a generic text may carry ("try again at 10:30", "until 2026-05-25T10:30:00Z", "at 3:05 pm"): taken out
 * before the leak patterns run, so their digits and colons never read as a port or an address. A clock time is one or two
 * digits, a colon and two (and seconds), not followed by more digits or colons (an IPv6 address or a host:port stays).
 */
const TIME_OR_DATE =
  /\b\d{4}-\d{2}-\d{2}(?:[T ]\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?(?![\d:])|\b\d{1,2}:\d{2}(?::\d{2})?(?![\d:])(?:\s?[ap]\.?m\b\.?)?/gi;

/** The kinds of internals a 5xx message gives away (empty: a generic text). */
export function leaksIn(message: string, own: { code?: string; type?: string; request_id?: string } = {}): string[] {
  let text = message;
  for (const v of [own.request_id, own.code, own.type]) if (v) text = text.split(v).join(' ');
  text = text.replace(TIME_OR_DATE, ' ');
  const found = LEAKS.filter(([, re]) => re.test(text)).map(([kind]) => kind);
  if (message.length > GENERIC_TEXT_MAX) found.unshift(`more than ${GENERIC_TEXT_MAX} characters`);
  return found;
}

/** How a request id is written: an optional short word prefix (req_…), then its random part. */
export interface RequestIdShape {
  prefix: string | null;
  /** The alphabet the random part uses (judged from its characters). */
  alphabet: 'decimal' | 'hex' | 'base36' | 'base62' | 'base64url';
  /** Characters of the random part, separators (- and _) left out. */
  chars: number;
  /** Random bits those characters can write. */
  bits: number;
}

/**
 * Fewest bits a "UUID-like" id writes: three quarters of a UUID's 128. The spec fixes no alphabet, so every common way of
 * writing about a UUID's worth of random bits passes (32 hex digits, hyphens optional; a ULID's 26 base-32 characters; 22
 * base-62 or base-64url characters; 25 base-36), and a counter, a timestamp or a short code does not.
 */
export const UUID_LIKE_MIN_BITS = 96;

const ALPHABET_SIZE: Record<RequestIdShape['alphabet'], number> = { decimal: 10, hex: 16, base36: 36, base62: 62, base64url: 64 };

/** The shape of a request id: undefined when it is no single token of letters, digits, - and _ (prose, a timestamp). */
export function requestIdShape(id: string): RequestIdShape | undefined {
  if (!/^[A-Za-z0-9_-]+$/.test(id)) return undefined;
  const prefixed = /^([A-Za-z]{1,12})[_-](?=[A-Za-z0-9])/.exec(id);
  const body = prefixed ? id.slice(prefixed[0].length) : id;
  const plain = body.replace(/[-_]/g, '');
  const mixedCase = /[a-z]/.test(plain) && /[A-Z]/.test(plain);
  const alphabet: RequestIdShape['alphabet'] = /^\d*$/.test(plain)
    ? 'decimal'
    : /^[0-9a-f]*$/.test(plain) || /^[0-9A-F]*$/.test(plain)
      ? 'hex'
      : !mixedCase
        ? 'base36'
        : /[-_]/.test(body)
          ? 'base64url'
          : 'base62';
  return { prefix: prefixed ? prefixed[1]! : null, alphabet, chars: plain.length, bits: Math.floor(plain.length * Math.log2(ALPHABET_SIZE[alphabet])) };
}

/** "UUID-like per-request id": one token whose random part writes at least UUID_LIKE_MIN_BITS bits. */
export function isUuidLike(id: string): boolean {
  return (requestIdShape(id)?.bits ?? 0) >= UUID_LIKE_MIN_BITS;
}

/** A machine code is one token: letters, digits and the separators codes use (invalid_limit, idempotency-conflict). */
const MACHINE_CODE = /^[A-Za-z0-9_.:-]+$/;

/**
 * "code: stable machine code; falls back to type". The full list of codes is not shown, so a code the target
 * chose is never judged by its value; what is judged: it is a machine code (one non-empty token, not prose),
 * and it is either specific or the fallback — never the name of another error type than the envelope's.
 */
function expectMachineCode(t: CheckTools, ex: Exchange, env: ErrorEnvelope): void {
  t.expect.that(MACHINE_CODE.test(env.code), 'code is a machine code: one non-empty token (it falls back to type)', {
    requirement: 'GATE-ERR-CODE-FALLBACK',
    actual: env.code,
    exchange: ex,
  });
  const otherType = (ERROR_TYPES as readonly string[]).includes(env.code) && env.code !== env.type;
  t.expect.that(!otherType, `code is specific or falls back to the type (${env.type}), never another type's name`, {
    requirement: 'GATE-ERR-CODE-FALLBACK',
    actual: env.code,
    exchange: ex,
  });
}

/**
 * A documented error answer: `status`, the envelope (GATE-ERR-ENVELOPE), the
 * X-Request-Id header (GATE-ERR-REQUEST-ID-HEADER), a non-empty code
 * (GATE-ERR-CODE-FALLBACK) and the type of that status (GATE-ERR-<status>-*,
 * or `typeRequirement` when the caller proves a more specific rule).
 */
export function expectGateError(t: CheckTools, ex: Exchange, status: number, typeRequirement?: RequirementId): ErrorEnvelope {
  const byStatus = TYPE_ID[status];
  const statusRequirement: RequirementId = typeRequirement ?? byStatus?.id ?? 'GATE-ERR-ENVELOPE';
  t.expect.status(ex, status, statusRequirement);
  // The type first, on the raw body: a wrong type (outside the documented set) is the type rule broken, not the envelope shape.
  const type: unknown = (ex.json as { type?: unknown } | undefined)?.type;
  if (byStatus) t.expect.equal(type, byStatus.type, `type of a ${status}`, { requirement: byStatus.id, exchange: ex });
  if (typeRequirement && byStatus && typeRequirement !== byStatus.id)
    t.expect.equal(type, byStatus.type, `type of a ${status}`, { requirement: typeRequirement, exchange: ex });
  const env = t.expect.schema(ex, ErrorEnvelope, 'GATE-ERR-ENVELOPE');
  t.expect.equal(env.statusCode, ex.status, 'statusCode mirrors the HTTP status', { requirement: 'GATE-ERR-ENVELOPE', exchange: ex });
  t.expect.equal(ex.requestId ?? '(no X-Request-Id header)', env.request_id, 'X-Request-Id header equals the envelope request_id', {
    requirement: 'GATE-ERR-REQUEST-ID-HEADER',
    exchange: ex,
  });
  expectMachineCode(t, ex, env);
  // Which codes the target uses, and whether it falls back to type: the full code list is not shown.
  t.observe('gate-error-code', { status, type: env.type, code: env.code, codeIsType: env.code === env.type });
  return env;
}

/**
 * A 5xx as the Errors table documents it (GATE-ERR-5XX-SCRUBBED): the envelope
 * with type server_error, a message scrubbed to a generic text (leaksIn: one short
 * line of plain words), statusCode and X-Request-Id as on every
 * error. Only a real 5xx may be judged here: the caller has seen one.
 */
export function expectScrubbed5xx(t: CheckTools, ex: Exchange, what: string): ErrorEnvelope {
  const R: RequirementId = 'GATE-ERR-5XX-SCRUBBED';
  t.expect.that(ex.status >= 500 && ex.status < 600, `${what} answered a 5xx`, { requirement: R, expected: '5xx', actual: ex.status, exchange: ex });
  t.expect.equal((ex.json as { type?: unknown } | undefined)?.type, 'server_error', `type of a ${ex.status} (${what})`, { requirement: R, exchange: ex });
  const env = t.expect.schema(ex, ErrorEnvelope, 'GATE-ERR-ENVELOPE');
  const leaks = leaksIn(env.message, env);
  t.expect.that(leaks.length === 0, 'a 5xx message is a short generic internal error text (no stack, path, host, SQL, error text or code)', {
    requirement: R,
    expected: `one line of plain words, at most ${GENERIC_TEXT_MAX} characters`,
    actual: `${leaks.join(', ')}: ${env.message.slice(0, 300)}`,
    exchange: ex,
  });
  t.expect.equal(env.statusCode, ex.status, 'statusCode mirrors the HTTP status', { requirement: 'GATE-ERR-ENVELOPE', exchange: ex });
  t.expect.equal(ex.requestId ?? '(no X-Request-Id header)', env.request_id, 'X-Request-Id header equals the envelope request_id', {
    requirement: 'GATE-ERR-REQUEST-ID-HEADER',
    exchange: ex,
  });
  expectMachineCode(t, ex, env);
  t.observe('gate-5xx-message', { status: ex.status, code: env.code, message: env.message.slice(0, 200) }, 'the generic text itself is not shown');
  return env;
}
