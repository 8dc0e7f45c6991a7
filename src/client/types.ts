// The client contract every suite uses. Implementation: src/client/http.ts.
// What a request and its answer were (Exchange) is ground-floor data the
// reports share without the client (src/wire/exchange.ts): re-exported here
// for the suites.
import type { Exchange, HttpMethod } from '../wire/exchange.js';
import type { ChainStep, Reservation } from './pacer.js';
import type { TargetClock } from './targetClock.js';

export type { ChainStep, Exchange, HttpMethod, Reservation };

export interface ApiRequest {
  method: HttpMethod;
  /** Path relative to the client's base URL (which ends in /v1), e.g. "/gate_sessions". */
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  /** JSON body; serialised with JSON.stringify. */
  body?: unknown;
  /** Raw body bytes/text sent as-is (malformed-body checks). Overrides body. */
  rawBody?: string | Buffer;
  headers?: Record<string, string>;
  /**
   * Idempotency-Key: true = a fresh UUID, a string = that key, undefined/false = none.
   * The key used is on the returned Exchange.
   */
  idempotencyKey?: boolean | string;
  /**
   * Credential: 'secret' (default) = the client's secret key; 'publishable' = its
   * publishable key; 'none' = no Authorization header; { bearer } = that exact value
   * (malformed/revoked/live keys); { header } = a raw Authorization header value.
   */
  auth?: 'secret' | 'publishable' | 'none' | { bearer: string } | { header: string };
  /** false = bypass the pacer (rate-limit checks only). Default true. */
  pace?: boolean;
  /** false = do not retry unexpected 429/5xx/network errors. Default true. */
  retry?: boolean;
  /** Per-attempt time to the response headers in ms (default: the client's). */
  timeoutMs?: number;
  /** Largest response body read, in bytes (default: the client's). */
  maxBodyBytes?: number;
  /** Time allowed for the whole response body after its headers, in ms (default: the client's). */
  bodyTimeoutMs?: number;
  /** Cancels the request, including a wait in the pacer (the run is ending). */
  signal?: AbortSignal;
}

/**
 * How a request got no usable HTTP answer. 'too-large' and 'body-timeout': the answer's body broke
 * the client's limits; 'rate-limited': the target asked (Retry-After) for a wait longer than the run's budget.
 */
export type TransportErrorKind = 'unreachable' | 'refused' | 'timeout' | 'tls' | 'reset' | 'other' | 'too-large' | 'body-timeout' | 'rate-limited';

/** A transport failure: the request got no HTTP answer. One line, says what to do. */
export class TransportError extends Error {
  constructor(
    readonly kind: TransportErrorKind,
    message: string,
    readonly url: string,
  ) {
    super(message);
    this.name = 'TransportError';
  }
}

export interface ApiClient {
  readonly baseUrl: string;
  readonly label: string;
  /** The target's clock as its answers tell it: judge the target's absolute timestamps on it. */
  readonly clock: TargetClock;
  request(req: ApiRequest): Promise<Exchange>;
  /**
   * Have the pacer grant these requests (on the client's secret key) as one block before the first is sent:
   * the steps of a chain that must all happen inside a lifetime (a signed quote, a session). Requests sent
   * within the reservation take its slots instead of queueing. Time waiting for the block is rampart's own.
   */
  reserve(steps: readonly ChainStep[]): Promise<Reservation>;
  get(path: string, query?: ApiRequest['query'], extra?: Partial<ApiRequest>): Promise<Exchange>;
  post(path: string, body?: unknown, extra?: Partial<ApiRequest>): Promise<Exchange>;
  patch(path: string, body?: unknown, extra?: Partial<ApiRequest>): Promise<Exchange>;
  delete(path: string, extra?: Partial<ApiRequest>): Promise<Exchange>;
}
