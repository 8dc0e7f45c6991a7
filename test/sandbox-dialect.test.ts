// Profiles that speak the sandbox's language. A trigger maps rampart's values
// to the sandbox's own words (values) and may arm the sandbox first (arm), the
// request after being the one judged; both happen in sendWith, the path every
// caller shares, and a template with neither is sent exactly as before. The
// second embedded world's controls use both forms (its pool-state control takes
// "dry", its 5xx control arms the next request): the pool-state and
// server-error checks run there through such a profile, and without the forms
// the same checks cannot reach the behaviour (unverified, never passed).
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient } from '../src/client/http.js';
import { ArmError, sendWith } from '../src/needs/support/triggers.js';
import type { Profile, RequestTemplate } from '../src/profile/schema.js';
import type { RunningReference } from '../src/reference/server.js';
import type { LoadedSuite } from '../src/runner/run.js';
import { loadConformanceSuites, runAgainst, startEmbedded } from './support/embedded.js';

const SECRET = 'sk_test_0123456789abcdef0123456789abcdef';

interface Seen {
  method: string;
  url: string;
  body: string;
  auth: string | undefined;
  header: string | undefined;
}

describe('sendWith: mapped values and arming, in the shared path', () => {
  const seen: Seen[] = [];
  let server: Server;
  let base: string;
  /** Answers by path: /fail → 500; /arm-bad → 409; anything else 200 echoing the request. */
  beforeAll(async () => {
    server = createServer((req: IncomingMessage, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        seen.push({ method: req.method!, url: req.url!, body, auth: req.headers.authorization, header: req.headers['x-control'] as string | undefined });
        const status = req.url!.includes('/arm-bad') ? 409 : 200;
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ token: 'tok-1', echo: body ? JSON.parse(body) : null }));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));
  const client = () =>
    createApiClient({ service: 'pools', baseUrl: base, label: 't', secretKey: SECRET, retry: { maxRetries: 0, baseDelayMs: 1, maxDelayMs: 1 } });

  it('a template without values or arm is one request, filled and sent as before, its values extracted', async () => {
    seen.length = 0;
    const tpl: RequestTemplate = {
      method: 'POST',
      path: '/ctl/{{poolId}}/state',
      auth: 'secret',
      headers: { 'x-control': '{{partner}}' },
      body: { state: '{{state}}', $comment: 'dropped' },
      extract: { token: 'token' },
    };
    const res = await sendWith(client(), tpl, { poolId: 'EUR-USDT', state: 'pool_dry', partner: 'p1' });
    expect(seen).toEqual([
      { method: 'POST', url: '/v1/ctl/EUR-USDT/state', body: JSON.stringify({ state: 'pool_dry' }), auth: `Bearer ${SECRET}`, header: 'p1' },
    ]);
    expect(res.exchange.status).toBe(200);
    expect(res.values).toEqual({ token: 'tok-1' });
  });

  it("values: rampart's value goes out in the sandbox's word; a value not listed goes out as rampart names it", async () => {
    seen.length = 0;
    const tpl: RequestTemplate = {
      method: 'POST',
      path: '/ctl/{{poolId}}/state',
      auth: 'secret',
      body: { state: '{{state}}' },
      values: { state: { pool_dry: 'dry', available: 'open' } },
    };
    await sendWith(client(), tpl, { poolId: 'EUR-USDT', state: 'pool_dry' });
    await sendWith(client(), tpl, { poolId: 'EUR-USDT', state: 'engine_unavailable' });
    expect(seen.map((s) => JSON.parse(s.body).state)).toEqual(['dry', 'engine_unavailable']);
  });

  it("arm: its requests go first, each judged, their extracts filled in later; the template's own answer is the result", async () => {
    seen.length = 0;
    const tpl: RequestTemplate = {
      method: 'GET',
      path: '/judged/{{token}}',
      auth: 'secret',
      arm: [{ method: 'POST', path: '/arm', auth: 'secret', body: { partner: '{{partner}}' }, extract: { token: 'token' } }],
    };
    const res = await sendWith(client(), tpl, { partner: 'p1' });
    expect(seen.map((s) => `${s.method} ${s.url}`)).toEqual(['POST /v1/arm', 'GET /v1/judged/tok-1']);
    expect(res.exchange.request.method).toBe('GET');
    expect(new URL(res.exchange.request.url).pathname).toBe('/v1/judged/tok-1');

    seen.length = 0;
    const broken: RequestTemplate = { ...tpl, arm: [{ method: 'POST', path: '/arm-bad', auth: 'secret' }] };
    const err = await sendWith(client(), broken, { partner: 'p1' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ArmError);
    expect((err as ArmError).message).toMatch(/^arm step 1 \(POST \/arm-bad\) answered 409/);
    // The request judged is never sent when the arming failed.
    expect(seen.map((s) => s.url)).toEqual(['/v1/arm-bad']);
  });
});

describe('the second world: its controls in their own words, reached through the profile', () => {
  let suites: LoadedSuite[];
  const CHECKS = ['every unavailable reason answers 200', 'a 5xx (provoked by the sandbox control)'];
  const only = (s: LoadedSuite[]) =>
    s.map((x) => ({ ...x, checks: x.checks.filter((c) => CHECKS.some((n) => c.name.startsWith(n))) })).filter((x) => x.checks.length);
  beforeAll(async () => {
    suites = only(await loadConformanceSuites());
  });

  async function run(tweak?: (p: Profile) => Profile) {
    const ref: RunningReference = await startEmbedded({ profileFile: 'fixtures/profiles/embedded-alt.json', tweak });
    try {
      return { profile: ref.profile, out: await runAgainst(ref, suites) };
    } finally {
      await ref.close();
    }
  }

  it('with mapped values (state: pool_dry → dry, …) and an armed 5xx control, the pool-state and server-error checks run and pass (no skip)', async () => {
    expect(suites.flatMap((s) => s.checks).length).toBe(2);
    const { profile, out } = await run();
    // The profile speaks the world's language: both forms are in use.
    expect(profile.pools!.triggers.poolState!.values?.state?.pool_dry).toBe('dry');
    expect(profile.gate.triggers.serverError!.arm?.length).toBe(1);
    expect(out.checks.map((c) => [c.name.slice(0, 40), c.status, c.reason ?? c.failure?.message ?? ''])).toEqual(
      out.checks.map((c) => [c.name.slice(0, 40), 'passed', '']),
    );
    expect(out.checks.length).toBe(2);
  }, 120_000);

  it("without the forms the same world cannot be driven: rampart's own words are refused and the unarmed request answers 200 — unverified, never passed", async () => {
    const { out } = await run((p) => ({
      ...p,
      gate: { ...p.gate, triggers: { ...p.gate.triggers, serverError: { ...p.gate.triggers.serverError!, arm: undefined } } },
      pools: { ...p.pools!, triggers: { ...p.pools!.triggers, poolState: { ...p.pools!.triggers.poolState!, values: undefined } } },
    }));
    const byName = (n: string) => out.checks.find((c) => c.name.startsWith(n))!;
    expect(byName(CHECKS[0]!).status).toBe('unverified');
    expect(byName(CHECKS[0]!).reason).toMatch(/pools\.triggers\.poolState answered 400/);
    expect(byName(CHECKS[1]!).status).toBe('unverified');
    expect(byName(CHECKS[1]!).reason).toMatch(/answered 200, not a 5xx/);
  }, 120_000);
});
