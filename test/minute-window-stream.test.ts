// The 60-per-minute window judged on one key's own stream (src/load/minuteWindowStream.ts): a stream of
// ordinary paced requests fills the window, one probe past it must get 429 with the envelope. Proven both
// ways against the embedded target at rate windows ×0.05 (a 3 s minute): passes on the faultless target,
// fails with the minute window off, narrower than documented, or its 429 of the wrong type.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createApiClient } from '../src/client/http.js';
import { Pacer } from '../src/client/pacer.js';
import { MinuteWindowStream } from '../src/load/minuteWindowStream.js';
import type { RunningReference } from '../src/reference/server.js';
import { startEmbedded } from './support/embedded.js';

const SCALE = 0.05;
let ref: RunningReference | undefined;
afterEach(async () => {
  await ref?.close();
  ref = undefined;
});

/** Ordinary traffic on one key: `n` paced reads from 4 loops at once, as conformance checks would send them. */
async function streamOn(faults: string[], n = 150, target?: { baseUrl: string; secretKey: string }) {
  ref = target ? undefined : await startEmbedded({ faults, tweak: (p) => ({ ...p, timing: { ...p.timing, rateWindowScale: SCALE } }) });
  const partner = target ?? ref!.profile.gate.partners[0]!;
  const pacer = new Pacer({ windowScale: SCALE });
  const base = { service: 'gate' as const, baseUrl: target?.baseUrl ?? ref!.profile.gate.baseUrls.sandbox, secretKey: partner.secretKey, label: 'gate-01' };
  const paced = createApiClient({ ...base, pacer });
  const unpaced = createApiClient(base);
  const probe = new MinuteWindowStream({
    pacer,
    key: partner.secretKey,
    windowScale: SCALE,
    toleranceRatio: 0.05,
    send: async (method, path) => {
      const ex = await unpaced.request({ method: method as 'GET', path, retry: false, pace: false });
      return { status: ex.status, json: ex.json, headers: ex.headers };
    },
  });
  probe.start();
  const routes = ['/capabilities/assets', '/gate_sessions', '/customers', '/branding'];
  let sent = 0;
  const statuses: number[] = [];
  await Promise.all(
    [0, 1, 2, 3].map(async (i) => {
      while (sent < n) {
        sent++;
        statuses.push((await paced.get(routes[(sent + i) % routes.length]!)).status);
      }
    }),
  );
  const { checks, observations } = await probe.finish();
  return { check: checks[0]!, replaces: checks[1]!, observations, statuses };
}

describe("the minute window on one key's stream", () => {
  it('passes on the faultless target: 60 ordinary requests, then one more gets 429 with the envelope', async () => {
    const { check, replaces, statuses, observations } = await streamOn([]);
    expect(check.status, check.reason ?? check.failure?.message).toBe('passed');
    // The 60 were session, customer, capability and branding reads (route windows of their own): the minute window held across them.
    expect(replaces.requirements).toEqual(['GATE-RATE-ROUTE-REPLACES-FIRST-ONLY']);
    expect(replaces.status).toBe('passed');
    expect(check.requirements).toEqual(['GATE-RATE-MINUTE-WINDOW', 'GATE-RATE-429-ENVELOPE']);
    // The stream itself was never refused: only the probe past the limit was, and it is the one extra request.
    expect(statuses.every((s) => s === 200)).toBe(true);
    expect(check.requests?.gate).toBe(1);
    expect(JSON.stringify(observations)).toContain('sliding');
  }, 60_000);

  it('fails when the minute window is not enforced', async () => {
    const { check, replaces } = await streamOn(['rate-minute-window-off']);
    expect(check.status, check.reason).toBe('failed');
    expect(check.failure?.requirement).toBe('GATE-RATE-MINUTE-WINDOW');
    expect(replaces.status).toBe('failed');
  }, 90_000);

  it('fails when a route limit replaces every window (route requests leave the minute window)', async () => {
    const { check, replaces } = await streamOn(['rate-route-limit-replaces-all-windows']);
    expect(check.status, check.reason).toBe('failed');
    expect(replaces.status).toBe('failed');
    expect(replaces.failure?.requirement).toBe('GATE-RATE-ROUTE-REPLACES-FIRST-ONLY');
  }, 90_000);

  it('fails, not unverified, when the minute window holds fewer than 60 (a 429 before the documented count)', async () => {
    const { check, replaces, statuses } = await streamOn(['rate-minute-window-55']);
    expect(check.status, check.reason).toBe('failed');
    expect(check.failure?.requirement).toBe('GATE-RATE-MINUTE-WINDOW');
    expect(check.failure?.message).toMatch(/got 429 before the limit: request 56 of the stream, with 55 of the key's requests inside the minute/);
    expect(replaces.status).toBe('failed');
    expect(replaces.failure?.requirement).toBe('GATE-RATE-ROUTE-REPLACES-FIRST-ONLY');
    // The stream went on (the paced client waited its 429 out): the evidence was in hand at the first refusal.
    expect(statuses.every((s) => s === 200)).toBe(true);
  }, 90_000);

  it("fails when the minute window's 429 carries another type", async () => {
    const { check } = await streamOn(['rate-429-minute-wrong-type']);
    expect(check.status, check.reason).toBe('failed');
    expect(check.failure?.requirement).toBe('GATE-RATE-429-ENVELOPE');
  }, 60_000);

  it('passes on a target whose minute window is a fixed bucket, with an edge inside the first burst (another reading)', async () => {
    // A stand-in target: 60 per fixed 3 s bucket, whose edge falls as its 31st request comes (inside the first burst).
    const w = 60_000 * SCALE;
    let seen = 0;
    let edge: number | undefined;
    const counts = new Map<number, number>();
    const server = createServer((req, res) => {
      if (++seen === 31) edge = Date.now();
      const bucket = edge === undefined ? -1 : Math.floor((Date.now() - edge) / w);
      const n = counts.get(bucket) ?? 0;
      const id = randomUUID();
      if (n >= 60) {
        res.writeHead(429, { 'content-type': 'application/json', 'x-request-id': id });
        return res.end(
          JSON.stringify({ type: 'rate_limited', code: 'rate_limited', message: 'rate limit exceeded', request_id: id, doc_url: null, statusCode: 429 }),
        );
      }
      counts.set(bucket, n + 1);
      res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': id });
      res.end(JSON.stringify({ object: 'list', data: [] }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const port = (server.address() as AddressInfo).port;
      const { check } = await streamOn([], 200, { baseUrl: `http://127.0.0.1:${port}/v1`, secretKey: 'sk_test_fixed' });
      expect(check.status, check.reason ?? check.failure?.message).toBe('passed');
      // The first probe crossed the edge and was admitted (the fixed reading allows it); the second, clear of any edge, was refused.
      expect(check.requests?.gate).toBe(2);
    } finally {
      server.close();
    }
  }, 90_000);

  it('ends unverified, never passed, when the stream never fills the window', async () => {
    const { check, replaces } = await streamOn([], 20);
    expect(check.status).toBe('unverified');
    expect(check.reason).toMatch(/never sent 60 requests/);
    expect(replaces.status).toBe('unverified');
  }, 60_000);
});
