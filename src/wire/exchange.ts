// What a request and its answer were: the exchange the client captures
// (src/client/http.ts), the runner keeps for a failing check, and the reports
// record (results.json, HAR, reproductions). Ground floor: imports nothing.

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface Exchange {
  request: {
    method: HttpMethod;
    url: string;
    headers: Record<string, string>;
    bodyText?: string;
    idempotencyKey?: string;
  };
  status: number;
  headers: Record<string, string>;
  bodyText: string;
  /** Parsed JSON body, or undefined when the body is empty or not JSON. */
  json: any;
  /** Set when the content type says JSON but the body does not parse: "invalid JSON body (…first bytes…)". */
  jsonError?: string;
  /** X-Request-Id response header. */
  requestId?: string;
  startedAt: number;
  durationMs: number;
  /** How many times the client retried (unexpected 429/5xx/network) before this answer. */
  retries: number;
}
