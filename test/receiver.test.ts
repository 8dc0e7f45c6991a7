// The webhook receiver against real HTTP deliveries on an ephemeral port.
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startReceiver } from '../src/webhooks/receiver.js';
import type { WebhookReceiver } from '../src/webhooks/types.js';
import { signGateBody } from '../src/webhooks/verify.js';

const SECRET = 'whsec_' + 'r'.repeat(32);
const nowS = () => Math.floor(Date.now() / 1000);

function envelope(id = randomUUID(), type = 'gate_session.created'): string {
  return JSON.stringify({ id, type, created_at: nowS(), data: { id: 'gs_1' } });
}

async function deliver(
  url: string,
  body: string,
  opts: { secret?: string; t?: number; tsHeader?: string; svc?: string; signal?: AbortSignal } = {},
): Promise<number> {
  const t = opts.t ?? nowS();
  const env = JSON.parse(body);
  const svc = opts.svc ?? 'Gate';
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'Gate-Signature': signGateBody(opts.secret ?? SECRET, t, body),
      [`X-${svc}-Timestamp`]: opts.tsHeader ?? String(t),
      [`X-${svc}-Event-Id`]: env.id ?? env.eventId ?? '',
      [`X-${svc}-Event-Type`]: env.type ?? '',
    },
    body,
    signal: opts.signal,
  });
  await res.text();
  return res.status;
}

let rx: WebhookReceiver;
beforeEach(async () => {
  rx = await startReceiver({ host: '127.0.0.1', port: 0 });
  rx.setSecrets('acme', [SECRET]);
});
afterEach(async () => {
  await rx.close();
});

describe('webhook receiver', () => {
  it('urlFor gives /hooks/<partner>; publicUrl may carry {{port}}', async () => {
    expect(rx.urlFor('acme')).toBe(`${rx.url}/hooks/acme`);
    const port = new URL(rx.url).port;
    const other = await startReceiver({ host: '127.0.0.1', port: 0, publicUrl: 'https://tunnel.example/{{port}}/' });
    try {
      const p = new URL(other.url).port;
      expect(other.urlFor('a b')).toBe(`https://tunnel.example/${p}/hooks/a%20b`);
    } finally {
      await other.close();
    }
    expect(port).not.toBe('');
  });

  it('records a signed delivery: verified, 200 {"received":true}, id/type, raw bytes, json', async () => {
    const body = envelope();
    const res = await fetch(rx.urlFor('acme'), {
      method: 'POST',
      headers: { 'Gate-Signature': signGateBody(SECRET, nowS(), body), 'X-Gate-Timestamp': String(nowS()), 'content-type': 'application/json' },
      body,
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ received: true });
    const [a] = rx.attempts('acme');
    expect(a!.verification).toEqual({ ok: true });
    expect(a!.eventId).toBe(JSON.parse(body).id);
    expect(a!.eventType).toBe('gate_session.created');
    expect(a!.rawBody.toString('utf8')).toBe(body);
    expect(a!.json.data.id).toBe('gs_1');
    expect(a!.answeredStatus).toBe(200);
    expect(a!.duplicate).toBe(false);
    expect(a!.arrivedAt).toBeGreaterThan(0);
  });

  it('accepts any X-<name>-* header family and a pools envelope (eventId)', async () => {
    const id = randomUUID();
    const body = JSON.stringify({ eventId: id, type: 'trade.completed', createdAt: new Date().toISOString(), data: {} });
    expect(await deliver(rx.urlFor('acme'), body, { svc: 'Pools' })).toBe(200);
    const [a] = rx.attempts('acme');
    expect(a!.eventId).toBe(id);
    expect(a!.verification.ok).toBe(true);
  });

  it('bad signature → 400 and verification.ok false with a reason', async () => {
    expect(await deliver(rx.urlFor('acme'), envelope(), { secret: 'whsec_' + 'x'.repeat(32) })).toBe(400);
    const [a] = rx.attempts('acme');
    expect(a!.verification.ok).toBe(false);
    expect(a!.verification.reason).toMatch(/no v1 signature matches/);
    expect(a!.answeredStatus).toBe(400);
  });

  it('stale timestamp → 400; a timestamp header that differs from t → 400', async () => {
    expect(await deliver(rx.urlFor('acme'), envelope(), { t: nowS() - 301 })).toBe(400);
    expect(rx.attempts('acme')[0]!.verification.reason).toMatch(/from now/);
    expect(await deliver(rx.urlFor('acme'), envelope(), { tsHeader: String(nowS() - 5) })).toBe(400);
    expect(rx.attempts('acme')[1]!.verification.reason).toMatch(/differs from the signature t=/);
  });

  // The Signature rule's receiver half (Events > Signature: reject a bad signature or a timestamp
  // more than 300 s from now with 400) binds rampart's receiver; it is no target requirement.
  it('Events > Signature: acknowledges a good signature; a wrong secret, or t 301 s in the past or the future, gives 400', async () => {
    const url = rx.urlFor('acme');
    expect(await deliver(url, envelope())).toBe(200);
    expect(await deliver(url, envelope(), { secret: 'whsec_wrong' })).toBe(400);
    expect(await deliver(url, envelope(), { t: nowS() - 301 })).toBe(400);
    expect(await deliver(url, envelope(), { t: nowS() + 301 })).toBe(400);
    expect(rx.attempts('acme').map((a) => a.verification.ok)).toEqual([true, false, false, false]);
  });

  it('verifies with either secret during rotation', async () => {
    const old = 'whsec_' + 'o'.repeat(32);
    rx.setSecrets('acme', [SECRET, old]);
    expect(await deliver(rx.urlFor('acme'), envelope(), { secret: old })).toBe(200);
  });

  it('programmed 500 then 200, then the default; match limits the programme', async () => {
    rx.program('acme', [
      { kind: 'status', status: 500 },
      { kind: 'status', status: 200 },
    ]);
    const body = envelope();
    expect(await deliver(rx.urlFor('acme'), body)).toBe(500);
    expect(await deliver(rx.urlFor('acme'), body)).toBe(200);
    rx.setDefault('acme', { kind: 'status', status: 204 });
    expect(await deliver(rx.urlFor('acme'), envelope())).toBe(204);
    expect(rx.attempts('acme').map((a) => a.answeredStatus)).toEqual([500, 200, 204]);

    rx.program('acme', [{ kind: 'status', status: 503 }], (e) => e.eventType === 'customer.created');
    expect(await deliver(rx.urlFor('acme'), envelope())).toBe(204);
    expect(await deliver(rx.urlFor('acme'), envelope(randomUUID(), 'customer.created'))).toBe(503);
  });

  it('delay answers after the delay', async () => {
    rx.program('acme', [{ kind: 'delay', ms: 300, status: 202 }]);
    const t0 = Date.now();
    expect(await deliver(rx.urlFor('acme'), envelope())).toBe(202);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(250);
  });

  it('hang holds the socket until the sender aborts; the attempt is recorded without a status', async () => {
    rx.program('acme', [{ kind: 'hang' }]);
    const ac = new AbortController();
    const sent = deliver(rx.urlFor('acme'), envelope(), { signal: ac.signal });
    const seen = await rx.waitFor('acme', () => true, 5000);
    expect(seen.answeredStatus).toBeUndefined();
    const race = await Promise.race([
      sent.then(
        () => 'answered',
        () => 'aborted',
      ),
      new Promise((r) => setTimeout(() => r('still hanging'), 300)),
    ]);
    expect(race).toBe('still hanging');
    ac.abort();
    await expect(sent).rejects.toThrow();
  });

  it('close() releases a hanging delivery', async () => {
    rx.program('acme', [{ kind: 'hang' }]);
    const sent = deliver(rx.urlFor('acme'), envelope());
    await rx.waitFor('acme', () => true, 5000);
    await rx.close();
    await expect(sent).rejects.toThrow();
  });

  it('flags duplicates by event id; events() keeps the first attempt per id', async () => {
    const id = randomUUID();
    const body = envelope(id);
    rx.program('acme', [{ kind: 'status', status: 500 }]);
    await deliver(rx.urlFor('acme'), body);
    await deliver(rx.urlFor('acme'), body);
    await deliver(rx.urlFor('acme'), envelope());
    expect(rx.attempts('acme').map((a) => a.duplicate)).toEqual([false, true, false]);
    expect(rx.events('acme')).toHaveLength(2);
    expect(rx.events('acme')[0]!.answeredStatus).toBe(500);
  });

  it('waitFor resolves on a past attempt, a future attempt, and rejects after its timeout', async () => {
    const first = envelope();
    await deliver(rx.urlFor('acme'), first);
    const past = await rx.waitFor('acme', (e) => e.eventId === JSON.parse(first).id, 1000);
    expect(past.eventId).toBe(JSON.parse(first).id);

    const laterId = randomUUID();
    const waiting = rx.waitFor('acme', (e) => e.eventId === laterId, 5000);
    await deliver(rx.urlFor('acme'), envelope(laterId));
    expect((await waiting).eventId).toBe(laterId);

    await expect(rx.waitFor('acme', (e) => e.eventType === 'never', 100)).rejects.toThrow(/within 100 ms/);
  });

  it('keeps partners apart and answers 404 off the /hooks/<partner> path', async () => {
    rx.setSecrets('other', [SECRET]);
    await deliver(rx.urlFor('other'), envelope());
    expect(rx.attempts('acme')).toHaveLength(0);
    expect(rx.attempts('other')).toHaveLength(1);
    const res = await fetch(`${rx.url}/elsewhere`, { method: 'POST', body: '{}' });
    expect(res.status).toBe(404);
  });

  describe('staged network faults (what Toxiproxy does on the webhook path, where only a public URL reaches rampart)', () => {
    it('reset: the connection is reset as the attempt arrives; nothing is received; lifted, deliveries arrive again', async () => {
      rx.setFault('acme', { kind: 'reset' });
      const err = await deliver(rx.urlFor('acme'), envelope()).catch((e: Error) => e);
      expect(err).toBeInstanceOf(Error);
      expect(String((err as Error & { cause?: { code?: string } }).cause?.code ?? (err as Error).message)).toMatch(/ECONNRESET|fetch failed|socket/i);
      expect(rx.attempts('acme')).toHaveLength(0);
      expect(rx.faulted('acme').map((f) => f.fault)).toEqual(['reset']);
      rx.setFault('acme', undefined);
      expect(await deliver(rx.urlFor('acme'), envelope())).toBe(200);
      expect(rx.attempts('acme')).toHaveLength(1);
    });

    it('timeout: no answer, the connection closed after afterMs; nothing is received', async () => {
      rx.setFault('acme', { kind: 'timeout', afterMs: 200 });
      const started = Date.now();
      const err = await deliver(rx.urlFor('acme'), envelope()).catch((e: Error) => e);
      expect(err).toBeInstanceOf(Error);
      expect(Date.now() - started).toBeGreaterThanOrEqual(190);
      expect(rx.attempts('acme')).toHaveLength(0);
      expect(rx.faulted('acme').map((f) => f.fault)).toEqual(['timeout']);
    });

    it('latency: every answer is held, whatever the programme answers; the attempt is received', async () => {
      rx.setFault('acme', { kind: 'latency', ms: 300 });
      rx.program('acme', [{ kind: 'status', status: 500 }]);
      let started = Date.now();
      expect(await deliver(rx.urlFor('acme'), envelope())).toBe(500);
      expect(Date.now() - started).toBeGreaterThanOrEqual(290);
      started = Date.now();
      expect(await deliver(rx.urlFor('acme'), envelope())).toBe(200);
      expect(Date.now() - started).toBeGreaterThanOrEqual(290);
      expect(rx.attempts('acme').map((a) => a.answeredStatus)).toEqual([500, 200]);
      expect(rx.faulted('acme')).toEqual([]);
    });

    it('a fault stays on its channel', async () => {
      rx.setSecrets('other', [SECRET]);
      rx.setFault('acme', { kind: 'reset' });
      expect(await deliver(rx.urlFor('other'), envelope())).toBe(200);
    });
  });

  it("verifies the signed timestamp on the sending target's clock when told it (a remote sandbox keeps its own)", async () => {
    const ahead = await startReceiver({ host: '127.0.0.1', port: 0, now: () => Date.now() + 400_000 });
    try {
      ahead.setSecrets('acme', [SECRET]);
      // Signed 400 s ahead of this machine: fresh on the target's clock, so acknowledged.
      expect(await deliver(ahead.urlFor('acme'), envelope(), { t: nowS() + 400 })).toBe(200);
      // Fresh on this machine's clock, but 400 s old on the target's: refused.
      expect(await deliver(ahead.urlFor('acme'), envelope())).toBe(400);
    } finally {
      await ahead.close();
    }
  });
});
