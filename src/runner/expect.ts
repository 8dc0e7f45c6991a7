// Assertions for checks. A failed expectation throws CheckFailed carrying
// what was expected, what came back and the exchange, so the report can show
// the request and response without the check doing anything more.
import { isDeepStrictEqual } from 'node:util';
import type { ZodType } from 'zod';
import type { Exchange } from '../client/types.js';
import { ErrorEnvelope } from '../model/schemas/common.js';
import type { Expectations, RequirementId } from './check.js';

export class CheckFailed extends Error {
  constructor(
    message: string,
    readonly details: { requirement?: RequirementId; expected?: string; actual?: string; exchange?: Exchange } = {},
  ) {
    super(message);
    this.name = 'CheckFailed';
  }
}

export class CheckSkipped extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'CheckSkipped';
  }
}

/** The check ran but could not reach the behaviour it judges on this target: never a pass. */
export class CheckUnverified extends Error {
  constructor(
    readonly reason: string,
    readonly exchange?: Exchange,
  ) {
    super(reason);
    this.name = 'CheckUnverified';
  }
}

/** The run stopped (interrupted, or the target went down) while the check ran: not run, never failed. */
export class CheckNotRun extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'CheckNotRun';
  }
}

export function show(v: unknown, max = 400): string {
  let s: string;
  try {
    s = typeof v === 'string' ? JSON.stringify(v) : (JSON.stringify(v) ?? String(v));
  } catch {
    s = String(v);
  }
  return s.length > max ? `${s.slice(0, max)}…` : s;
}

function describe(ex: Exchange): string {
  return `${ex.request.method} ${new URL(ex.request.url).pathname}`;
}

function bodySummary(ex: Exchange): string {
  if (ex.json !== undefined) return show(ex.json, 300);
  return ex.bodyText ? show(ex.bodyText.slice(0, 300)) : '(empty body)';
}

export const expectations: Expectations = {
  status(ex, expected, requirement) {
    const list = Array.isArray(expected) ? expected : [expected];
    if (!list.includes(ex.status)) {
      throw new CheckFailed(`${describe(ex)} answered ${ex.status}, expected ${list.join(' or ')}`, {
        requirement,
        expected: list.join(' or '),
        actual: `${ex.status} ${bodySummary(ex)}`,
        exchange: ex,
      });
    }
    return ex;
  },

  error(ex, status, type, opts) {
    const { code, requirement } = opts;
    expectations.status(ex, status, requirement);
    const parsed = ErrorEnvelope.safeParse(ex.json);
    if (!parsed.success) {
      throw new CheckFailed(`${describe(ex)} ${status} body is not the documented error envelope`, {
        requirement,
        expected: '{ type, code, message, request_id, doc_url, statusCode }',
        actual: `${bodySummary(ex)} — ${parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}`,
        exchange: ex,
      });
    }
    const env = parsed.data;
    const fail = (what: string, exp: unknown, act: unknown) => {
      throw new CheckFailed(`${describe(ex)} error envelope: ${what}`, { requirement, expected: show(exp), actual: show(act), exchange: ex });
    };
    if (env.type !== type) fail('type', type, env.type);
    if (code !== undefined && env.code !== code) fail('code', code, env.code);
    if (env.statusCode !== ex.status) fail('statusCode must mirror the HTTP status', ex.status, env.statusCode);
    if (ex.requestId !== env.request_id) fail('X-Request-Id header must equal request_id', env.request_id, ex.requestId ?? '(no X-Request-Id header)');
    return ex;
  },

  schema<T>(ex: Exchange, schema: ZodType<T>, requirement: RequirementId): T {
    const parsed = schema.safeParse(ex.json);
    if (!parsed.success) {
      throw new CheckFailed(`${describe(ex)} response does not match the documented shape`, {
        requirement,
        expected: 'the documented fields and types',
        actual: parsed.error.issues
          .slice(0, 6)
          .map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
          .join('; '),
        exchange: ex,
      });
    }
    return parsed.data;
  },

  equal(actual, expected, message, opts) {
    if (!isDeepStrictEqual(actual, expected)) {
      throw new CheckFailed(message, { requirement: opts.requirement, expected: show(expected), actual: show(actual), exchange: opts.exchange });
    }
  },

  that(cond, message, opts): asserts cond {
    if (!cond) {
      throw new CheckFailed(message, {
        requirement: opts.requirement,
        expected: opts.expected === undefined ? undefined : show(opts.expected),
        actual: opts.actual === undefined ? undefined : show(opts.actual),
        exchange: opts.exchange,
      });
    }
  },
};
