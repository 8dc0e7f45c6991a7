// The preflight against hostile targets: each ends with its exit code, one line
// naming the cause, in bounded time, with no profile secret in the message.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EXIT, RunError } from '../src/exitCodes.js';
import { preflight } from '../src/cli/preflight.js';
import { parseProfile } from '../src/profile/load.js';
import type { Profile } from '../src/profile/schema.js';
import { startHostile, type HostileOptions, type HostileServer } from './support/hostileServer.js';

const root = resolve(import.meta.dirname, '..');
const embedded = JSON.parse(readFileSync(resolve(root, 'fixtures/profiles/embedded.json'), 'utf8'));
// Short limits keep the hang and drip cases quick; the messages state them.
const HARNESS = { requestTimeoutMs: 1_000, bodyTimeoutMs: 1_500, maxBodyBytes: 1024 * 1024, rateLimitBudgetSeconds: 60 };

/** Every secret value the profile holds, and the random part of each. */
const SECRETS: string[] = [...embedded.gate.partners, ...embedded.pools.partners]
  .flatMap((p: Record<string, string>) => [p.secretKey, p.publishableKey, p.liveSecretKey, p.revokedSecretKey, p.webhookSecret])
  .filter((v: string | undefined): v is string => !!v)
  .flatMap((v: string) => [v, v.replace(/^(sk|pk)_(test|live)_|^whsec_/, '')]);

const servers: HostileServer[] = [];
afterAll(async () => {
  for (const s of servers) await s.close();
});

function profileAt(origin: string, scheme?: 'http' | 'https'): Profile {
  const raw = structuredClone(embedded);
  const o = scheme ? origin.replace(/^https?/, scheme) : origin;
  raw.gate.baseUrls = { sandbox: `${o}/v1` };
  raw.pools.baseUrls = { sandbox: `${o}/pools/v1` };
  raw.harness = HARNESS;
  delete raw.reference;
  return parseProfile(raw, 'test profile', {});
}

interface Outcome {
  error?: RunError;
  ms: number;
  server: HostileServer;
}

async function runPreflight(opts: HostileOptions, services: ('gate' | 'pools')[] = ['gate'], scheme?: 'http' | 'https'): Promise<Outcome> {
  const server = await startHostile(opts);
  servers.push(server);
  const t0 = Date.now();
  const error = await preflight(profileAt(server.origin, scheme), services).then(
    () => undefined,
    (e: unknown) => e,
  );
  if (error !== undefined && !(error instanceof RunError)) throw error;
  return { error, ms: Date.now() - t0, server };
}

function expectOneLine(o: Outcome, exitCode: number, cause: RegExp, maxMs: number): void {
  expect(o.error, 'the preflight should have refused the target').toBeInstanceOf(RunError);
  expect(o.error!.exitCode).toBe(exitCode);
  expect(o.error!.message.split('\n')).toHaveLength(1);
  expect(o.error!.message).toMatch(cause);
  expect(o.ms).toBeLessThan(maxMs);
  for (const s of SECRETS) expect(o.error!.message).not.toContain(s);
}

describe('preflight against a hostile target', () => {
  it('healthy minimal API, both services: passes with one request per service', async () => {
    const o = await runPreflight({ mode: 'healthy' }, ['gate', 'pools']);
    expect(o.error).toBeUndefined();
    expect(o.server.seen.map((r) => `${r.method} ${r.url}`)).toEqual(['GET /v1/capabilities/assets', 'GET /pools/v1/pools']);
  });

  it('refused (closed port): exit 3, "connection refused"', async () => {
    expectOneLine(
      await runPreflight({ mode: 'refused' }),
      EXIT.unreachable,
      /^gate target unreachable: .*connection refused — is the target running at http:\/\/127\.0\.0\.1:\d+\/v1\?/,
      5_000,
    );
  });

  it('hang: exit 3, the real budget (per attempt × attempts) and how to raise it', async () => {
    const o = await runPreflight({ mode: 'hang' });
    expectOneLine(o, EXIT.unreachable, /no answer within 1 s \(per attempt\) × 2 attempts = 2 s — .*--request-timeout.*harness\.requestTimeoutMs/, 6_000);
    expect(o.server.seen).toHaveLength(2);
  });

  it('reset: exit 3, "connection reset"', async () => {
    expectOneLine(await runPreflight({ mode: 'reset' }), EXIT.unreachable, /connection reset by the target/, 5_000);
  });

  it('invalid JSON: exit 3, "invalid JSON body" with its first bytes', async () => {
    expectOneLine(
      await runPreflight({ mode: 'invalid-json' }),
      EXIT.unreachable,
      /answered 200 with an invalid JSON body \(.*starts "\{\\"object\\":\\"list\\"/,
      5_000,
    );
  });

  it('HTML 502: exit 3, "502" and "non-JSON body (text/html)"', async () => {
    expectOneLine(await runPreflight({ mode: 'html-502' }), EXIT.unreachable, /answered 502 with a non-JSON body \(text\/html\)/, 5_000);
  });

  it('500 with the error envelope to everything (retried once): exit 3, the service is failing', async () => {
    const o = await runPreflight({ mode: 'all-500' });
    expectOneLine(o, EXIT.unreachable, /answered 500 twice with the API error envelope — the gate service is failing/, 5_000);
    expect(o.server.seen).toHaveLength(2);
  });

  it("a gateway's JSON 404 at the base path: exit 3, check the base URL", async () => {
    expectOneLine(
      await runPreflight({ mode: 'json-404' }),
      EXIT.unreachable,
      /GET \/capabilities\/assets answered 404, a documented route missing at this base path — is the base URL right/,
      5_000,
    );
  });

  it('a redirect loop: exit 3, the redirect and its Location, never followed', async () => {
    const o = await runPreflight({ mode: 'redirect-loop' });
    expectOneLine(
      o,
      EXIT.unreachable,
      new RegExp(`answered a redirect \\(302\\) to ${o.server.origin.replace(/[.]/g, '\\.')}/v1/capabilities/assets — rampart never follows redirects`),
      5_000,
    );
    expect(o.server.seen).toHaveLength(1);
  });

  it('a 1-byte/s drip: exit 3, "body still arriving after" the body limit', async () => {
    expectOneLine(await runPreflight({ mode: 'drip' }), EXIT.unreachable, /body still arriving after 1\.5 s \(status 200, \d+ bytes? so far\)/, 5_000);
  });

  it('a 50 MB body: exit 3, "body larger than" the limit', async () => {
    expectOneLine(await runPreflight({ mode: 'huge-body' }), EXIT.unreachable, /body larger than 1048576 bytes \(1 MiB\)/, 10_000);
  });

  it('429 with Retry-After 3600: exit 5, rate limited for 3600 s, and no second request into the wait', async () => {
    const o = await runPreflight({ mode: 'rate-limited', retryAfter: '3600' });
    expectOneLine(o, EXIT.rateLimited, /^gate target: rate limited by the target for 3600 s: wait or add keys/, 5_000);
    expect(o.server.seen).toHaveLength(1);
  });

  it('401 with the error envelope: exit 2, a profile problem naming the partner and field, never the key', async () => {
    expectOneLine(
      await runPreflight({ mode: 'unauthorized' }),
      EXIT.usage,
      /^gate partner gate-01: the target rejects its secret key \(401 unauthorized\) — check gate\.partners\[0\]\.secretKey/,
      5_000,
    );
  });

  it('200 with some other JSON: exit 3, not the documented list envelope', async () => {
    expectOneLine(
      await runPreflight({ mode: 'wrong-shape' }),
      EXIT.unreachable,
      /answered 200 but not with a list envelope \(object "list", data array\)/,
      5_000,
    );
  });

  it('healthy for one request, then hang: the pools probe names the pools service', async () => {
    expectOneLine(
      await runPreflight({ mode: 'healthy-then-hang', healthyRequests: 1 }, ['gate', 'pools']),
      EXIT.unreachable,
      /^pools target unreachable: GET .*\/pools\/v1\/pools: no answer within 1 s/,
      6_000,
    );
  });

  it('TLS mismatch, an https server behind an http profile: exit 3, reset naming the scheme', async () => {
    expectOneLine(
      await runPreflight({ mode: 'healthy', tls: true }, ['gate'], 'http'),
      EXIT.unreachable,
      /connection reset by the target .*serves https: check the scheme/,
      5_000,
    );
  });

  it('TLS mismatch, an http server behind an https profile: exit 3, TLS handshake failed', async () => {
    expectOneLine(await runPreflight({ mode: 'healthy' }, ['gate'], 'https'), EXIT.unreachable, /TLS handshake failed .*http\/https scheme/, 5_000);
  });

  it('a self-signed certificate: exit 3, TLS handshake failed naming the certificate problem', async () => {
    expectOneLine(await runPreflight({ mode: 'healthy', tls: true }), EXIT.unreachable, /TLS handshake failed \(.*(SELF_SIGNED|self-signed).*\)/, 5_000);
  });
});
