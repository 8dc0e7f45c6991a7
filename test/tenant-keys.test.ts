// Several keys of one tenant (GatePartner.extraSecretKeys): the embedded target
// takes each as the same partner and as its own rate-limit client; a lease uses
// the partner's least busy key; a check that needs another tenant never gets a
// second key of the one it holds; and checks that create many objects size
// themselves by the room left in their key's hour window, or skip saying so.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Pacer } from '../src/client/pacer.js';
import type { GateActor } from '../src/needs/define.js';
import { firstMissing } from '../src/needs/registry.js';
import { loadProfile } from '../src/profile/load.js';
import type { Profile } from '../src/profile/schema.js';
import { startReference, type RunningReference } from '../src/reference/server.js';
import { check, defineSuite, type CheckTools } from '../src/runner/check.js';
import { PartnerPool } from '../src/runner/partners.js';
import { createProgress } from '../src/runner/progress.js';
import { loadConformanceSuites, runChecks, type LoadedSuite } from '../src/runner/run.js';

const base = loadProfile('fixtures/profiles/embedded.json');
/** The first partner that declares extra keys, and another partner. */
const multi = base.gate.partners.find((p) => (p.extraSecretKeys?.length ?? 0) >= 2)!;
const other = base.gate.partners.find((p) => p !== multi && !p.reservedFor)!;

async function call(url: string, key: string, method: string, path: string, body?: unknown) {
  const r = await fetch(url + path, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: r.status, json: (await r.json()) as any };
}

describe('the embedded target: extra keys of one partner', () => {
  let ref: RunningReference;
  beforeAll(async () => {
    ref = await startReference({ profile: base, ephemeralPorts: true });
  });
  afterAll(() => ref.close());

  it('are the same tenant (its session reads with each; another partner gets 404) and each its own rate-limit client', async () => {
    const url = ref.urls.gateSandbox;
    const s = await call(url, multi.secretKey, 'POST', '/gate_sessions', base.gate.sessionDefaults);
    expect(s.status).toBeLessThan(300);
    for (const k of multi.extraSecretKeys!) expect((await call(url, k, 'GET', `/gate_sessions/${s.json.id}`)).status).toBe(200);
    expect((await call(url, other.secretKey, 'GET', `/gate_sessions/${s.json.id}`)).status).toBe(404);
    // POST /gate_sessions allows 10 per minute per client: the 11th on one key is refused, the partner's next key still creates.
    const [k1, k2] = multi.extraSecretKeys!;
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await call(url, k1!, 'POST', '/gate_sessions', base.gate.sessionDefaults)).status);
    expect(statuses.slice(0, 10).every((st) => st < 300)).toBe(true);
    expect(statuses[10]).toBe(429);
    expect((await call(url, k2!, 'POST', '/gate_sessions', base.gate.sessionDefaults)).status).toBeLessThan(300);
  });
});

describe('the harness: several keys, one tenant', () => {
  it('a partner pool scores a partner by its least busy key', () => {
    const now = 1_000_000;
    const pacer = new Pacer({ now: () => now });
    const a = { name: 'a', secretKey: 'sk_test_a', extraSecretKeys: ['sk_test_a2'] };
    const b = { name: 'b', secretKey: 'sk_test_b' };
    // a's main key and b's only key are equally busy; a's extra key is idle: a wins.
    for (const k of ['sk_test_a', 'sk_test_b']) for (let i = 0; i < 5; i++) void pacer.acquire(k, 'GET', '/gate_sessions');
    expect(new PartnerPool([b, a], pacer).lease(() => true)?.name).toBe('a');
    expect(new PartnerPool([b, { ...a, extraSecretKeys: [] }], pacer).lease(() => true)?.name).toBe('b');
  });

  it('a profile of one partner with two keys has no second tenant', () => {
    const one: Profile = { ...base, gate: { ...base.gate, partners: [multi] } };
    expect(firstMissing(one, ['gateOtherTenant'], 'quick')?.reason).toMatch(/only one gate partner/);
  });

  it("a lease takes the partner's least busy key, and another-tenant leases never take a second key of a held partner", async () => {
    const ref = await startReference({ profile: base, ephemeralPorts: true });
    try {
      // Only the multi-key partner and one other: the other tenant can only be `other`.
      const profile: Profile = {
        ...ref.profile,
        gate: { ...ref.profile.gate, partners: ref.profile.gate.partners.filter((p) => p.name === multi.name || p.name === other.name) },
      };
      const pacer = new Pacer({ windowScale: profile.timing.rateWindowScale });
      // The main key and the first extra key have been busy this run: the second extra key is the least busy.
      for (const k of [multi.secretKey, multi.extraSecretKeys![0]!]) for (let i = 0; i < 3; i++) await pacer.acquire(k, 'GET', '/gate_sessions');
      const seen: { held: GateActor; other: GateActor; status: number }[] = [];
      const suite: LoadedSuite = {
        ...defineSuite({
          service: 'gate',
          section: 'test',
          checks: [
            check({
              name: 'holds a partner and another tenant',
              requirements: ['GATE-AUTH-CROSS-TENANT-CUSTOMER-WRITE'],
              needs: ['gatePartner', 'gateOtherTenant'],
              async run({ gatePartner, gateOtherTenant }, t: CheckTools) {
                const ex = await gatePartner.client.get('/gate_sessions');
                seen.push({ held: gatePartner, other: gateOtherTenant, status: ex.status });
                t.expect.status(ex, 200, 'GATE-AUTH-CROSS-TENANT-CUSTOMER-WRITE');
              },
            }),
          ],
        }),
        file: 'test/tenant-keys.test.ts',
      };
      const out = await runChecks({
        profile,
        suites: [suite],
        depth: 'quick',
        pacer,
        partners: { gate: profile.gate.partners, pools: [] },
        progress: createProgress({ live: false, quiet: true }),
      });
      expect(out.checks.map((c) => c.status)).toEqual(['passed']);
      const [s] = seen;
      expect(s!.held.partner.name).not.toBe(s!.other.partner.name);
      const held = s!.held.partner.name === multi.name ? s!.held : s!.other;
      // The multi-key partner's actor carries its least busy key, and its requests went out with it.
      expect(held.partner.secretKey).toBe(multi.extraSecretKeys![1]);
      expect(held.partner.extraSecretKeys).toEqual([multi.secretKey, multi.extraSecretKeys![0]]);
    } finally {
      await ref.close();
    }
  });
});

describe('checks that create many objects size themselves by their key', () => {
  it('with every key nearly out of its hour window, the deliveries default-page and session pagination checks skip, naming the room and what to add', async () => {
    const ref = await startReference({ profile: { ...base, reference: { ...base.reference!, rateLimits: false } }, ephemeralPorts: true });
    try {
      // A pacer whose clock the test drives: 290 requests of this run on every key, one a second (inside every window).
      const start = Date.now() - 300_000;
      let now = start;
      const pacer = new Pacer({ now: () => now, sleep: async (ms) => void (now += ms) });
      const keys = ref.profile.gate.partners.flatMap((p) => [p.secretKey, ...(p.extraSecretKeys ?? [])]);
      for (let i = 0; i < 290; i++) {
        now = start + i * 1000;
        for (const k of keys) await pacer.acquire(k, 'GET', '/gate_sessions');
      }
      now = Date.now();
      for (const k of keys) expect(pacer.hourRoom(k)).toBe(10);
      const suites = (await loadConformanceSuites())
        .map((s) => ({ ...s, checks: s.checks.filter((c) => /^(deliveries list: default page|list pagination: starting_after)/.test(c.name)) }))
        .filter((s) => s.checks.length);
      const out = await runChecks({ profile: ref.profile, suites, depth: 'quick', pacer, progress: createProgress({ live: false, quiet: true }) });
      expect(out.checks).toHaveLength(2);
      for (const c of out.checks) {
        expect(c.status, c.name).toBe('skipped');
        expect(c.reason).toMatch(
          /may take \d+ requests, and [\w-]+'s key has \d+ left in its 300-per-hour window this run — add gate partners or extraSecretKeys .*, or run with --depth full, which waits for the window$/,
        );
      }
    } finally {
      await ref.close();
    }
  }, 60_000);
});
