// The Gate error envelope as every check expects it (Errors): the status, the
// envelope, X-Request-Id equal to request_id, a non-empty code, and the type of
// that status, each under its own requirement id so a report names the rule.
import type { Exchange } from '../../src/client/types.js';
import type { CheckTools, RequirementId } from '../../src/runner/check.js';
import { ErrorEnvelope } from '../../src/model/schemas/common.js';

/** The error type the Errors table gives each status. */
const TYPE_ID: Record<number, { type: string; id: RequirementId }> = {
  400: { type: 'invalid_request', id: 'GATE-ERR-400-INVALID-REQUEST' },
  401: { type: 'unauthorized', id: 'GATE-ERR-401-UNAUTHORIZED' },
  403: { type: 'forbidden', id: 'GATE-ERR-403-FORBIDDEN' },
  404: { type: 'not_found', id: 'GATE-ERR-404-NOT-FOUND' },
  409: { type: 'conflict', id: 'GATE-ERR-409-CONFLICT' },
};

/** Stack frames, source paths or exception names: what a scrubbed 5xx message must not carry. */
export const LEAK =
  /\n\s*at |\bat \S+ \(|\.(ts|js|mjs|py|go|java|rb|php):\d+|node_modules|Traceback|Exception\b|(Syntax|Type|Reference|Range)Error|\bSELECT\b|\bINSERT\b/;

export const UUID_LIKE = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;

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
  t.expect.that(env.code.length > 0, 'code is a non-empty machine code (it falls back to type)', {
    requirement: 'GATE-ERR-CODE-FALLBACK',
    actual: env.code,
    exchange: ex,
  });
  // Which codes the target uses, and whether it falls back to type: the full code list is not shown.
  t.observe('gate-error-code', { status, type: env.type, code: env.code, codeIsType: env.code === env.type });
  return env;
}

/**
 * A 5xx as the Errors table documents it (GATE-ERR-5XX-SCRUBBED): the envelope
 * with type server_error, a message scrubbed to a generic text (no stack frame,
 * source path, exception name or SQL), statusCode and X-Request-Id as on every
 * error. Only a real 5xx may be judged here: the caller has seen one.
 */
export function expectScrubbed5xx(t: CheckTools, ex: Exchange, what: string): ErrorEnvelope {
  const R: RequirementId = 'GATE-ERR-5XX-SCRUBBED';
  t.expect.that(ex.status >= 500 && ex.status < 600, `${what} answered a 5xx`, { requirement: R, expected: '5xx', actual: ex.status, exchange: ex });
  t.expect.equal((ex.json as { type?: unknown } | undefined)?.type, 'server_error', `type of a ${ex.status} (${what})`, { requirement: R, exchange: ex });
  const env = t.expect.schema(ex, ErrorEnvelope, 'GATE-ERR-ENVELOPE');
  t.expect.that(!LEAK.test(env.message), 'a 5xx message is a generic internal error text (no stack, source path, exception name or query)', {
    requirement: R,
    actual: env.message.slice(0, 300),
    exchange: ex,
  });
  t.expect.equal(env.statusCode, ex.status, 'statusCode mirrors the HTTP status', { requirement: 'GATE-ERR-ENVELOPE', exchange: ex });
  t.expect.equal(ex.requestId ?? '(no X-Request-Id header)', env.request_id, 'X-Request-Id header equals the envelope request_id', {
    requirement: 'GATE-ERR-REQUEST-ID-HEADER',
    exchange: ex,
  });
  t.expect.that(env.code.length > 0, 'code is a non-empty machine code (it falls back to type)', {
    requirement: 'GATE-ERR-CODE-FALLBACK',
    actual: env.code,
    exchange: ex,
  });
  t.observe('gate-5xx-message', { status: ex.status, code: env.code, message: env.message.slice(0, 200) }, 'the generic text itself is not shown');
  return env;
}
