// The pools error envelope as every pools check expects it (Errors): the
// status and (where the spec names one) the code under the rule the check
// proves; the envelope shape, statusCode mirroring the status and X-Request-Id
// equal to request_id under POOLS-ERR-ENVELOPE, so a report names the rule
// that broke. The pools spec lists the error types but, unlike Gate's, maps
// no status to a type: the type is checked against the list (the envelope
// schema) and observed, never required per status.
import type { Exchange } from '../../src/client/types.js';
import type { CheckTools, RequirementId } from '../../src/runner/check.js';
import { ErrorEnvelope } from '../../src/model/schemas/common.js';

export function expectPoolsError(t: CheckTools, ex: Exchange, status: number, opts: { code?: string; requirement: RequirementId }): ErrorEnvelope {
  const { code, requirement } = opts;
  t.expect.status(ex, status, requirement);
  const env = t.expect.schema(ex, ErrorEnvelope, 'POOLS-ERR-ENVELOPE');
  t.expect.equal(env.statusCode, ex.status, 'statusCode mirrors the HTTP status', { requirement: 'POOLS-ERR-ENVELOPE', exchange: ex });
  t.expect.equal(ex.requestId ?? '(no X-Request-Id header)', env.request_id, 'X-Request-Id header equals the envelope request_id', {
    requirement: 'POOLS-ERR-ENVELOPE',
    exchange: ex,
  });
  if (code !== undefined) t.expect.equal(env.code, code, `code of the ${status}`, { requirement, exchange: ex });
  t.observe('pools-error-type', { status, type: env.type, code: env.code }, 'the pools spec maps no status to a type');
  return env;
}
