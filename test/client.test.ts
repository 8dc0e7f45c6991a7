// The undici client against a local node:http server on an ephemeral port.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { backoffDelayMs, retryAfterMs } from '../src/client/backoff.js';
import { describeAnswer } from '../src/client/answer.js';
import { createApiClient } from '../src/client/http.js';
import { PAUSED_PRESSURE, Pacer } from '../src/client/pacer.js';
import { RouteRefusesEveryRequest } from '../src/client/routeRefusal.js';
import { TransportError, type Exchange } from '../src/client/types.js';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

let server: Server;
let base: string;
let seen: Seen[] = [];
/** Answers for the next requests, consumed in order; then 200 {"ok":true}. */
let script: ((res: ServerResponse) => void)[] = [];
const SECRET = 'sk_test_' + 'c'.repeat(32);
const PUBLISHABLE = 'pk_test_' + 'p'.repeat(32);

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      const next = script.shift();
      if (next) return next(res);
      res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': `req_${seen.length}` });
      res.end('{"ok":true}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
});
beforeEach(() => {
  seen = [];
  script = [];
});

const status =
  (code: number, body = '{"error":{"type":"api_error"}}') =>
  (res: ServerResponse) => {
    res.writeHead(code, { 'content-type': 'application/json' });
    res.end(body);
  };

function client(extra: Partial<Parameters<typeof createApiClient>[0]> = {}) {
  return createApiClient({
    service: 'gate',
    baseUrl: base,
    label: 'test',
    secretKey: SECRET,
    publishableKey: PUBLISHABLE,
    retry: { maxRetries: 3, baseDelayMs: 5, maxDelayMs: 20 },
    ...extra,
  });
}

describe('createApiClient', () => {
  it('sends bearer auth, JSON body and query; captures status, lower-case headers, body, json, X-Request-Id, timing', async () => {
    const c = client();
    const ex = await c.post('/gate_sessions', { amount: '10.00' }, { query: { a: 1, b: undefined, c: 'x y' } });
    expect(seen[0]!.url).toBe('/v1/gate_sessions?a=1&c=x+y');
    expect(seen[0]!.headers.authorization).toBe(`Bearer ${SECRET}`);
    expect(seen[0]!.headers['content-type']).toBe('application/json');
    expect(JSON.parse(seen[0]!.body)).toEqual({ amount: '10.00' });
    expect(ex.status).toBe(200);
    expect(ex.headers['content-type']).toBe('application/json');
    expect(ex.bodyText).toBe('{"ok":true}');
    expect(ex.json).toEqual({ ok: true });
    expect(ex.requestId).toBe('req_1');
    expect(ex.retries).toBe(0);
    expect(ex.durationMs).toBeGreaterThanOrEqual(0);
    expect(ex.startedAt).toBeGreaterThan(0);
    expect(ex.request.url).toBe(`${base}/gate_sessions?a=1&c=x+y`);
  });

  it('auth variants: publishable, none, explicit bearer, raw header', async () => {
    const c = client();
    await c.get('/x', undefined, { auth: 'publishable' });
    await c.get('/x', undefined, { auth: 'none' });
    await c.get('/x', undefined, { auth: { bearer: 'sk_live_zzz' } });
    await c.get('/x', undefined, { auth: { header: 'Basic abc' } });
    expect(seen.map((s) => s.headers.authorization)).toEqual([`Bearer ${PUBLISHABLE}`, undefined, 'Bearer sk_live_zzz', 'Basic abc']);
  });

  it('Idempotency-Key: generated UUID, given value, none by default', async () => {
    const c = client();
    const gen = await c.post('/quotes', {}, { idempotencyKey: true });
    const given = await c.post('/quotes', {}, { idempotencyKey: 'my-key-1' });
    await c.post('/quotes', {});
    expect(gen.request.idempotencyKey).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(seen[0]!.headers['idempotency-key']).toBe(gen.request.idempotencyKey);
    expect(given.request.idempotencyKey).toBe('my-key-1');
    expect(seen[1]!.headers['idempotency-key']).toBe('my-key-1');
    expect(seen[2]!.headers['idempotency-key']).toBeUndefined();
  });

  it('retries 503 then 200 with the same Idempotency-Key and records the retry', async () => {
    script = [status(503), status(429)];
    const retries: { attempt: number; delayMs: number; status?: number }[] = [];
    const exchanges: Exchange[] = [];
    const c = client({
      onRetry: (i) => retries.push({ attempt: i.attempt, delayMs: i.delayMs, status: i.exchange?.status }),
      onExchange: (e) => exchanges.push(e),
    });
    const ex = await c.post('/quotes', { a: 1 }, { idempotencyKey: true });
    expect(ex.status).toBe(200);
    expect(ex.retries).toBe(2);
    expect(seen).toHaveLength(3);
    expect(new Set(seen.map((s) => s.headers['idempotency-key'])).size).toBe(1);
    expect(retries.map((r) => [r.attempt, r.status])).toEqual([
      [1, 503],
      [2, 429],
    ]);
    for (const r of retries) expect(r.delayMs).toBeGreaterThan(0);
    for (const r of retries) expect(r.delayMs).toBeLessThanOrEqual(20);
    expect(exchanges).toHaveLength(1);
  });

  it('gives up after maxRetries and returns the last answer', async () => {
    script = [status(500), status(500), status(500), status(500), status(500)];
    const ex = await client().get('/x');
    expect(ex.status).toBe(500);
    expect(ex.retries).toBe(3);
    expect(seen).toHaveLength(4);
  });

  it('never retries 400/401/403/404/409, nor when the request opts out', async () => {
    for (const code of [400, 401, 403, 404, 409]) {
      seen = [];
      script = [status(code)];
      const ex = await client().post('/x', {});
      expect(ex.status).toBe(code);
      expect(seen).toHaveLength(1);
    }
    seen = [];
    script = [status(503)];
    expect((await client().get('/x', undefined, { retry: false })).status).toBe(503);
    expect(seen).toHaveLength(1);
  });

  it('a non-JSON body gives json undefined and keeps the raw text; rawBody is sent as-is', async () => {
    script = [
      (res) => {
        res.writeHead(502, { 'content-type': 'text/html' });
        res.end('<html>bad gateway</html>');
      },
    ];
    const ex = await client({ retry: undefined }).post('/x', undefined, { rawBody: '{"broken":' });
    expect(ex.status).toBe(502);
    expect(ex.json).toBeUndefined();
    expect(ex.bodyText).toBe('<html>bad gateway</html>');
    expect(seen[0]!.body).toBe('{"broken":');
    expect(seen[0]!.headers['content-type']).toBe('application/json');
  });

  it('timeout → TransportError kind "timeout" naming the limit and how to raise it', async () => {
    script = [() => undefined];
    const err = await client()
      .get('/slow', undefined, { timeoutMs: 200, retry: false })
      .catch((e) => e);
    expect(err).toBeInstanceOf(TransportError);
    expect(err.kind).toBe('timeout');
    expect(err.message).toContain('no answer within 0.2 s (per attempt) × 1 attempt = 0.2 s');
    expect(err.message).toContain('--request-timeout');
    expect(err.message).toContain('harness.requestTimeoutMs');
    expect(err.message.split('\n')).toHaveLength(1);
  });

  it('a timeout after retries states the real budget: per attempt × attempts', async () => {
    script = [() => undefined, () => undefined];
    const c = client({ timeoutMs: 150, retry: { maxRetries: 1, baseDelayMs: 5, maxDelayMs: 10 } });
    const err = await c.get('/slow').catch((e) => e);
    expect(err.kind).toBe('timeout');
    expect(err.message).toContain('no answer within 0.15 s (per attempt) × 2 attempts = 0.3 s');
    expect(seen).toHaveLength(2);
  });

  it('invalid JSON under a JSON content type is "invalid JSON body (…first bytes…)", not a non-JSON body', async () => {
    script = [status(200, '{"object":"list","data":[{"id":')];
    const ex = await client().get('/x');
    expect(ex.json).toBeUndefined();
    expect(ex.jsonError).toMatch(/^invalid JSON body \(.+; starts "\{\\"object\\":\\"list\\",/);
    expect(describeAnswer(ex)).toMatchObject({ kind: 'invalid-json' });
    expect(describeAnswer(ex)!.text).toContain('invalid JSON body');
  });

  it('a 3xx is never followed and is described as a redirect with its Location', async () => {
    script = [
      (res) => {
        res.writeHead(302, { location: 'https://elsewhere.example/v1/x' });
        res.end();
      },
    ];
    const ex = await client().get('/x');
    expect(ex.status).toBe(302);
    expect(seen).toHaveLength(1);
    const p = describeAnswer(ex)!;
    expect(p.kind).toBe('redirect');
    expect(p.text).toContain('a redirect (302) to https://elsewhere.example/v1/x');
  });

  it('connection refused → TransportError kind "refused" asking whether the target runs at the URL', async () => {
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((r) => probe.close(() => r()));
    const dead = `http://127.0.0.1:${port}/v1`;
    const c = createApiClient({ service: 'pools', baseUrl: dead, label: 't', secretKey: SECRET });
    const err = await c.get('/pools').catch((e) => e);
    expect(err).toBeInstanceOf(TransportError);
    expect(err.kind).toBe('refused');
    expect(err.message).toContain(`is the target running at ${dead}?`);
    expect(err.message).not.toContain(SECRET);
  });

  it('retries a network error with the same key, then surfaces the TransportError', async () => {
    script = [(res) => res.socket!.destroy(), (res) => res.socket!.destroy()];
    const errors: string[] = [];
    const c = client({ retry: { maxRetries: 1, baseDelayMs: 5, maxDelayMs: 10 }, onRetry: (i) => errors.push(i.error?.kind ?? '') });
    const err = await c.post('/x', {}, { idempotencyKey: 'k-net' }).catch((e) => e);
    expect(err).toBeInstanceOf(TransportError);
    expect(err.kind).toBe('reset');
    expect(errors).toEqual(['reset']);
    expect(seen.map((s) => s.headers['idempotency-key'])).toEqual(['k-net', 'k-net']);
  });

  it('consults the pacer with the API key (secret or publishable: each is a rate-limit client) before every attempt, unless pace is false or no key is sent', async () => {
    const calls: string[] = [];
    const pacer = new Pacer();
    const orig = pacer.acquire.bind(pacer);
    pacer.acquire = (key, method, path, signal) => {
      calls.push(`${key === SECRET ? 'secret' : key === PUBLISHABLE ? 'publishable' : key} ${method} ${path}`);
      return orig(key, method, path, signal);
    };
    script = [status(503)];
    const c = client({ pacer });
    await c.post('/gate_sessions', {});
    await c.get('/gate_sessions', undefined, { pace: false });
    await c.post('/embed/bootstrap', {}, { auth: 'publishable' });
    await c.post('/embed/refresh', {}, { auth: 'none' });
    expect(calls).toEqual(['secret POST /gate_sessions', 'secret POST /gate_sessions', 'publishable POST /embed/bootstrap']);
  });
});

describe('backoff', () => {
  it('every delay lies in [cap/2, cap] with cap = min(max, base·2^(attempt−1))', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 1, max: 5000 }),
        fc.integer({ min: 1, max: 60_000 }),
        fc.double({ min: 0, max: 0.999999, noNaN: true }),
        (attempt, base, max, r) => {
          const cap = Math.min(max, base * 2 ** (Math.min(attempt, 30) - 1));
          const d = backoffDelayMs(attempt, { baseDelayMs: base, maxDelayMs: max }, () => r);
          return d >= cap / 2 && d <= cap;
        },
      ),
    );
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    expect(retryAfterMs('2')).toBe(2000);
    expect(retryAfterMs(new Date(10_000).toUTCString(), 4_000)).toBe(6_000);
    expect(retryAfterMs('soon')).toBeUndefined();
    expect(retryAfterMs(undefined)).toBeUndefined();
  });
});

describe('Retry-After per key', () => {
  /** A pacer on a fake clock: sleeping advances time at once. */
  function fakePacer() {
    const clock = { now: 1_000_000, slept: [] as number[] };
    const pauses: { untilMs: number; pausedMs: number }[] = [];
    const pacer = new Pacer({
      now: () => clock.now,
      sleep: async (ms) => {
        clock.slept.push(ms);
        clock.now += ms;
      },
      margin: 0,
      onPause: (e) => pauses.push({ untilMs: e.untilMs, pausedMs: e.pausedMs }),
    });
    return { clock, pacer, pauses };
  }
  const tooMany = (retryAfter: string) => (res: ServerResponse) => {
    res.writeHead(429, { 'content-type': 'application/json', 'retry-after': retryAfter });
    res.end('{"type":"rate_limited","code":"rate_limited","message":"slow down","request_id":"r","doc_url":null,"statusCode":429}');
  };

  it('a paced 429 with Retry-After (seconds) pauses the key; the retry and every other request on the key wait until then', async () => {
    const { clock, pacer, pauses } = fakePacer();
    script = [tooMany('30')];
    const c = client({ pacer });
    const start = clock.now;
    const ex = await c.get('/gate_sessions/gs_1');
    expect(ex.status).toBe(200);
    expect(pauses).toEqual([{ untilMs: start + 30_000, pausedMs: 30_000 }]);
    // The retry was sent only once the pause had ended (fake clock: the pacer slept it).
    expect(clock.now).toBeGreaterThanOrEqual(start + 30_000);
    // The refused request, its witness on a route of another group (accepted: only this route refused), the retry.
    expect(seen.map((r) => `${r.method} ${r.url}`)).toEqual(['GET /v1/gate_sessions/gs_1', 'GET /v1/dashboard/webhook-settings', 'GET /v1/gate_sessions/gs_1']);
    expect(pacer.pausedUntil(SECRET)).toBeUndefined();
  });

  it('an HTTP-date Retry-After pauses until that date', async () => {
    const { clock, pacer } = fakePacer();
    const until = clock.now + 45_000;
    script = [tooMany(new Date(until).toUTCString())];
    let pausedUntil: number | undefined;
    pacer.onPause((e) => (pausedUntil = e.untilMs));
    await client({ pacer }).get('/gate_sessions/gs_1');
    // HTTP dates have second precision.
    expect(Math.abs(pausedUntil! - until)).toBeLessThan(1000);
  });

  it('a wait beyond the budget: TransportError "rate-limited", one line, and nothing more is sent on the key', async () => {
    const { pacer } = fakePacer();
    // The key is limited as a whole: the witness on another route is refused too.
    script = [tooMany('3600'), tooMany('3600')];
    const c = client({ pacer, rateLimitBudgetMs: 120_000 });
    const err = await c.get('/gate_sessions/gs_1').catch((e) => e);
    expect(err).toBeInstanceOf(TransportError);
    expect(err.kind).toBe('rate-limited');
    expect(err.message).toMatch(/^rate limited by the target for 3600 s: wait or add keys/);
    expect(err.message.split('\n')).toHaveLength(1);
    expect(err.message).not.toContain(SECRET);
    expect(pacer.pausedUntil(SECRET)).toBeDefined();
    expect(pacer.pressure(SECRET)).toBeGreaterThanOrEqual(PAUSED_PRESSURE);
    // Another request on the paused key is refused without being sent.
    const again = await c.post('/quotes', {}).catch((e) => e);
    expect(again.kind).toBe('rate-limited');
    expect(seen).toHaveLength(2);
    // The publishable key is another rate-limit client: not paused.
    expect(pacer.pausedUntil(PUBLISHABLE)).toBeUndefined();
  });

  it('a paced request refused with 429 was not processed: it waits and goes again whatever its retry setting; beyond the budget it ends rate-limited, the key paused', async () => {
    const { pacer } = fakePacer();
    script = [tooMany('3600'), tooMany('3600')];
    const c = client({ pacer, rateLimitBudgetMs: 120_000 });
    const err = await c.get('/gate_sessions/gs_1', undefined, { retry: false }).catch((e) => e);
    expect(err.kind).toBe('rate-limited');
    expect(pacer.pausedUntil(SECRET)).toBeDefined();
    const next = await c.get('/gate_sessions/gs_1').catch((e) => e);
    expect(next.kind).toBe('rate-limited');
    expect(seen).toHaveLength(2);
  });

  it("a route refusing every paced request while the key's other routes are accepted: its long Retry-After holds the key a minute window at most, and the refusal a minute window later proves it", async () => {
    const { clock, pacer, pauses } = fakePacer();
    // The route: 429 with an hour's Retry-After every time; the witness on another route: 200 each time.
    script = [tooMany('3600'), status(200, '{}'), tooMany('3600'), status(200, '{}')];
    const c = client({ pacer, rateLimitBudgetMs: 120_000 });
    const start = clock.now;
    const err = await c.get('/dashboard/volume').catch((e) => e);
    expect(err).toBeInstanceOf(RouteRefusesEveryRequest);
    expect(err).toMatchObject({ method: 'GET', path: '/dashboard/volume', group: 'read60' });
    expect(err.message).toMatch(/^GET \/dashboard\/volume refused every paced request with 429 \(2 over 6\d s/);
    expect(err.message).not.toContain(SECRET);
    // Never paused for the announced hour (that would have stopped a one-key run as "rate limited by the target").
    expect(pauses.every((p) => p.pausedMs <= 61_000)).toBe(true);
    expect(clock.now - start).toBeLessThan(120_000);
    expect(seen.map((r) => r.url)).toEqual([
      '/v1/dashboard/volume',
      '/v1/dashboard/webhook-settings',
      '/v1/dashboard/volume',
      '/v1/dashboard/webhook-settings',
    ]);
  });

  it('unannounced, the same proof comes from the usual waits (a default window, then a minute) before any hour-long one', async () => {
    const { clock, pacer } = fakePacer();
    const bare = (res: ServerResponse) => {
      res.writeHead(429, { 'content-type': 'application/json' });
      res.end('{"type":"rate_limited"}');
    };
    const ok = status(200, '{}');
    script = [bare, ok, bare, ok, bare, ok];
    const start = clock.now;
    const err = await client({ pacer, rateLimitBudgetMs: 120_000 })
      .post('/gate_sessions', {})
      .catch((e) => e);
    expect(err).toBeInstanceOf(RouteRefusesEveryRequest);
    expect(err.group).toBe('write10');
    expect(clock.now - start).toBeGreaterThanOrEqual(70_000);
    expect(seen).toHaveLength(6);
  });

  it('a route refused once (another client of the key filled its window) is sent again and answers: no failure', async () => {
    const { pacer } = fakePacer();
    script = [tooMany('20'), status(200, '{}')];
    const ex = await client({ pacer, rateLimitBudgetMs: 120_000 }).get('/dashboard/volume');
    expect(ex.status).toBe(200);
    expect(seen).toHaveLength(3);
  });

  it('a paced 429 within the budget is sent again after the wait, even with retry: false, and its real answer comes back', async () => {
    const { pacer } = fakePacer();
    script = [tooMany('1')];
    const c = client({ pacer, rateLimitBudgetMs: 120_000 });
    const ex = await c.get('/gate_sessions/gs_1', undefined, { retry: false });
    expect(ex.status).toBe(200);
    // The request, its witness, the request again.
    expect(seen).toHaveLength(3);
  });

  it('the run-wide signal cancels a request waiting out a pause in the pacer, unsent', async () => {
    const pacer = new Pacer();
    pacer.pause(SECRET, Date.now() + 60_000);
    const ac = new AbortController();
    const c = client({ pacer, signal: ac.signal });
    const t0 = Date.now();
    const pending = c.get('/gate_sessions/gs_1').catch((e) => e);
    setTimeout(() => ac.abort(new Error('run ending')), 50);
    const err = await pending;
    expect(err.message).toBe('run ending');
    expect(Date.now() - t0).toBeLessThan(2_000);
    expect(seen).toHaveLength(0);
  });

  it('a 429 the harness provoked (pace: false) neither pauses the key nor fails rate-limited', async () => {
    const { pacer, pauses } = fakePacer();
    script = [tooMany('3600')];
    const ex = await client({ pacer }).get('/gate_sessions/gs_1', undefined, { pace: false, retry: false });
    expect(ex.status).toBe(429);
    expect(pauses).toEqual([]);
    expect(pacer.pausedUntil(SECRET)).toBeUndefined();
  });

  it('without a pacer the client itself waits out a Retry-After within the budget before retrying', async () => {
    script = [tooMany('0.3')];
    const t0 = Date.now();
    const ex = await client().get('/x');
    expect(ex.status).toBe(200);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(290);
    expect(seen).toHaveLength(2);
  });
});
