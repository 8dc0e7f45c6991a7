// Request helpers shared by the scenarios: bearer auth, idempotency keys and
// the documented error envelope.
import http, { type RefinedResponse, type ResponseType } from 'k6/http';
import { uuidv4 } from './uuid.ts';

export type Res = RefinedResponse<ResponseType | undefined>;

// Every status is "expected" for http_req_failed: scenarios judge statuses
// themselves (a 429 is the point of the rate-limit cases).
const ALL_STATUSES = http.expectedStatuses({ min: 100, max: 599 });

export function call(
  method: string,
  url: string,
  key: string,
  opts: { body?: unknown; idempotencyKey?: string | true; tags?: Record<string, string>; timeout?: string } = {},
): Res {
  const unset = /^\$\{(\w+)\}$/.exec(key);
  if (unset) throw new Error(`environment variable ${unset[1]} is not set: the run config refers to it for a key (see the bundle's README.md)`);
  const headers: Record<string, string> = { Authorization: `Bearer ${key}`, Accept: 'application/json' };
  if (opts.body !== undefined) headers['Content-Type'] = 'application/json';
  if (opts.idempotencyKey) headers['Idempotency-Key'] = opts.idempotencyKey === true ? uuidv4() : opts.idempotencyKey;
  return http.request(method, url, opts.body === undefined ? null : JSON.stringify(opts.body), {
    headers,
    tags: opts.tags,
    timeout: opts.timeout ?? '15s',
    responseCallback: ALL_STATUSES,
  }) as Res;
}

export function json(res: Res): any {
  try {
    return res.body ? JSON.parse(res.body as string) : undefined;
  } catch {
    return undefined;
  }
}

/** The documented error envelope with the given status and type, and X-Request-Id equal to request_id. */
export function isErrorEnvelope(res: Res, status: number, type: string): boolean {
  if (res.status !== status) return false;
  const b = json(res);
  if (!b || typeof b !== 'object') return false;
  const rid = res.headers['X-Request-Id'] ?? res.headers['x-request-id'];
  return (
    b.type === type &&
    typeof b.code === 'string' &&
    typeof b.message === 'string' &&
    typeof b.request_id === 'string' &&
    (b.doc_url === null || typeof b.doc_url === 'string') &&
    b.statusCode === status &&
    rid === b.request_id
  );
}
