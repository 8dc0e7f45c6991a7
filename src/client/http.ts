// undici-based client for both services: bearer auth, Idempotency-Key,
// pacing, bounded retries of unexpected 429/5xx/network errors, bounded reads
// (size and time), the target's Retry-After honoured per key, and a full
// capture of every exchange for the reports. Redirects are never followed.
import { randomUUID } from 'node:crypto';
import { request as undiciRequest } from 'undici';
import { dispatcherFor } from './transport.js';
import { registerIssuedSecrets } from '../secrets/registry.js';
import { redact } from '../secrets/redact.js';
import { backoffDelayMs, retryAfterMs, sleep } from './backoff.js';
import { GATE_RATE_WINDOWS, gateRouteGroup } from '../model/limits.js';
import { proven, quietMsFor, RouteRefusesEveryRequest, witnessAccepted, witnessFor, type Refusal } from './routeRefusal.js';
import { TargetClock } from './targetClock.js';
import {
  DEFAULT_BODY_TIMEOUT_MS,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_RATE_LIMIT_BUDGET_SECONDS,
  DEFAULT_TIMEOUT_MS,
  formatBytes,
  formatSeconds,
} from './limits.js';
import type { ChainStep, Pacer, Reservation, Settle } from './pacer.js';
import { TransportError, type ApiClient, type ApiRequest, type Exchange } from './types.js';
import { rateLimited, timeoutBudget, toTransportError } from './transportErrors.js';

export { DEFAULT_TIMEOUT_MS } from './limits.js';
export { toTransportError } from './transportErrors.js';

export interface ClientOptions {
  service: 'gate' | 'pools';
  baseUrl: string;
  label: string;
  secretKey?: string;
  publishableKey?: string;
  pacer?: Pacer;
  /** Per-attempt time to the response headers, default 15000 ms (harness.requestTimeoutMs, --request-timeout). */
  timeoutMs?: number;
  /** Largest response body read, default 8 MiB (harness.maxBodyBytes, --max-body-bytes). */
  maxBodyBytes?: number;
  /** Time allowed for the whole body after the headers, default 20000 ms (harness.bodyTimeoutMs). */
  bodyTimeoutMs?: number;
  /**
   * The run's rate-limit budget, default 120000 ms (harness.rateLimitBudgetSeconds): a paced request
   * the target asks (Retry-After) to wait longer than this fails 'rate-limited' instead of waiting.
   */
  rateLimitBudgetMs?: number;
  /** Run-wide cancellation: aborts requests in flight and waits in the pacer. */
  signal?: AbortSignal;
  retry?: { maxRetries: number; baseDelayMs: number; maxDelayMs: number };
  onExchange?(ex: Exchange): void;
  /** A request that got no HTTP answer (before any retry): the run's outage detector listens. */
  onTransportError?(e: TransportError): void;
  /** Time accounting of the caller (a check's budget): pacer waits are rampart's, answers are the target's. */
  track?: WaitTracker;
  onRetry?(info: { attempt: number; delayMs: number; exchange?: Exchange; error?: TransportError }): void;
  /** The target's clock, learnt from every answer's Date header (shared by every client of one service in a run). */
  clock?: TargetClock;
  /** PEM of a private CA the target's certificate chains to (harness.caFile), trusted beside the system roots. */
  caPem?: string;
}

export interface WaitTracker {
  harness<T>(what: string, p: Promise<T>): Promise<T>;
  target<T>(what: string, p: Promise<T>): Promise<T>;
}

/** How many times a paced request refused with 429 is sent again after the wait (whatever its retry setting). */
const PACED_429_RESENDS = 4;

/** Without Retry-After: wait out the documented windows in turn, shortest first (10 s, 1 min, 1 h, at the declared scale). */
function unannouncedWaitMs(n: number, scale: number): number {
  const windows = [GATE_RATE_WINDOWS.first.windowMs, GATE_RATE_WINDOWS.minute.windowMs, GATE_RATE_WINDOWS.hour.windowMs];
  return windows[Math.min(n, windows.length - 1)]! * scale;
}

/**
 * How many times a pools request refused with 429 is sent again (whatever its retry setting). A pools 429 is the
 * velocity cap or "throttle", and the rate of the throttle is not shown: a throttled request was not processed, and
 * one the cap refused is refused again (idempotent retries are excluded from the cap), so resending is safe. A check
 * that provokes the cap marks its request deliberate (pace: false) and gets the 429 at once. The wait is the
 * target's Retry-After, else a growing back-off.
 */
const POOLS_THROTTLE_RESENDS = 4;
const POOLS_THROTTLE_WAIT_MS = 500;

const untracked: WaitTracker = { harness: (_w, p) => p, target: (_w, p) => p };

/** The reservation of a client without windows to pace: nothing to hold, nothing to give back. */
const unpaced: Reservation = { key: '', remaining: () => 0, within: (fn) => fn(), release: () => undefined };

// Statuses the spec advises retrying with the same Idempotency-Key; 4xx other than 429 are answers, not accidents.
const RETRYABLE_STATUS = (s: number) => s === 429 || s >= 500;
// A body too large or too slow would only be so again; a rate-limited request must not be resent.
const RETRYABLE_TRANSPORT = new Set<TransportError['kind']>(['refused', 'timeout', 'reset', 'other']);

/** Our own per-attempt timeouts (not undici's connect timeout), whose message the retry loop restates with the real budget. */
const headerTimeouts = new WeakSet<TransportError>();

export function createApiClient(opts: ClientOptions): ApiClient {
  const base = opts.baseUrl.replace(/\/+$/, '');
  const defaultTimeout = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const budgetMs = opts.rateLimitBudgetMs ?? DEFAULT_RATE_LIMIT_BUDGET_SECONDS * 1000;
  // Pauses live in the pacer's clock (a fake one in tests).
  const now = () => opts.pacer?.now() ?? Date.now();
  const clock = opts.clock ?? new TargetClock();

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

  async function once(
    req: ApiRequest,
    url: string,
    headers: Record<string, string>,
    bodyText: string | Buffer | undefined,
    idempotencyKey: string | undefined,
    retries: number,
    signal?: AbortSignal,
  ): Promise<Exchange> {
    const timeoutMs = req.timeoutMs ?? defaultTimeout;
    const maxBody = req.maxBodyBytes ?? opts.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    const bodyTimeoutMs = req.bodyTimeoutMs ?? opts.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS;
    const what = `${req.method} ${redact(url)}`;
    if (signal?.aborted) throw signal.reason ?? new Error('aborted');
    const ac = new AbortController();
    let timedOut: 'headers' | 'body' | undefined;
    const onAbort = () => ac.abort(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    let timer = setTimeout(() => {
      timedOut = 'headers';
      ac.abort();
    }, timeoutMs);
    const startedAt = Date.now();
    const t0 = performance.now();
    let status = 0;
    let received = 0;
    try {
      const res = await undiciRequest(url, { method: req.method, headers, body: bodyText, dispatcher: dispatcherFor(opts.caPem), signal: ac.signal });
      const headersAt = startedAt + (performance.now() - t0);
      status = res.statusCode;
      clearTimeout(timer);
      // The whole body gets one budget: a target dripping a byte a second cannot hold a check forever.
      timer = setTimeout(() => {
        timedOut = 'body';
        ac.abort();
      }, bodyTimeoutMs);
      const resHeaders: Record<string, string> = {};
      for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) resHeaders[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : String(v);
      const tooLarge = () =>
        new TransportError(
          'too-large',
          `${what}: body larger than ${formatBytes(maxBody)} (status ${status}) — not read further; if that is legitimate, raise --max-body-bytes or harness.maxBodyBytes`,
          url,
        );
      const declared = Number(resHeaders['content-length']);
      if (Number.isFinite(declared) && declared > maxBody) {
        res.body.destroy();
        throw tooLarge();
      }
      // Read through the limit and stop there (destroying the body), so memory stays flat whatever the target sends.
      const chunks: Buffer[] = [];
      for await (const chunk of res.body) {
        received += (chunk as Buffer).length;
        if (received > maxBody) {
          res.body.destroy();
          throw tooLarge();
        }
        chunks.push(chunk as Buffer);
      }
      clock.observe(startedAt, headersAt, resHeaders['date']);
      const text = Buffer.concat(chunks).toString('utf8');
      registerIssuedSecrets(text);
      const { json, jsonError } = readJson(text, resHeaders['content-type']);
      return {
        request: {
          method: req.method,
          url,
          headers,
          bodyText: bodyText === undefined ? undefined : Buffer.isBuffer(bodyText) ? bodyText.toString('utf8') : bodyText,
          idempotencyKey,
        },
        status,
        headers: resHeaders,
        bodyText: text,
        json,
        ...(jsonError ? { jsonError } : {}),
        requestId: resHeaders['x-request-id'],
        startedAt,
        durationMs: performance.now() - t0,
        retries,
      };
    } catch (e) {
      if (e instanceof TransportError) throw e;
      if (signal?.aborted) throw signal.reason ?? e;
      if (timedOut === 'body')
        throw new TransportError(
          'body-timeout',
          `${what}: body still arriving after ${formatSeconds(bodyTimeoutMs)} (status ${status}, ${received} byte${received === 1 ? '' : 's'} so far) — the target answers too slowly; check its health, or raise harness.bodyTimeoutMs`,
          url,
        );
      const err = toTransportError(e, req.method, url, opts.baseUrl, timedOut === 'headers' ? timeoutMs : undefined);
      if (timedOut === 'headers') headerTimeouts.add(err);
      throw err;
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }

  /**
   * A pools 429 the harness did not provoke (the throttle: the pools routes' request-rate limits are not shown): wait as
   * told — or, unannounced, from half a second, doubling — then the request goes again; past the run's budget it ends
   * rate limited.
   */
  async function waitOutPoolsThrottle(
    ex: Exchange,
    o: { announcedMs?: number; resends: number; attempt: number; what: string; url: string; pathOnly: string; paced: boolean; signal?: AbortSignal },
  ): Promise<void> {
    const waitMs = o.announcedMs ?? POOLS_THROTTLE_WAIT_MS * 2 ** o.resends;
    if (waitMs > budgetMs) {
      opts.onExchange?.(ex);
      throw rateLimited(o.what, waitMs, budgetMs, `${ex.status}${ex.headers['retry-after'] ? ` with Retry-After ${ex.headers['retry-after']}` : ''}`, o.url);
    }
    opts.onRetry?.({ attempt: o.attempt + 1, delayMs: waitMs, exchange: ex });
    // A paced key waits in the pacer (paused when the target announced the wait); otherwise, here.
    if (!(o.paced && o.announcedMs !== undefined))
      await (opts.track ?? untracked).target(`the pools throttle's wait on ${o.pathOnly}`, sleep(waitMs, o.signal));
  }

  /**
   * A Gate request rampart cannot pace (keyless, or a key the profile does not hold) refused with 429 was not processed:
   * rate limits are per client, and its answer (a 401, say) is still to come. Past its own retries (or with none), wait
   * as told — unannounced, a window of growing length — and it goes again; past the budget it ends rate limited, never
   * as the answer a check judges.
   */
  async function waitOutUnpaced429(
    ex: Exchange,
    o: { announcedMs?: number; resends: number; attempt: number; what: string; url: string; pathOnly: string; signal?: AbortSignal },
  ): Promise<void> {
    const waitMs = o.announcedMs ?? unannouncedWaitMs(o.resends, opts.pacer?.windowScale ?? 1);
    if (waitMs > budgetMs) {
      opts.onExchange?.(ex);
      throw rateLimited(o.what, waitMs, budgetMs, `${ex.status}${ex.headers['retry-after'] ? ` with Retry-After ${ex.headers['retry-after']}` : ''}`, o.url);
    }
    opts.onRetry?.({ attempt: o.attempt + 1, delayMs: waitMs, exchange: ex });
    await (opts.track ?? untracked).harness(`the target's rate-limit wait on ${o.pathOnly}`, sleep(waitMs, o.signal));
  }

  /** A request's headers and body as sent: auth, JSON, its Idempotency-Key (a new one for `true`), the caller's headers last. */
  function outgoing(req: ApiRequest): { headers: Record<string, string>; body?: string | Buffer; idempotencyKey?: string } {
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
    return { headers, body, idempotencyKey };
  }

  async function request(req: ApiRequest): Promise<Exchange> {
    const url = buildUrl(req);
    const what = `${req.method} ${redact(url)}`;
    const signal = req.signal ?? opts.signal;
    const { headers, body, idempotencyKey } = outgoing(req);
    const retryCfg = req.retry === false ? undefined : opts.retry;
    const maxRetries = retryCfg ? Math.max(0, Math.min(retryCfg.maxRetries, 10)) : 0;
    // pace: false marks a 429 the harness provokes on purpose (rate-limit checks): it neither pauses the key nor counts against the target.
    const deliberate = req.pace === false;
    const key = !deliberate && opts.pacer ? pacingKey(req) : undefined;
    const perAttemptMs = req.timeoutMs ?? defaultTimeout;
    let headerTimeoutCount = 0;
    let [paced429, unpaced429, throttled429] = [0, 0, 0];
    const refusals: Refusal[] = [];

    const track = opts.track ?? untracked;
    const pathOnly = `${req.method} ${req.path.split('?')[0]}`;
    for (let attempt = 0; ; attempt++) {
      let settle: Settle | undefined;
      if (key) {
        // Never send into an announced wait, and never sit out one longer than the run's budget.
        const until = opts.pacer!.pausedUntil(key);
        if (until !== undefined && until - now() > budgetMs) throw rateLimited(what, until - now(), budgetMs, 'an earlier Retry-After paused this key', url);
        settle = await track.harness(
          `rate-window pacing of ${opts.label} before ${pathOnly}`,
          opts.pacer!.acquire(key, req.method, req.path.split('?')[0]!, signal),
        );
      }
      let ex: Exchange | undefined;
      let err: TransportError | undefined;
      try {
        ex = await track.target(`an answer to ${pathOnly}`, once(req, url, headers, body, idempotencyKey, attempt, signal));
        settle?.(undefined, ex.status);
      } catch (e) {
        settle?.();
        if (!(e instanceof TransportError)) throw e;
        err = e;
        if (headerTimeouts.has(e)) headerTimeoutCount++;
        opts.onTransportError?.(e);
      }
      const announcedMs = ex && ex.status === 429 && !deliberate ? retryAfterMs(ex.headers['retry-after'], now()) : undefined;
      const pacedRefusal = !!ex && ex.status === 429 && !!key && opts.pacer!.paceWindows;
      // A paced Gate request refused: a witness on another route of the key tells a route refusing alone from a key
      // limited as a whole (routeRefusal.ts); proven over a quiet minute window, it is the target's violation.
      const refusal = pacedRefusal ? await witnessRefusal(key!, req, ex!, signal) : undefined;
      if (refusal) {
        refusals.push(refusal);
        if (proven(refusals, quietMsFor(opts.pacer!.windowScale))) {
          opts.onExchange?.(ex!);
          throw new RouteRefusesEveryRequest(
            req.method,
            req.path.split('?')[0]!,
            gateRouteGroup(req.method, req.path),
            refusals,
            quietMsFor(opts.pacer!.windowScale),
          );
        }
      }
      // The target announced a wait: pause the key for every request on it — no longer than a quiet minute window
      // when the witness showed the key's other routes accepted (only this route refuses: the wait is not the key's).
      const pauseMs = announcedMs !== undefined && witnessAccepted(refusal) ? Math.min(announcedMs, quietMsFor(opts.pacer!.windowScale)) : announcedMs;
      if (pauseMs !== undefined && key) opts.pacer!.pause(key, now() + pauseMs);
      // A request paced to the documented windows (Gate) refused with 429 was not processed: the target's
      // windows knew of requests rampart did not (an earlier run, another client of this key). (A pools 429
      // is also a business answer — the velocity cap — and is returned as it came.) Wait as told — or, unannounced, a window of growing
      // length — and send it again, whatever the request's own retry setting: its answer is still to come.
      if (pacedRefusal && ex && key && paced429 < PACED_429_RESENDS) {
        const waitMs = pauseMs ?? unannouncedWaitMs(paced429, opts.pacer!.windowScale);
        if (waitMs > budgetMs) {
          opts.onExchange?.(ex);
          throw rateLimited(what, waitMs, budgetMs, `${ex.status}${ex.headers['retry-after'] ? ` with Retry-After ${ex.headers['retry-after']}` : ''}`, url);
        }
        paced429++;
        if (announcedMs === undefined) opts.pacer!.pause(key, now() + waitMs);
        opts.onRetry?.({ attempt: attempt + 1, delayMs: waitMs, exchange: ex });
        continue;
      }
      // A 429 the harness did not provoke, on a request rampart cannot pace (waitOutUnpaced429) or on pools: waited out, sent again.
      if (
        ex &&
        ex.status === 429 &&
        !deliberate &&
        (opts.service === 'pools' ? throttled429 < POOLS_THROTTLE_RESENDS : !key && unpaced429 < PACED_429_RESENDS && !(retryCfg && attempt < maxRetries))
      ) {
        const o = { announcedMs, attempt, what, url, pathOnly, signal };
        if (opts.service === 'pools') await waitOutPoolsThrottle(ex, { ...o, resends: throttled429++, paced: !!key });
        else await waitOutUnpaced429(ex, { ...o, resends: unpaced429++ });
        continue;
      }
      const retryable = ex ? RETRYABLE_STATUS(ex.status) : RETRYABLE_TRANSPORT.has(err!.kind);
      const retrying = retryable && attempt < maxRetries && !!retryCfg;
      // A retry would have to sit out the wait: beyond the budget, give up instead (a request not retried gets its 429).
      if (retrying && announcedMs !== undefined && announcedMs > budgetMs) {
        opts.onExchange?.(ex!);
        throw rateLimited(what, announcedMs, budgetMs, `${ex!.status} with Retry-After ${ex!.headers['retry-after']}`, url);
      }
      if (!retrying) {
        if (err) throw err.kind === 'timeout' && headerTimeouts.has(err) ? timeoutBudget(what, perAttemptMs, headerTimeoutCount, url) : err;
        opts.onExchange?.(ex!);
        return ex!;
      }
      let delayMs = backoffDelayMs(attempt + 1, retryCfg);
      if (announcedMs !== undefined) {
        // A paced key waits in the pacer (with everything else on it); without a pacer, wait here.
        delayMs = key ? 0 : announcedMs;
      } else {
        const ra = ex ? retryAfterMs(ex.headers['retry-after']) : undefined;
        // A Retry-After on a 5xx or a provoked 429 is honoured within the retry ceiling.
        if (ra !== undefined) delayMs = Math.max(delayMs, Math.min(ra, retryCfg.maxDelayMs));
      }
      opts.onRetry?.({ attempt: attempt + 1, delayMs: announcedMs ?? delayMs, exchange: ex, error: err });
      if (delayMs > 0) await track.target(`a retry back-off after ${ex ? ex.status : err!.kind} on ${pathOnly}`, sleep(delayMs, signal));
    }
  }

  /**
   * A paced request's 429, and one witness request on another route of the key sent right after it (inside every
   * window, stamped in the pacer), when the pacer has room for one: what routeRefusal.ts judges on.
   */
  async function witnessRefusal(key: string, req: ApiRequest, refused: Exchange, signal?: AbortSignal): Promise<Refusal> {
    const at = now();
    const w = witnessFor(opts.pacer!, key, req.method, req.path.split('?')[0]!);
    if (!w) return { at, exchange: refused };
    const url = buildUrl({ method: w.method, path: w.path });
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': `rampart (${opts.label})`, authorization: `Bearer ${key}` };
    const settle = opts.pacer!.sendNow(key, w.method, w.path);
    try {
      const witness = await once({ method: w.method, path: w.path }, url, headers, undefined, undefined, 0, signal);
      settle(undefined, witness.status);
      opts.onExchange?.(witness);
      return { at, exchange: refused, witness };
    } catch {
      settle();
      return { at, exchange: refused };
    }
  }

  async function reserve(steps: readonly ChainStep[]): Promise<Reservation> {
    const signal = opts.signal;
    if (!opts.pacer || !opts.secretKey || !steps.length) return unpaced;
    const track = opts.track ?? untracked;
    return track.harness(`a block of ${steps.length} request(s) for a chain on ${opts.label}`, opts.pacer.reserve(opts.secretKey, steps, signal));
  }

  return {
    baseUrl: opts.baseUrl,
    label: opts.label,
    clock,
    reserve,
    request,
    get: (path, query, extra) => request({ ...extra, method: 'GET', path, query }),
    post: (path, body, extra) => request({ ...extra, method: 'POST', path, body }),
    patch: (path, body, extra) => request({ ...extra, method: 'PATCH', path, body }),
    delete: (path, extra) => request({ ...extra, method: 'DELETE', path }),
  };
}

/** JSON content types must parse (else "invalid JSON body (…)"); other bodies are parsed only when they look like JSON. */
function readJson(text: string, contentType: string | undefined): { json?: any; jsonError?: string } {
  const declared = /[/+]json\b/i.test(contentType ?? '');
  if (!text.trim()) return {};
  if (!declared && !/^\s*[[{"\d\-tfn]/.test(text)) return {};
  try {
    return { json: JSON.parse(text) };
  } catch (e) {
    if (!declared) return {};
    // Redact before cutting, so a secret cut in half is still masked.
    const head = redact(text.slice(0, 1024)).slice(0, 40).replace(/\s+/g, ' ');
    return { jsonError: `invalid JSON body (${(e as Error).message.split('\n')[0]}; starts ${JSON.stringify(head)})` };
  }
}
