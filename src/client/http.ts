// undici-based client for both services: bearer auth, Idempotency-Key,
// pacing, bounded retries of unexpected 429/5xx/network errors, and a full
// capture of every exchange for the reports.
import { randomUUID } from 'node:crypto';
import { Agent, request as undiciRequest } from 'undici';
import { backoffDelayMs, retryAfterMs, sleep } from './backoff.js';
import type { Pacer } from './pacer.js';
import { redact } from './redact.js';
import { TransportError, type ApiClient, type ApiRequest, type Exchange } from './types.js';

export interface ClientOptions {
  service: 'gate' | 'pools';
  baseUrl: string;
  label: string;
  secretKey?: string;
  publishableKey?: string;
  pacer?: Pacer;
  /** Per-request timeout, default 15000 ms. */
  timeoutMs?: number;
  retry?: { maxRetries: number; baseDelayMs: number; maxDelayMs: number };
  onExchange?(ex: Exchange): void;
  /** A request that got no HTTP answer (before any retry): the run's outage detector listens. */
  onTransportError?(e: TransportError): void;
  /** Time accounting of the caller (a check's budget): pacer waits are rampart's, answers are the target's. */
  track?: WaitTracker;
  onRetry?(info: { attempt: number; delayMs: number; exchange?: Exchange; error?: TransportError }): void;
}

export interface WaitTracker {
  harness<T>(what: string, p: Promise<T>): Promise<T>;
  target<T>(what: string, p: Promise<T>): Promise<T>;
}

const untracked: WaitTracker = { harness: (_w, p) => p, target: (_w, p) => p };

export const DEFAULT_TIMEOUT_MS = 15_000;
// Statuses the spec advises retrying with the same Idempotency-Key; 4xx other than 429 are answers, not accidents.
const RETRYABLE_STATUS = (s: number) => s === 429 || s >= 500;
const RETRYABLE_TRANSPORT = new Set<TransportError['kind']>(['refused', 'timeout', 'reset', 'other']);

let sharedAgent: Agent | undefined;
/** One keep-alive Agent per process. */
function agent(): Agent {
  sharedAgent ??= new Agent({ keepAliveTimeout: 10_000, keepAliveMaxTimeout: 30_000, connections: 128, connect: { timeout: 10_000 } });
  return sharedAgent;
}

export function createApiClient(opts: ClientOptions): ApiClient {
  const base = opts.baseUrl.replace(/\/+$/, '');
  const defaultTimeout = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;

  function buildUrl(req: ApiRequest): string {
    const path = req.path.startsWith('/') ? req.path : `/${req.path}`;
    let url = base + path;
    if (req.query) {
      const qs = new URLSearchParams();
      for (const [k, v] of Object.entries(req.query)) if (v !== undefined) qs.append(k, String(v));
      const s = qs.toString();
      if (s) url += (url.includes('?') ? '&' : '?') + s;
    }
    return url;
  }

  function authHeader(req: ApiRequest): string | undefined {
    const a = req.auth ?? 'secret';
    if (a === 'none') return undefined;
    if (a === 'secret') return opts.secretKey ? `Bearer ${opts.secretKey}` : undefined;
    if (a === 'publishable') return opts.publishableKey ? `Bearer ${opts.publishableKey}` : undefined;
    if ('bearer' in a) return `Bearer ${a.bearer}`;
    return a.header;
  }

  /** The API key this request carries (secret or publishable: each is a client of the rate limits), which is what the pacer counts against. */
  function pacingKey(req: ApiRequest): string | undefined {
    const a = req.auth ?? 'secret';
    if (a === 'secret') return opts.secretKey;
    if (a === 'publishable') return opts.publishableKey;
    if (typeof a === 'object' && 'bearer' in a && /^(sk|pk)_/.test(a.bearer)) return a.bearer;
    return undefined;
  }

  async function once(req: ApiRequest, url: string, headers: Record<string, string>, bodyText: string | Buffer | undefined, idempotencyKey: string | undefined, retries: number): Promise<Exchange> {
    const timeoutMs = req.timeoutMs ?? defaultTimeout;
    const ac = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      ac.abort();
    }, timeoutMs);
    const startedAt = Date.now();
    const t0 = performance.now();
    try {
      const res = await undiciRequest(url, { method: req.method, headers, body: bodyText, dispatcher: agent(), signal: ac.signal });
      const text = await res.body.text();
      const resHeaders: Record<string, string> = {};
      for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) resHeaders[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : String(v);
      return {
        request: {
          method: req.method,
          url,
          headers,
          bodyText: bodyText === undefined ? undefined : Buffer.isBuffer(bodyText) ? bodyText.toString('utf8') : bodyText,
          idempotencyKey,
        },
        status: res.statusCode,
        headers: resHeaders,
        bodyText: text,
        json: parseJson(text),
        requestId: resHeaders['x-request-id'],
        startedAt,
        durationMs: performance.now() - t0,
        retries,
      };
    } catch (e) {
      throw toTransportError(e, req.method, url, opts.baseUrl, timedOut ? timeoutMs : undefined);
    } finally {
      clearTimeout(timer);
    }
  }

  async function request(req: ApiRequest): Promise<Exchange> {
    const url = buildUrl(req);
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': `rampart (${opts.label})` };
    const auth = authHeader(req);
    if (auth !== undefined) headers['authorization'] = auth;
    let body: string | Buffer | undefined;
    if (req.rawBody !== undefined) body = req.rawBody;
    else if (req.body !== undefined) body = JSON.stringify(req.body);
    if (body !== undefined) headers['content-type'] = 'application/json';
    const idempotencyKey = req.idempotencyKey === true ? randomUUID() : typeof req.idempotencyKey === 'string' ? req.idempotencyKey : undefined;
    if (idempotencyKey !== undefined) headers['idempotency-key'] = idempotencyKey;
    // Caller headers win (including deliberately odd content types or auth).
    for (const [k, v] of Object.entries(req.headers ?? {})) headers[k.toLowerCase()] = v;

    const retryCfg = req.retry === false ? undefined : opts.retry;
    const maxRetries = retryCfg ? Math.max(0, Math.min(retryCfg.maxRetries, 10)) : 0;
    const key = req.pace !== false && opts.pacer ? pacingKey(req) : undefined;

    const track = opts.track ?? untracked;
    const what = `${req.method} ${req.path.split('?')[0]}`;
    for (let attempt = 0; ; attempt++) {
      if (key) await track.harness(`rate-window pacing of ${opts.label} before ${what}`, opts.pacer!.acquire(key, req.method, req.path.split('?')[0]!));
      let ex: Exchange | undefined;
      let err: TransportError | undefined;
      try {
        ex = await track.target(`an answer to ${what}`, once(req, url, headers, body, idempotencyKey, attempt));
      } catch (e) {
        if (!(e instanceof TransportError)) throw e;
        err = e;
        opts.onTransportError?.(e);
      }
      const retryable = ex ? RETRYABLE_STATUS(ex.status) : RETRYABLE_TRANSPORT.has(err!.kind);
      if (!retryable || attempt >= maxRetries || !retryCfg) {
        if (err) throw err;
        opts.onExchange?.(ex!);
        return ex!;
      }
      let delayMs = backoffDelayMs(attempt + 1, retryCfg);
      const ra = ex ? retryAfterMs(ex.headers['retry-after']) : undefined;
      // Honour Retry-After, still bounded by the configured ceiling.
      if (ra !== undefined) delayMs = Math.max(delayMs, Math.min(ra, retryCfg.maxDelayMs));
      opts.onRetry?.({ attempt: attempt + 1, delayMs, exchange: ex, error: err });
      await track.target(`a retry back-off after ${ex ? ex.status : err!.kind} on ${what}`, sleep(delayMs));
    }
  }

  return {
    baseUrl: opts.baseUrl,
    label: opts.label,
    request,
    get: (path, query, extra) => request({ ...extra, method: 'GET', path, query }),
    post: (path, body, extra) => request({ ...extra, method: 'POST', path, body }),
    patch: (path, body, extra) => request({ ...extra, method: 'PATCH', path, body }),
    delete: (path, extra) => request({ ...extra, method: 'DELETE', path }),
  };
}

function parseJson(text: string): any {
  if (!text || !/^\s*[[{"\d\-tfn]/.test(text)) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function errorCode(e: unknown): string {
  const seen = new Set<unknown>();
  let cur: any = e;
  // Walk the cause chain: undici wraps the socket error.
  for (let i = 0; cur && i < 5 && !seen.has(cur); i++) {
    seen.add(cur);
    if (typeof cur.code === 'string' && cur.code !== 'UND_ERR_SOCKET') return cur.code;
    cur = cur.cause;
  }
  return typeof (e as any)?.code === 'string' ? (e as any).code : '';
}

/** Map a low-level failure to one line that says what failed and what to do. */
export function toTransportError(e: unknown, method: string, url: string, baseUrl: string, timeoutMs?: number): TransportError {
  const what = `${method} ${redact(url)}`;
  if (timeoutMs !== undefined) return new TransportError('timeout', `${what}: timeout after ${timeoutMs} ms — the target did not answer; check it is healthy or raise the timeout`, url);
  const code = errorCode(e);
  const msg = redact(String((e as any)?.message ?? e));
  if (code === 'ECONNREFUSED') return new TransportError('refused', `${what}: connection refused — is the target running at ${redact(baseUrl)}?`, url);
  if (['ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL'].includes(code))
    return new TransportError('unreachable', `${what}: host unreachable (${code}) — check the base URL ${redact(baseUrl)} and the network/DNS`, url);
  if (/CERT|TLS|SSL|SELF_SIGNED|UNABLE_TO_VERIFY/i.test(code) || /certificate|tls|ssl/i.test(msg))
    return new TransportError('tls', `${what}: TLS handshake failed (${code || msg}) — check the certificate or use the right http/https scheme`, url);
  if (['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ETIMEDOUT'].includes(code))
    return new TransportError('timeout', `${what}: timeout (${code}) — the target did not answer in time; check it is healthy`, url);
  if (['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED'].includes(code) || /other side closed|socket hang up/i.test(msg))
    return new TransportError('reset', `${what}: connection reset by the target — it closed the socket before answering; check its logs`, url);
  return new TransportError('other', `${what}: request failed (${code || msg.split('\n')[0]}) — check the target at ${redact(baseUrl)}`, url);
}
