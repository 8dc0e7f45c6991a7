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
import type { Dialect } from '../src/model/openPoints/index.js';
import type { Profile } from '../src/profile/schema.js';
import { dialectProfile } from '../src/reference/dialect.js';
import type { RunningReference } from '../src/reference/server.js';
import { startEmbedded } from './support/embedded.js';

const SCALE = 0.05;
let ref: RunningReference | undefined;
afterEach(async () => {
  await ref?.close();
  ref = undefined;
});

/** Ordinary traffic on one key: `n` paced reads from 4 loops at once, as conformance checks would send them. */
async function streamOn(faults: string[], n = 150, target?: { baseUrl: string; secretKey: string }, dialect?: Dialect) {
  const scaled = (p: Profile): Profile => ({ ...p, timing: { ...p.timing, rateWindowScale: SCALE } });
  ref = target ? undefined : await startEmbedded({ faults, tweak: (p) => (dialect ? dialectProfile(scaled(p), dialect) : scaled(p)) });
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
    expect(check.failure?.message).toMatch(
      /got 429 before the limit: request \d+ of the stream, with 55 of the key.s requests inside the minute before it — as request 56 was, in an earlier attempt/,
    );
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

  it('passes in a lived-in sandbox, whose key already sent requests in its hour window before the run (gate.limits.atStart)', async () => {
    const { check, statuses } = await streamOn([], 150, undefined, { 'gate.limits.atStart': 'lived-in' });
    expect(check.status, check.reason ?? check.failure?.message).toBe('passed');
    expect(statuses.every((s) => s === 200)).toBe(true);
  }, 60_000);

  it('passes where windows count refused requests and move in fixed buckets (gate.limits.counted, gate.limits.windows)', async () => {
    const { check } = await streamOn([], 200, undefined, {
      'gate.limits.counted': 'every-request',
      'gate.limits.windows': 'fixed',
      'gate.limits.retryDelay': 'none',
    });
    expect(check.status, check.reason ?? check.failure?.message).toBe('passed');
  }, 90_000);

  it("a 429 the key's hour window explains (requests from before the run fill it) never fails the minute window: judged on the attempt after", async () => {
    // A stand-in target: 60 per sliding 3 s minute, 300 per sliding 180 s hour whose window already holds 250
    // requests of the key from before the run, leaving 8–10 s after it starts.
    const minute = 60_000 * SCALE;
    const hour = 3_600_000 * SCALE;
    const t0 = Date.now();
    const stamps = Array.from({ length: 250 }, (_, i) => t0 - hour + 8_000 + Math.round((i / 250) * 2_000));
    const server = createServer((req, res) => {
      const now = Date.now();
      const inMinute = stamps.filter((x) => x > now - minute).length;
      const inHour = stamps.filter((x) => x > now - hour).length;
      const id = randomUUID();
      if (inMinute >= 60 || inHour >= 300) {
        res.writeHead(429, { 'content-type': 'application/json', 'x-request-id': id, 'retry-after': '1' });
        return res.end(
          JSON.stringify({ type: 'rate_limited', code: 'rate_limited', message: 'rate limit exceeded', request_id: id, doc_url: null, statusCode: 429 }),
        );
      }
      stamps.push(now);
      res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': id });
      res.end(JSON.stringify({ object: 'list', data: [] }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const port = (server.address() as AddressInfo).port;
      const { check, observations } = await streamOn([], 260, { baseUrl: `http://127.0.0.1:${port}/v1`, secretKey: 'sk_test_lived_in' });
      expect(check.status, check.reason ?? check.failure?.message).toBe('passed');
      // The hour window refused the stream before the minute held 60: observed with its numbers, never a failure.
      const early = observations.find((o) => o.topic === 'GATE-RATE-MINUTE-WINDOW-EARLY-429');
      expect(early, JSON.stringify(observations)).toBeDefined();
      expect((early!.value as { otherRoute: string }[]).every((r) => r.otherRoute !== 'accepted')).toBe(true);
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
