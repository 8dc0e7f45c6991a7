// Request helpers shared by the scenarios: bearer auth, idempotency keys and
// the documented error envelope.
import http, { type RefinedResponse, type ResponseType } from 'k6/http';
import { Counter } from 'k6/metrics';
import { uuidv4 } from './uuid.ts';

export type Res = RefinedResponse<ResponseType | undefined>;

// Every status is "expected" for http_req_failed: scenarios judge statuses
// themselves (a 429 is the point of the rate-limit cases).
const ALL_STATUSES = http.expectedStatuses({ min: 100, max: 599 });

/** Requests sent again after a transport error (status 0): the network's doing, not the target's answer. */
const transportRetries = new Counter('rampart_transport_retries');

type CallOptions = { body?: unknown; idempotencyKey?: string | true; tags?: Record<string, string>; timeout?: string };

/**
 * One request; a transport error (no answer: an idle keep-alive connection the server or a proxy closed as it
 * was reused, a reset) is sent once more with the same Idempotency-Key, as the spec's retry advice says, and
 * counted in rampart_transport_retries. Only an answer, or a second transport error, is the result.
 */
export function call(method: string, url: string, key: string, opts: CallOptions = {}): Res {
  const idempotencyKey = opts.idempotencyKey === true ? uuidv4() : opts.idempotencyKey;
  const first = callOnce(method, url, key, { ...opts, idempotencyKey });
  if (first.status !== 0) return first;
  transportRetries.add(1);
  return callOnce(method, url, key, { ...opts, idempotencyKey });
}

/** Exactly one request, whatever happens to it: window probes count every request they send. */
export function callOnce(method: string, url: string, key: string, opts: CallOptions = {}): Res {
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
