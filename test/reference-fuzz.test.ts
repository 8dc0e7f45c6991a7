// Fuzz every route of both embedded services with malformed bodies, headers,
// path ids and query strings: never a 5xx, every error a valid envelope whose
// request_id equals the X-Request-Id header. Bounded: a fixed number of runs.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadProfile } from '../src/profile/load.js';
import { ErrorEnvelope } from '../src/model/schemas/common.js';
import { startReference, type RunningReference } from '../src/reference/server.js';

const base = loadProfile('fixtures/profiles/embedded.json');
let ref: RunningReference;

beforeAll(async () => {
  // Rate limits off: the fuzzer sends far more than 10 requests per 10 s per key.
  ref = await startReference({
    profile: { ...base, reference: { ...base.reference!, rateLimits: false, timeScale: 0.0001, attemptTimeoutMs: 200 } },
    ephemeralPorts: true,
  });
});
afterAll(async () => {
  await ref?.close();
});

const gateKeys = [base.gate.partners[0]!.secretKey, base.gate.partners[0]!.publishableKey ?? 'pk_test_x', 'sk_test_unknown', 'garbage'];
const poolsKeys = [base.pools!.partners[0]!.secretKey, base.pools!.partners[0]!.publishableKey ?? 'pk_test_x', 'sk_live_unknown', ''];

const weirdBody = fc.oneof(
  fc.constant(''),
  fc.constant('{'),
  fc.constant('[]'),
  fc.constant('null'),
  fc.constant('"str"'),
  fc.json(),
  fc
    .dictionary(
      fc.constantFrom('amount', 'currency', 'side', 'quoteId', 'limit', 'metadata', 'email', 'destAddress', 'webhook_url', 'outcome', 'x'),
      fc.jsonValue(),
    )
    .map((o) => JSON.stringify(o)),
);
const weirdSegment = fc.oneof(
  fc.constant('%E0%A4%A'),
  fc.constant('..'),
  fc.string({ maxLength: 12 }).map((s) => encodeURIComponent(s) || 'x'),
  fc.constant('gs_does_not_exist'),
);
const weirdQuery = fc.oneof(
  fc.constant(''),
  fc.constant('?limit=-1'),
  fc.constant('?limit=abc&skip=1e9'),
  fc.constant('?cursor=%00&created_after=never'),
  fc.constant('?starting_after=&status[]=x'),
  fc
    .dictionary(fc.constantFrom('limit', 'cursor', 'skip', 'status', 'side', 'currency', 'country_code', 'created_after'), fc.string({ maxLength: 8 }))
    .map((d) => `?${new URLSearchParams(d).toString()}`),
);

describe('reference fuzz: every route, malformed input', () => {
  it('never answers 5xx; every error is an envelope with request_id = X-Request-Id', async () => {
    // The sandbox control behind gate.triggers.serverError answers 500 on purpose (the 5xx-scrubbing check judges it).
    const deliberate5xx = (r: { pattern: string }) => r.pattern.endsWith('/server_error');
    const targets = [
      ...ref.routes.gate.filter((r) => !deliberate5xx(r)).map((r) => ({ ...r, url: ref.urls.gateSandbox, keys: gateKeys })),
      ...ref.routes.pools.map((r) => ({ ...r, url: ref.urls.poolsSandbox, keys: poolsKeys })),
    ];
    expect(targets.length).toBeGreaterThan(40);
    const failures: string[] = [];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...targets), fc.nat(3), weirdBody, weirdSegment, weirdQuery, fc.boolean(), async (t, k, body, seg, query, withIdem) => {
        const path = t.pattern.replace(/:[A-Za-z]+/g, seg);
        const headers: Record<string, string> = { 'content-type': 'application/json' };
        const key = t.keys[k]!;
        if (key) headers.authorization = `Bearer ${key}`;
        if (withIdem) headers['idempotency-key'] = 'fuzz-key';
        const hasBody = t.method !== 'GET' && t.method !== 'DELETE';
        const r = await fetch(`${t.url}${path}${query}`, { method: t.method, headers, body: hasBody ? body : undefined });
        const text = await r.text();
        const where = `${t.method} ${path}${query} → ${r.status}`;
        if (r.status >= 500 && r.status !== 501) failures.push(`${where}: ${text.slice(0, 200)}`);
        if (r.status >= 400) {
          let env: unknown;
          try {
            env = JSON.parse(text);
          } catch {
            failures.push(`${where}: non-JSON error body`);
            return;
          }
          const parsed = ErrorEnvelope.safeParse(env);
          if (!parsed.success) failures.push(`${where}: not an error envelope: ${text.slice(0, 200)}`);
          else if (parsed.data.request_id !== r.headers.get('x-request-id')) failures.push(`${where}: request_id differs from X-Request-Id`);
        }
      }),
      { numRuns: 600 },
    );
    expect(failures).toEqual([]);
  }, 120_000);
});
