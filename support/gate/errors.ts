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
export const LEAK = /\n\s*at |\bat \S+ \(|\.(ts|js|mjs|py|go|java|rb|php):\d+|node_modules|Traceback|Exception\b|(Syntax|Type|Reference|Range)Error|\bSELECT\b|\bINSERT\b/;

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
  const env = t.expect.schema(ex, ErrorEnvelope, 'GATE-ERR-ENVELOPE');
  t.expect.equal(env.statusCode, ex.status, 'statusCode mirrors the HTTP status', { requirement: 'GATE-ERR-ENVELOPE', exchange: ex });
  t.expect.equal(ex.requestId ?? '(no X-Request-Id header)', env.request_id, 'X-Request-Id header equals the envelope request_id', {
    requirement: 'GATE-ERR-REQUEST-ID-HEADER',
    exchange: ex,
  });
  t.expect.that(env.code.length > 0, 'code is a non-empty machine code (it falls back to type)', { requirement: 'GATE-ERR-CODE-FALLBACK', actual: env.code, exchange: ex });
  if (byStatus) t.expect.equal(env.type, byStatus.type, `type of a ${status}`, { requirement: byStatus.id, exchange: ex });
  if (typeRequirement && byStatus && typeRequirement !== byStatus.id) {
    t.expect.equal(env.type, byStatus.type, `type of a ${status}`, { requirement: typeRequirement, exchange: ex });
  }
  // Which codes the target uses, and whether it falls back to type: the full code list is not shown.
  t.observe('gate-error-code', { status, type: env.type, code: env.code, codeIsType: env.code === env.type });
  return env;
}

