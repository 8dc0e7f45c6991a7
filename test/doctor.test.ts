// `rampart doctor`: on both worlds of the embedded target it prints the table
// and exits 0, every declared trigger tried (the second world's in its own
// words and armed) and each saying what it unlocks; a broken profile — a wrong
// key, a trigger that 404s, a receiver the target cannot reach, a server-error
// control that does not fail, a pool-state control given words it refuses —
// gets the exact row that says so and exit 2; every Gate request is paced, so no key's
// documented window is ever exceeded (counted per key), and the keys reserved
// for load are left alone.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Pacer } from '../src/client/pacer.js';
import type { Exchange } from '../src/client/types.js';
import { formatDoctor, runDoctor, type DoctorReport, type DoctorRow } from '../src/doctor/doctor.js';
import { gateRouteGroup, scaledWindowsFor } from '../src/model/limits.js';
import { loadProfile } from '../src/profile/load.js';
import type { Profile } from '../src/profile/schema.js';
import { startReference, type RunningReference } from '../src/reference/server.js';

const root = join(import.meta.dirname, '..');
const tmp = mkdtempSync(join(tmpdir(), 'rampart-doctor-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const rowOf = (d: DoctorReport, name: string): DoctorRow | undefined => d.rows.find((r) => r.name === name);

/**
 * The CLI on a running profile written to a private file: its exit code and output. Asynchronous:
 * the target runs in this process and must keep answering while the CLI talks to it.
 */
async function doctorCli(profile: Profile, file: string): Promise<{ status: number | null; out: string }> {
  const path = join(tmp, file);
  writeFileSync(path, JSON.stringify(profile), { mode: 0o600 });
  const child = spawn(process.execPath, [join(root, 'bin/rampart.js'), 'doctor', '--profile', path], { cwd: root, env: { ...process.env, NO_COLOR: '1' } });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (out += c.toString()));
  const timer = setTimeout(() => child.kill('SIGTERM'), 120_000);
  const status = await new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  clearTimeout(timer);
  return { status, out };
}

/** Every secret value of a profile: none may appear in the doctor's output. */
function secretsOf(p: Profile): string[] {
  return p.gate.partners
    .flatMap((g) => [
      g.secretKey,
      ...(g.extraSecretKeys ?? []),
      g.publishableKey,
      g.liveSecretKey,
      g.livePublishableKey,
      g.revokedSecretKey,
      g.revokedPublishableKey,
      g.webhookSecret,
    ])
    .concat((p.pools?.partners ?? []).flatMap((g) => [g.secretKey, g.publishableKey, g.webhookSecret]))
    .filter((s): s is string => !!s);
}

describe.each([
  ['embedded', 'fixtures/profiles/embedded.json'],
  ['embedded-alt', 'fixtures/profiles/embedded-alt.json'],
])('rampart doctor on the %s world', (world, file) => {
  let ref: RunningReference;
  beforeAll(async () => {
    ref = await startReference({ profile: loadProfile(file), ephemeralPorts: true });
  });
  afterAll(() => ref.close());

  it('prints the table and exits 0: nothing broken, every declared trigger dry-run, every requirement verifiable', async () => {
    const { status, out } = await doctorCli(ref.profile, `${world}.json`);
    expect(status, out).toBe(0);
    for (const heading of ['base URLs:', 'keys and partner traits:', 'triggers:', 'webhook receiver:', 'needs:']) expect(out).toContain(heading);
    expect(out).not.toMatch(/ ✗ /);
    for (const t of [
      'completeSession',
      'processSession',
      'failSession',
      'expireSession',
      'requireKyc',
      'createSignedQuote',
      'expireSignedQuote',
      'serverError',
      'configureWebhook',
    ])
      expect(out).toMatch(new RegExp(`✓ gate\\.triggers\\.${t}\\s+ok`));
    for (const t of ['poolState', 'balanceCredit', 'velocityAdvance', 'tradeOutcome']) expect(out).toMatch(new RegExp(`✓ pools\\.triggers\\.${t}\\s+ok`));
    // Each declared trigger says what it unlocks; the second world's also say how they speak its language.
    expect(out).toMatch(/✓ pools\.triggers\.poolState\s+ok\s+set the main pool .*GET \/pools followed .* — unlocks poolsPoolState/);
    if (world === 'embedded-alt') {
      expect(out).toMatch(/pools\.triggers\.poolState .*\{\{state\}\} in the sandbox's words: available→open, pool_dry→dry/);
      expect(out).toMatch(/gate\.triggers\.serverError\s+ok\s+answered 500.*armed by POST \/__harness\/fail_next first/);
    }
    expect(out).toMatch(/✓ receiver reachable from the target\s+ok\s+a signed webhook\.test delivery arrived/);
    expect(out).toMatch(/✓ gate\.triggers\.serverError\s+ok\s+answered 500/);
    // The target's clock and round trip, as its answers told them (the embedded target keeps this machine's time):
    // the judged estimate, then both sources side by side.
    expect(out).toMatch(
      /^target: gate [+−]0\.\d s ± \d+\.\d\d s against rampart's clock \(stamps.*?; Date [+−]\d+\.\d s ± \d+\.\d\d s \(\d+ answers?.*?\), round trip \d+ ms \(p95 \d+ ms\); pools /m,
    );
    const last = out.trim().split('\n').at(-1)!;
    const m = /^this profile can verify (\d+) of (\d+) requirements/.exec(last);
    expect(m, last).toBeTruthy();
    expect(Number(m![1])).toBe(Number(m![2]));
    for (const s of secretsOf(ref.profile)) expect(out.includes(s), 'a secret in the output').toBe(false);
  }, 120_000);
});

describe('rampart doctor on a broken profile', () => {
  let ref: RunningReference;
  beforeAll(async () => {
    ref = await startReference({ profile: loadProfile('fixtures/profiles/embedded.json'), ephemeralPorts: true });
  });
  afterAll(() => ref.close());

  it("a wrong key: the partner's secretKey row is broken with the 401 it got, and the CLI exits 2", async () => {
    const p = structuredClone(ref.profile);
    p.gate.partners[1]!.secretKey = 'sk_test_' + 'W'.repeat(32);
    const { status, out } = await doctorCli(p, 'wrong-key.json');
    expect(status, out).toBe(2);
    expect(out).toMatch(/✗ gate partner gate-02: secretKey\s+broken\s+answered 401 .*unauthorized/);
    expect(out).toContain('→ the test secret key of this partner (sk_test_…)');
    expect(out).toMatch(/^NOT usable: \d+ rows? broken/m);
    expect(out).not.toContain('W'.repeat(32));
  }, 120_000);

  it('a trigger that 404s: its row is broken with the 404, the checks it feeds are no longer counted as verifiable', async () => {
    const p = structuredClone(ref.profile);
    p.gate.triggers.completeSession = { method: 'POST', path: '/_sandbox/no_such_control/{{sessionId}}', auth: 'secret', body: {} };
    const d = await runDoctor(p, { receiverWaitMs: 5_000 });
    const r = rowOf(d, 'gate.triggers.completeSession')!;
    expect(r.status).toBe('broken');
    expect(r.detail).toMatch(/^dry-run on a new session answered 404 /);
    expect(r.fix).toBe('fix gate.triggers.completeSession ({{sessionId}} is filled in)');
    expect(r.unlocks).toBeGreaterThan(0);
    expect(d.usable).toBe(false);
    expect(rowOf(d, 'gateCompleteSession')!.status).toBe('broken');
    expect(d.verifiable.requirements).toBeLessThan(d.verifiable.of);
    expect(formatDoctor(d)).toMatch(/✗ gate\.triggers\.completeSession\s+broken\s+dry-run on a new session answered 404/);
  }, 120_000);

  it('an unreachable receiver (webhooks.publicUrl pointing nowhere): the receiver row is broken and names the URL the target could not reach', async () => {
    const p = structuredClone(ref.profile);
    p.webhooks = { ...p.webhooks, publicUrl: 'http://127.0.0.1:9' };
    const d = await runDoctor(p, { receiverWaitMs: 3_000 });
    const r = rowOf(d, 'receiver reachable from the target')!;
    expect(r.status).toBe('broken');
    expect(r.detail).toMatch(/^no webhook\.test delivery reached http:\/\/127\.0\.0\.1:9\/hooks\/gate%3A[\w-]+ within 3 s$/);
    expect(r.fix).toMatch(/webhooks\.publicUrl must be an address the target can reach/);
    expect(d.usable).toBe(false);
    // Every need that waits on a delivery is lost with it.
    for (const n of ['gateWebhooks', 'poolsWebhooks']) expect(rowOf(d, n)!.status).toBe('broken');
  }, 120_000);

  it("a pool-state control that refuses rampart's words is broken, naming the state it refused", async () => {
    const p = structuredClone(ref.profile);
    p.pools!.triggers.poolState = { ...p.pools!.triggers.poolState!, values: { state: { pool_dry: 'parched' } } };
    const d = await runDoctor(p, { receiverWaitMs: 5_000 });
    const r = rowOf(d, 'pools.triggers.poolState')!;
    expect(r.status).toBe('broken');
    expect(r.detail).toMatch(/^state pool_dry: answered 400 .*— unlocks poolsPoolState; \{\{state\}\} in the sandbox's words: pool_dry→parched$/);
  }, 120_000);

  it('a server-error control that answers 2xx is broken: it must yield a 5xx for the scrubbing check', async () => {
    const p = structuredClone(ref.profile);
    p.gate.triggers.serverError = { method: 'GET', path: '/capabilities/assets', auth: 'secret' };
    const d = await runDoctor(p, { receiverWaitMs: 5_000 });
    const r = rowOf(d, 'gate.triggers.serverError')!;
    expect(r.status).toBe('broken');
    expect(r.detail).toMatch(/^answered 200 .*\(it must make the target answer a 5xx\) — unlocks gateServerError$/);
  }, 120_000);

  it('a missing trigger is "missing" with what to add and what it would unlock; a trigger it cannot dry-run safely is "not checked"', async () => {
    const p = structuredClone(ref.profile);
    delete p.gate.triggers.requireKyc;
    const d = await runDoctor(p, { receiverWaitMs: 5_000 });
    const r = rowOf(d, 'gate.triggers.requireKyc')!;
    expect(r.status).toBe('missing');
    expect(r.fix).toMatch(/gate\.triggers\.requireKyc is missing/);
    expect(r.unlocks).toBe(1);
    expect(d.usable).toBe(true);
    expect(d.verifiable.requirements).toBe(d.verifiable.of - 1);
    expect(rowOf(d, 'gate.triggers.payInBody')!.status).toBe('not checked');
  }, 120_000);
});

describe('rampart doctor paces every Gate request', () => {
  it('twice back to back, every dry-run on one partner, windows ×0.1: no key exceeds a documented window, no 429, load keys untouched', async () => {
    const base = loadProfile('fixtures/profiles/embedded.json');
    // One partner carries every dry-run (the worst case for its windows); the rest are reserved for load.
    const one: Profile = {
      ...base,
      gate: { ...base.gate, partners: base.gate.partners.map((p, i) => (i === 0 ? p : { ...p, reservedFor: 'load' as const })) },
      timing: { ...base.timing, rateWindowScale: 0.1 },
    };
    const ref = await startReference({ profile: one, ephemeralPorts: true });
    const seen: Exchange[] = [];
    try {
      // Twice in one process with one pacer (the pacer of the run that follows, say): 16 session creations on one key
      // in the 10-per-minute window (6 s here) only fit when every request is paced.
      const pacer = new Pacer({ windowScale: 0.1 });
      const first = await runDoctor(ref.profile, { receiverWaitMs: 10_000, pacer, onExchange: (ex) => seen.push(ex) });
      const d = await runDoctor(ref.profile, { receiverWaitMs: 10_000, pacer, onExchange: (ex) => seen.push(ex) });
      expect([...first.rows, ...d.rows].filter((r) => r.status === 'broken')).toEqual([]);
      const gate = seen.filter((ex) => ex.request.url.startsWith(ref.urls.gateSandbox) || ex.request.url.startsWith(ref.urls.gateProduction));
      expect(gate.filter((ex) => ex.status === 429).map((ex) => `${ex.request.method} ${ex.request.url}`)).toEqual([]);
      const byKey = new Map<string, { at: number; method: string; path: string }[]>();
      for (const ex of gate) {
        const key = /^Bearer (\S+)/.exec(ex.request.headers['authorization'] ?? '')?.[1];
        if (!key) continue;
        const path = new URL(ex.request.url).pathname.replace(/^\/v1/, '');
        byKey.set(key, [...(byKey.get(key) ?? []), { at: ex.startedAt, method: ex.request.method, path }]);
      }
      const p0 = ref.profile.gate.partners[0]!;
      const sent = byKey.get(p0.secretKey) ?? [];
      console.log(`doctor requests per Gate key: ${[...byKey.values()].map((v) => v.length).join(', ')} (the acting partner's secret key: ${sent.length})`);
      expect(sent.filter((r) => r.method === 'POST' && r.path === '/gate_sessions').length).toBeGreaterThan(10); // beyond one window, all on this key
      for (const [key, reqs] of byKey) {
        for (const r of reqs) {
          const [first, minute, hour] = scaledWindowsFor(r.method, r.path, 0.1);
          const inWin = (ms: number, sameGroup: boolean) =>
            reqs.filter((o) => o.at <= r.at && o.at > r.at - ms && (!sameGroup || gateRouteGroup(o.method, o.path) === gateRouteGroup(r.method, r.path)))
              .length;
          expect(inWin(first.windowMs, true), `${key.slice(0, 8)}… ${r.method} ${r.path}: first window`).toBeLessThanOrEqual(first.limit);
          expect(inWin(minute.windowMs, false)).toBeLessThanOrEqual(minute.limit);
          expect(inWin(hour.windowMs, false)).toBeLessThanOrEqual(hour.limit);
        }
      }
      // The load partners' keys stay out of it: their windows must start empty.
      for (const p of ref.profile.gate.partners.slice(1)) expect(byKey.has(p.secretKey), p.name).toBe(false);
      expect(rowOf(d, `gate partner ${ref.profile.gate.partners[1]!.name}: keys`)!.status).toBe('not checked');
    } finally {
      await ref.close();
    }
  }, 180_000);
});
