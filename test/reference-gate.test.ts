// The embedded Gate target's own areas exercised over HTTP with plain fetch:
// envelopes, auth matrix, sessions and idempotency, embed, branding, webhook
// operations, delivery retries/dead-letter/replay at scaled time, rate limits.
import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadProfile } from '../src/profile/load.js';
import type { GatePartner, Profile } from '../src/profile/schema.js';
import { issueLiveKeys } from '../src/reference/liveKeys.js';
import { startReference, type RunningReference } from '../src/reference/server.js';

// The target issues live keys at start; the same derivation gives them here.
const base = issueLiveKeys(loadProfile('fixtures/profiles/embedded.json'));
const P = (n: number): GatePartner => base.gate.partners[n - 1]!;

/** Functional tests run with rate limits off and a 1/10000 retry schedule (1m → 6 ms). */
const fastProfile: Profile = { ...base, reference: { ...base.reference!, rateLimits: false, timeScale: 0.0001, attemptTimeoutMs: 300 } };

let ref: RunningReference;
let sandbox: string;
let production: string;

beforeAll(async () => {
  ref = await startReference({ profile: fastProfile, ephemeralPorts: true });
  sandbox = ref.urls.gateSandbox;
  production = ref.urls.gateProduction;
});
afterAll(async () => {
  await ref?.close();
});

interface Res {
  status: number;
  headers: Headers;
  body: any;
}

async function call(url: string, method: string, path: string, opts: { key?: string; body?: unknown; headers?: Record<string, string> } = {}): Promise<Res> {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  if (opts.key) headers.authorization = `Bearer ${opts.key}`;
  let body: string | undefined;
  if (opts.body !== undefined) {
    body = typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body);
    headers['content-type'] = 'application/json';
  }
  const r = await fetch(`${url}${path}`, { method, headers, body });
  const text = await r.text();
  return { status: r.status, headers: r.headers, body: text ? JSON.parse(text) : undefined };
}

const sessionBody = { amount: '100.00', currency: 'eur', return_url: 'https://shop.example.test/done' };

async function createSession(p: GatePartner, extra: Record<string, unknown> = {}, key = crypto.randomUUID()): Promise<Res> {
  return call(sandbox, 'POST', '/gate_sessions', { key: p.secretKey, body: { ...sessionBody, ...extra }, headers: { 'idempotency-key': key } });
}

function expectEnvelope(r: Res, status: number, type: string): void {
  expect(r.status).toBe(status);
  expect(r.body).toMatchObject({ type, statusCode: status, doc_url: null });
  expect(typeof r.body.code).toBe('string');
  expect(typeof r.body.message).toBe('string');
  expect(r.headers.get('x-request-id')).toBe(r.body.request_id);
}

interface Received {
  headers: IncomingMessage['headers'];
  body: string;
  at: number;
}

/** A local webhook receiver answering with `answer()` (status code) per request. */
async function startReceiver(answer: (n: number) => number): Promise<{ url: string; got: Received[]; close: () => Promise<void> }> {
  const got: Received[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      got.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() });
      res.writeHead(answer(got.length));
      res.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    got,
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}

async function waitFor<T>(what: () => T | undefined | false, ms = 5000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = what();
    if (v) return v;
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 10));
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function verifySignature(r: Received, secret: string): boolean {
  const sig = String(r.headers['gate-signature']);
  const m = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(sig);
  if (!m) return false;
  const expected = createHmac('sha256', secret).update(`${m[1]}.${r.body}`).digest('hex');
  return expected === m[2] && r.headers['x-gate-timestamp'] === m[1];
}

async function configureWebhook(p: GatePartner, url: string | null): Promise<void> {
  const r = await call(sandbox, 'PATCH', '/dashboard/webhook-settings', { key: p.secretKey, body: { webhook_url: url } });
  expect(r.status).toBe(200);
  expect(r.body.webhook_url).toBe(url);
}

describe('errors and auth', () => {
  it('answers unknown routes with a 404 envelope and X-Request-Id', async () => {
    expectEnvelope(await call(sandbox, 'GET', '/nope', { key: P(1).secretKey }), 404, 'not_found');
  });

  it('applies every 401/403 rule', async () => {
    expectEnvelope(await call(sandbox, 'GET', '/gate_sessions'), 401, 'unauthorized');
    expectEnvelope(await call(sandbox, 'GET', '/gate_sessions', { key: 'sk_test_short' }), 401, 'unauthorized');
    expectEnvelope(await call(sandbox, 'GET', '/gate_sessions', { key: `sk_test_${'A'.repeat(32)}` }), 401, 'unauthorized');
    expectEnvelope(await call(sandbox, 'GET', '/gate_sessions', { headers: { authorization: `Basic ${P(1).secretKey}` } }), 401, 'unauthorized');
    expectEnvelope(await call(sandbox, 'GET', '/gate_sessions', { key: P(1).revokedSecretKey }), 403, 'forbidden');
    expectEnvelope(await call(sandbox, 'GET', '/gate_sessions', { key: P(1).liveSecretKey }), 403, 'forbidden');
    expectEnvelope(await call(production, 'GET', '/gate_sessions', { key: P(1).secretKey }), 403, 'forbidden');
    expectEnvelope(await call(sandbox, 'GET', '/gate_sessions', { key: P(1).publishableKey }), 403, 'forbidden');
    expect((await call(production, 'GET', '/gate_sessions', { key: P(1).liveSecretKey })).status).toBe(200);
    expect((await call(sandbox, 'GET', '/gate_sessions', { key: P(1).secretKey })).status).toBe(200);
  });

  it('scopes sessions by partner and environment: foreign is 404', async () => {
    const s = await createSession(P(2));
    expect(s.status).toBe(201);
    expectEnvelope(await call(sandbox, 'GET', `/gate_sessions/${s.body.id}`, { key: P(3).secretKey }), 404, 'not_found');
    expectEnvelope(await call(sandbox, 'POST', `/gate_sessions/${s.body.id}/cancel`, { key: P(3).secretKey }), 404, 'not_found');
    expectEnvelope(await call(production, 'GET', `/gate_sessions/${s.body.id}`, { key: P(2).liveSecretKey }), 404, 'not_found');
  });
});

describe('sessions', () => {
  it('creates a session: 201, gsec_ secret only at creation, currency uppercased, metadata verbatim', async () => {
    const metadata = { order: 'A-1', nested: { n: 1, list: [true, null] } };
    const r = await createSession(P(4), { metadata, flow: 'on_ramp', user_reference: 'u-1' });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      object: 'gate_session',
      partner_id: 'gate-04',
      mode: 'test',
      amount: '100.00',
      currency: 'EUR',
      status: 'open',
      metadata,
      kyc_pre_verified: false,
      cancel_url: null,
      flow: 'on_ramp',
    });
    expect(r.body.client_secret).toMatch(/^gsec_/);
    const lifetime = Date.parse(r.body.expires_at) - Date.parse(r.body.created_at);
    expect(lifetime).toBe(fastProfile.reference!.sessionLifetimeSeconds * 1000);
    const g = await call(sandbox, 'GET', `/gate_sessions/${r.body.id}`, { key: P(4).secretKey });
    expect(g.status).toBe(200);
    expect(g.body.client_secret).toBeUndefined();
    expect(g.body.metadata).toEqual(metadata);
  });

  it('validates the body with 400s joined by "; "', async () => {
    const r = await call(sandbox, 'POST', '/gate_sessions', {
      key: P(4).secretKey,
      body: { currency: 'eu' },
      headers: { 'idempotency-key': crypto.randomUUID() },
    });
    expectEnvelope(r, 400, 'invalid_request');
    expect(r.body.message.split('; ').length).toBeGreaterThanOrEqual(3);
    expectEnvelope(
      await call(sandbox, 'POST', '/gate_sessions', { key: P(4).secretKey, body: '{not json', headers: { 'idempotency-key': crypto.randomUUID() } }),
      400,
      'invalid_request',
    );
  });

  it('idempotency: replay returns the original, another body gives 409, missing key gives 400', async () => {
    const key = crypto.randomUUID();
    const a = await createSession(P(5), {}, key);
    const b = await createSession(P(5), {}, key);
    expect(b.status).toBe(201);
    expect(b.body.id).toBe(a.body.id);
    expect(b.body.client_secret).toBe(a.body.client_secret);
    expectEnvelope(await createSession(P(5), { amount: '200.00' }, key), 409, 'conflict');
    expectEnvelope(await call(sandbox, 'POST', '/gate_sessions', { key: P(5).secretKey, body: sessionBody }), 400, 'invalid_request');
    // The same key is independent per partner.
    const other = await createSession(P(6), {}, key);
    expect(other.status).toBe(201);
    expect(other.body.id).not.toBe(a.body.id);
  });

  it('kyc_package: accepted for a KYC-trusted partner, ignored otherwise', async () => {
    const trusted = await createSession(P(1), { kyc_package: { provider: 'x', ref: 'k1' } });
    expect(trusted.body.kyc_pre_verified).toBe(true);
    const untrusted = await createSession(P(6), { kyc_package: { provider: 'x', ref: 'k1' } });
    expect(untrusted.body.kyc_pre_verified).toBe(false);
  });

  it('lists newest first with starting_after, has_more and url', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await createSession(P(7))).body.id);
    const page1 = await call(sandbox, 'GET', '/gate_sessions?limit=3', { key: P(7).secretKey });
    expect(page1.body).toMatchObject({ object: 'list', has_more: true, url: '/v1/gate_sessions' });
    expect(page1.body.data.map((s: any) => s.id)).toEqual([ids[4], ids[3], ids[2]]);
    const page2 = await call(sandbox, 'GET', `/gate_sessions?limit=3&starting_after=${ids[2]}`, { key: P(7).secretKey });
    expect(page2.body.data.map((s: any) => s.id)).toEqual([ids[1], ids[0]]);
    expect(page2.body.has_more).toBe(false);
    expect(page2.body.data[0].client_secret).toBeUndefined();
  });

  it('cancel: open → cancelled; 409 on cancelled, completed and expired', async () => {
    const p = P(8);
    const s = (await createSession(p)).body;
    const c = await call(sandbox, 'POST', `/gate_sessions/${s.id}/cancel`, { key: p.secretKey });
    expect(c.status).toBe(200);
    expect(c.body.status).toBe('cancelled');
    expectEnvelope(await call(sandbox, 'POST', `/gate_sessions/${s.id}/cancel`, { key: p.secretKey }), 409, 'conflict');

    const done = (await createSession(p)).body;
    const comp = await call(sandbox, 'POST', `/_sandbox/gate_sessions/${done.id}/complete`, { key: p.secretKey, body: {} });
    expect(comp.body.status).toBe('completed');
    expect(comp.body.tx_refid).toMatch(/^tx_/);
    expectEnvelope(await call(sandbox, 'POST', `/gate_sessions/${done.id}/cancel`, { key: p.secretKey }), 409, 'conflict');

    const exp = (await createSession(p)).body;
    await call(sandbox, 'POST', `/_sandbox/gate_sessions/${exp.id}/expire`, { key: p.secretKey, body: {} });
    // Retrieve never changes status.
    expect((await call(sandbox, 'GET', `/gate_sessions/${exp.id}`, { key: p.secretKey })).body.status).toBe('open');
    const boot = await call(sandbox, 'POST', '/embed/bootstrap', {
      key: p.publishableKey,
      body: { clientSecret: exp.client_secret },
      headers: { origin: p.allowedOrigins![0]! },
    });
    expect(boot.status).toBe(409);
    expect((await call(sandbox, 'GET', `/gate_sessions/${exp.id}`, { key: p.secretKey })).body.status).toBe('expired');
    expectEnvelope(await call(sandbox, 'POST', `/gate_sessions/${exp.id}/cancel`, { key: p.secretKey }), 409, 'conflict');
  });

  it('sandbox helpers exist only on the sandbox base', async () => {
    expect((await call(production, 'POST', '/_sandbox/gate_sessions/gs_x/complete', { key: P(1).liveSecretKey, body: {} })).status).toBe(404);
  });
});

describe('events', () => {
  it('signs events; created, cancelled, completed (tx_refid) and expired exactly once', async () => {
    const p = P(9);
    const rx = await startReceiver(() => 200);
    try {
      await configureWebhook(p, rx.url);
      const a = (await createSession(p)).body;
      await call(sandbox, 'POST', `/gate_sessions/${a.id}/cancel`, { key: p.secretKey });
      const b = (await createSession(p)).body;
      await call(sandbox, 'POST', `/_sandbox/gate_sessions/${b.id}/complete`, { key: p.secretKey, body: {} });
      const c = (await createSession(p)).body;
      await call(sandbox, 'POST', `/_sandbox/gate_sessions/${c.id}/expire`, { key: p.secretKey, body: {} });
      for (let i = 0; i < 3; i++) {
        await call(sandbox, 'POST', '/embed/bootstrap', {
          key: p.publishableKey,
          body: { clientSecret: c.client_secret },
          headers: { origin: p.allowedOrigins![0]! },
        });
      }
      await waitFor(() => rx.got.length >= 6);
      await sleep(100);
      const events = rx.got.map((g) => JSON.parse(g.body));
      const types = events.map((e) => `${e.type}:${e.data.id}`);
      expect(types.filter((t) => t === `gate_session.expired:${c.id}`)).toHaveLength(1);
      expect(types).toContain(`gate_session.cancelled:${a.id}`);
      const completed = events.find((e) => e.type === 'gate_session.completed');
      expect(completed.data.tx_refid).toMatch(/^tx_/);
      for (const g of rx.got) {
        expect(verifySignature(g, p.webhookSecret!)).toBe(true);
        const e = JSON.parse(g.body);
        expect(g.headers['x-gate-event-id']).toBe(e.id);
        expect(g.headers['x-gate-event-type']).toBe(e.type);
        expect(Number.isInteger(e.created_at)).toBe(true);
        expect(e.data.client_secret).toBeUndefined();
      }
      const tx = await call(sandbox, 'GET', `/transactions/${completed.data.tx_refid}`, { key: p.secretKey });
      expect(tx.status).toBe(200);
    } finally {
      await configureWebhook(p, null);
      await rx.close();
    }
  });
});

describe('embed', () => {
  const p = P(10);
  const origin = p.allowedOrigins![0]!;

  it('bootstraps with an exact origin or referer and sends the partner CSP on every answer', async () => {
    const s = (await createSession(p)).body;
    const ok = await call(sandbox, 'POST', '/embed/bootstrap', { key: p.publishableKey, body: { clientSecret: s.client_secret }, headers: { origin } });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ session_id: s.id, partner_id: p.name, mode: 'test', amount: '100.00', currency: 'EUR' });
    expect(ok.headers.get('content-security-policy')).toBe(`frame-ancestors ${origin}`);
    const [, payload] = String(ok.body.embed_token).split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString('utf8'));
    expect(claims.exp - claims.iat).toBe(3600);

    const viaReferer = await call(sandbox, 'POST', '/embed/bootstrap', { key: p.publishableKey, body: {}, headers: { referer: `${origin}/checkout?x=1` } });
    expect(viaReferer.status).toBe(200);

    for (const bad of [`${origin}.evil.test`, origin.replace('https://', 'https://www.'), origin.replace('https', 'http'), `${origin}:8443`]) {
      const r = await call(sandbox, 'POST', '/embed/bootstrap', { key: p.publishableKey, body: {}, headers: { origin: bad } });
      expectEnvelope(r, 403, 'forbidden');
      expect(r.headers.get('content-security-policy')).toBe(`frame-ancestors ${origin}`);
    }
    expectEnvelope(await call(sandbox, 'POST', '/embed/bootstrap', { key: p.publishableKey, body: {} }), 403, 'forbidden');
    expectEnvelope(await call(sandbox, 'POST', '/embed/bootstrap', { key: p.secretKey, body: {}, headers: { origin } }), 403, 'forbidden');
    // Another partner's client secret.
    const foreign = (await createSession(P(11))).body;
    expectEnvelope(
      await call(sandbox, 'POST', '/embed/bootstrap', { key: p.publishableKey, body: { clientSecret: foreign.client_secret }, headers: { origin } }),
      403,
      'forbidden',
    );
  });

  it('refreshes while the session is open, not after cancel', async () => {
    const s = (await createSession(p)).body;
    const boot = await call(sandbox, 'POST', '/embed/bootstrap', { key: p.publishableKey, body: { clientSecret: s.client_secret }, headers: { origin } });
    const r1 = await call(sandbox, 'POST', '/embed/refresh', { headers: { 'x-embed-token': boot.body.embed_token } });
    expect(r1.status).toBe(200);
    expect(r1.body.embed_token).not.toBe(boot.body.embed_token);
    expect(r1.headers.get('content-security-policy')).toBe(`frame-ancestors ${origin}`);
    expectEnvelope(await call(sandbox, 'POST', '/embed/refresh', { headers: { 'x-embed-token': `${boot.body.embed_token}x` } }), 401, 'unauthorized');
    await call(sandbox, 'POST', `/gate_sessions/${s.id}/cancel`, { key: p.secretKey });
    expectEnvelope(await call(sandbox, 'POST', '/embed/refresh', { headers: { 'x-embed-token': r1.body.embed_token } }), 409, 'conflict');
  });
});

describe('branding', () => {
  const p = P(12);
  it('starts all-null, merges, and enforces the strict update object', async () => {
    const g = await call(sandbox, 'GET', '/branding', { key: p.secretKey });
    expect(g.body).toEqual({ object: 'branding', logo_url: null, primary_color: null, secondary_color: null, accent_color: null, brand_name: null });
    const a = await call(sandbox, 'PATCH', '/branding', { key: p.secretKey, body: { brand_name: 'x'.repeat(64), primary_color: '#A1b2C3' } });
    expect(a.status).toBe(200);
    const b = await call(sandbox, 'PATCH', '/branding', {
      key: p.secretKey,
      body: { logo_url: `https://cdn.example.test/${'a'.repeat(2048 - 'https://cdn.example.test/'.length)}` },
    });
    expect(b.status).toBe(200);
    expect(b.body.brand_name).toBe('x'.repeat(64));
    expect(b.body.primary_color).toBe('#A1b2C3');
    for (const bad of [
      { brand_name: 'x'.repeat(65) },
      { logo_url: `https://cdn.example.test/${'a'.repeat(2049 - 'https://cdn.example.test/'.length)}` },
      { logo_url: 'http://cdn.example.test/l.png' },
      { logo_url: '/l.png' },
      { accent_color: '#fff' },
      { secondary_color: 'red' },
      { unknown: 1 },
    ]) {
      expectEnvelope(await call(sandbox, 'PATCH', '/branding', { key: p.secretKey, body: bad }), 400, 'invalid_request');
    }
  });
});

describe('webhook operations', () => {
  it('webhook.test: 400 without url; each call a new pending event', async () => {
    const p = P(13);
    expectEnvelope(await call(sandbox, 'POST', '/webhooks/test', { key: p.secretKey }), 400, 'invalid_request');
    const rx = await startReceiver(() => 204);
    try {
      await configureWebhook(p, rx.url);
      const a = await call(sandbox, 'POST', '/webhooks/test', { key: p.secretKey });
      const b = await call(sandbox, 'POST', '/webhooks/test', { key: p.secretKey });
      expect(a.body).toMatchObject({ object: 'webhook_delivery', event_type: 'webhook.test', status: 'pending', target_url: rx.url });
      expect(a.body.event_id).not.toBe(b.body.event_id);
      await waitFor(() => rx.got.length >= 2);
      expect(JSON.parse(rx.got[0]!.body).data).toEqual({ livemode: false, message: expect.any(String) });
      const listed = await call(sandbox, 'GET', '/webhooks/deliveries', { key: p.secretKey });
      expect(listed.body.data.map((d: any) => d.id)).toEqual([b.body.id, a.body.id]);
      for (const d of listed.body.data) expect(Object.keys(d).some((k) => /body|payload/.test(k))).toBe(false);
    } finally {
      await configureWebhook(p, null);
      await rx.close();
    }
  });

  it('list bounds: limit 1–200, skip ≥ 0, known status only; has_more', async () => {
    const p = P(14);
    const rx = await startReceiver(() => 200);
    try {
      await configureWebhook(p, rx.url);
      for (let i = 0; i < 3; i++) await call(sandbox, 'POST', '/webhooks/test', { key: p.secretKey });
      for (const q of ['limit=0', 'limit=201', 'limit=abc', 'skip=-1', 'status=done']) {
        expectEnvelope(await call(sandbox, 'GET', `/webhooks/deliveries?${q}`, { key: p.secretKey }), 400, 'invalid_request');
      }
      expect((await call(sandbox, 'GET', '/webhooks/deliveries?limit=200', { key: p.secretKey })).status).toBe(200);
      const one = await call(sandbox, 'GET', '/webhooks/deliveries?limit=1&skip=1', { key: p.secretKey });
      expect(one.body.data).toHaveLength(1);
      expect(one.body.has_more).toBe(true);
      const last = await call(sandbox, 'GET', '/webhooks/deliveries?limit=1&skip=2', { key: p.secretKey });
      expect(last.body.has_more).toBe(false);
      await waitFor(() => rx.got.length >= 3);
    } finally {
      await configureWebhook(p, null);
      await rx.close();
    }
  });

  it('retries on the scaled 1m/5m/30m/2h schedule, dead-letters after 5, replays the own delivery only', async () => {
    const p = P(15);
    let healthy = false;
    const rx = await startReceiver(() => (healthy ? 200 : 500));
    try {
      await configureWebhook(p, rx.url);
      const t = await call(sandbox, 'POST', '/webhooks/test', { key: p.secretKey });
      await waitFor(() => rx.got.length >= 5, 8000);
      await sleep(300);
      const d = (await call(sandbox, 'GET', '/webhooks/deliveries?status=dead_lettered', { key: p.secretKey })).body.data[0];
      expect(d).toMatchObject({ id: t.body.id, status: 'dead_lettered', attempts: 5, last_response_status: 500, next_attempt_at: null });
      expect(d.last_error).toBeTruthy();
      expect(rx.got).toHaveLength(5);
      // Same event id on every attempt, each attempt signed.
      expect(new Set(rx.got.map((g) => g.headers['x-gate-event-id'])).size).toBe(1);
      for (const g of rx.got) expect(verifySignature(g, p.webhookSecret!)).toBe(true);
      // Gaps grow with the schedule (6, 30, 180, 720 ms at this scale).
      const gaps = rx.got.slice(1).map((g, i) => g.at - rx.got[i]!.at);
      expect(gaps[3]!).toBeGreaterThan(gaps[1]!);
      expect(gaps[3]!).toBeGreaterThanOrEqual(700);

      expectEnvelope(await call(sandbox, 'POST', `/webhooks/deliveries/${d.id}/replay`, { key: P(16).secretKey, body: {} }), 404, 'not_found');
      healthy = true;
      const rp = await call(sandbox, 'POST', `/webhooks/deliveries/${d.id}/replay`, {
        key: p.secretKey,
        body: {},
        headers: { 'idempotency-key': crypto.randomUUID() },
      });
      expect(rp.status).toBe(200);
      await waitFor(() => rx.got.length >= 6);
      expect(rx.got[5]!.headers['x-gate-event-id']).toBe(rx.got[0]!.headers['x-gate-event-id']);
      await sleep(100);
      const after = (await call(sandbox, 'GET', '/webhooks/deliveries', { key: p.secretKey })).body.data[0];
      expect(after.status).toBe('succeeded');
      expect(after.delivered_at).not.toBeNull();
    } finally {
      await configureWebhook(p, null);
      await rx.close();
    }
  });

  it('an attempt past the timeout fails and is retried', async () => {
    const p = P(17);
    let n = 0;
    const slow = createServer((req, res) => {
      n++;
      const delay = n === 1 ? 600 : 0; // attemptTimeoutMs is 300 here
      req.resume();
      setTimeout(() => {
        res.writeHead(200);
        res.end();
      }, delay);
    });
    await new Promise<void>((r) => slow.listen(0, '127.0.0.1', r));
    try {
      await configureWebhook(p, `http://127.0.0.1:${(slow.address() as AddressInfo).port}/`);
      await call(sandbox, 'POST', '/webhooks/test', { key: p.secretKey });
      await waitFor(() => n >= 2, 5000);
      await sleep(100);
      const d = (await call(sandbox, 'GET', '/webhooks/deliveries', { key: p.secretKey })).body.data[0];
      expect(d.status).toBe('succeeded');
      expect(d.attempts).toBe(2);
    } finally {
      await configureWebhook(p, null);
      slow.close();
      slow.closeAllConnections();
    }
  });
});

describe('rate limits', () => {
  it('the 11th request inside 10 s on a default-window route is 429 with the envelope; keys are independent', async () => {
    const limited = await startReference({ profile: base, ephemeralPorts: true });
    try {
      const url = limited.urls.gateSandbox;
      const codes: number[] = [];
      for (let i = 0; i < 11; i++) codes.push((await call(url, 'GET', '/dashboard/webhook-settings', { key: P(33).secretKey })).status);
      expect(codes.slice(0, 10).every((c) => c === 200)).toBe(true);
      expect(codes[10]).toBe(429);
      expectEnvelope(await call(url, 'GET', '/dashboard/webhook-settings', { key: P(33).secretKey }), 429, 'rate_limited');
      expect((await call(url, 'GET', '/dashboard/webhook-settings', { key: P(34).secretKey })).status).toBe(200);
      // POST /gate_sessions: 10 per minute of its own.
      const created: number[] = [];
      for (let i = 0; i < 11; i++) {
        created.push(
          (await call(url, 'POST', '/gate_sessions', { key: P(35).secretKey, body: sessionBody, headers: { 'idempotency-key': crypto.randomUUID() } })).status,
        );
      }
      expect(created.filter((c) => c === 201)).toHaveLength(10);
      expect(created[10]).toBe(429);
    } finally {
      await limited.close();
    }
  });

  it('rejects an unknown fault name listing the valid ones', async () => {
    await expect(startReference({ profile: base, ephemeralPorts: true, faults: ['no-such-fault'] })).rejects.toThrow(
      /Valid faults: .*sess-cancel-terminal-200/,
    );
  });
});

describe('seeded faults change the behaviour they name', () => {
  /** Each probe answers true when the broken behaviour is observed. */
  const probes: Record<string, (url: string, prod: string) => Promise<boolean>> = {
    'auth-revoked-key-accepted': async (u) => (await call(u, 'GET', '/gate_sessions', { key: P(1).revokedSecretKey })).status === 200,
    'auth-mode-mismatch-accepted': async (u) => (await call(u, 'GET', '/gate_sessions', { key: P(1).liveSecretKey })).status === 200,
    'auth-publishable-key-on-secret-route': async (u) => (await call(u, 'GET', '/gate_sessions', { key: P(1).publishableKey })).status === 200,
    'auth-missing-credential-403': async (u) => (await call(u, 'GET', '/gate_sessions')).status === 403,
    'auth-malformed-key-403': async (u) => (await call(u, 'GET', '/gate_sessions', { key: 'sk_test_x' })).status === 403,
    'err-request-id-header-mismatch': async (u) => {
      const r = await call(u, 'GET', '/gate_sessions');
      return r.headers.get('x-request-id') !== r.body.request_id;
    },
    'err-envelope-no-status-code': async (u) => (await call(u, 'GET', '/gate_sessions')).body.statusCode === undefined,
    'sess-currency-not-uppercased': async (u) => (await createAt(u, P(2))).body.currency === 'eur',
    'sess-client-secret-on-retrieve': async (u) => {
      const s = (await createAt(u, P(2))).body;
      return typeof (await call(u, 'GET', `/gate_sessions/${s.id}`, { key: P(2).secretKey })).body.client_secret === 'string';
    },
    'sess-cancel-terminal-200': async (u) => {
      const s = (await createAt(u, P(2))).body;
      await call(u, 'POST', `/gate_sessions/${s.id}/cancel`, { key: P(2).secretKey });
      return (await call(u, 'POST', `/gate_sessions/${s.id}/cancel`, { key: P(2).secretKey })).status === 200;
    },
    'sess-kyc-untrusted-accepted': async (u) => (await createAt(u, P(6), { kyc_package: { a: 1 } })).body.kyc_pre_verified === true,
    'idem-fingerprint-mismatch-replays': async (u) => {
      const k = crypto.randomUUID();
      await createAt(u, P(2), {}, k);
      return (await createAt(u, P(2), { amount: '1.00' }, k)).status === 201;
    },
    'idem-key-ignored': async (u) => {
      const k = crypto.randomUUID();
      return (await createAt(u, P(2), {}, k)).body.id !== (await createAt(u, P(2), {}, k)).body.id;
    },
    'embed-origin-subdomain-match': async (u) =>
      (await call(u, 'POST', '/embed/bootstrap', { key: P(2).publishableKey, body: {}, headers: { origin: 'https://a.shop02.example.test' } })).status === 200,
    'embed-csp-wildcard': async (u) =>
      (await call(u, 'POST', '/embed/bootstrap', { key: P(2).publishableKey, body: {}, headers: { origin: P(2).allowedOrigins![0]! } })).headers.get(
        'content-security-policy',
      ) === 'frame-ancestors *',
    'brand-name-max-65': async (u) => (await call(u, 'PATCH', '/branding', { key: P(2).secretKey, body: { brand_name: 'x'.repeat(65) } })).status === 200,
    'whops-limit-max-off-by-one': async (u) => (await call(u, 'GET', '/webhooks/deliveries?limit=201', { key: P(2).secretKey })).status === 200,
    'rate-first-window-off-by-one': async (u) => {
      const codes: number[] = [];
      for (let i = 0; i < 11; i++) codes.push((await call(u, 'GET', '/dashboard/webhook-settings', { key: P(36).secretKey })).status);
      return codes[10] === 200;
    },
    'rate-windows-shared-across-keys': async (u) => {
      for (let i = 0; i < 10; i++) await call(u, 'GET', '/dashboard/webhook-settings', { key: P(37).secretKey });
      return (await call(u, 'GET', '/dashboard/webhook-settings', { key: P(38).secretKey })).status === 429;
    },
  };

  async function createAt(u: string, p: GatePartner, extra: Record<string, unknown> = {}, key = crypto.randomUUID()): Promise<Res> {
    return call(u, 'POST', '/gate_sessions', { key: p.secretKey, body: { ...sessionBody, ...extra }, headers: { 'idempotency-key': key } });
  }

  for (const [fault, probe] of Object.entries(probes)) {
    it(fault, async () => {
      const clean = await startReference({ profile: base, ephemeralPorts: true });
      const broken = await startReference({ profile: base, ephemeralPorts: true, faults: [fault] });
      try {
        expect(await probe(clean.urls.gateSandbox, clean.urls.gateProduction)).toBe(false);
        expect(await probe(broken.urls.gateSandbox, broken.urls.gateProduction)).toBe(true);
      } finally {
        await clean.close();
        await broken.close();
      }
    });
  }

  it('outbox-dead-letter-after-4 stops after 4 attempts', async () => {
    const broken = await startReference({ profile: fastProfile, ephemeralPorts: true, faults: ['outbox-dead-letter-after-4'] });
    const rx = await startReceiver(() => 500);
    const p = P(18);
    try {
      const u = broken.urls.gateSandbox;
      await call(u, 'PATCH', '/dashboard/webhook-settings', { key: p.secretKey, body: { webhook_url: rx.url } });
      await call(u, 'POST', '/webhooks/test', { key: p.secretKey });
      await waitFor(() => rx.got.length >= 4);
      await sleep(1000);
      expect(rx.got).toHaveLength(4);
      const d = (await call(u, 'GET', '/webhooks/deliveries', { key: p.secretKey })).body.data[0];
      expect(d.status).toBe('dead_lettered');
    } finally {
      await rx.close();
      await broken.close();
    }
  });
});
