// The CLI against hostile targets, end to end: `node bin/rampart.js conformance
// --profile <tmp profile>` ends with the documented exit code, one stderr line
// naming the cause, results.json written with `latest` pointing at it, no
// profile secret anywhere, within a stated time and under 300 MB peak memory.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT } from '../src/exitCodes.js';
import type { RunResults } from '../src/report/results.js';
import { registerSecret, scanDir, scanText } from '../src/secrets/index.js';
import type { RunningReference } from '../src/reference/server.js';
import { startEmbedded } from './support/embedded.js';
import { startHostile, type HostileOptions, type HostileServer } from './support/hostileServer.js';

const root = resolve(import.meta.dirname, '..');
const tmp = mkdtempSync(join(tmpdir(), 'rampart-hostile-cli-'));
const embedded = JSON.parse(readFileSync(join(root, 'fixtures/profiles/embedded.json'), 'utf8'));
const PEAK_LIMIT = 300 * 1024 * 1024;

/** Every secret value of the profile, and each one's random part: none may appear in any output. */
const SECRETS: string[] = [...embedded.gate.partners, ...embedded.pools.partners]
  .flatMap((p: Record<string, string>) => [p.secretKey, p.publishableKey, p.liveSecretKey, p.revokedSecretKey, p.webhookSecret])
  .filter((v: string | undefined): v is string => !!v);
const RANDOM_PARTS = SECRETS.map((v) => v.replace(/^(sk|pk)_(test|live)_|^whsec_/, '')).filter((t) => t.length >= 12);
// The scan in this process knows the values too (the CLI registers them in its own).
for (const s of SECRETS) registerSecret(s);

const servers: HostileServer[] = [];
afterAll(async () => {
  for (const s of servers) await s.close();
  rmSync(tmp, { recursive: true, force: true });
});

interface CliRun {
  name: string;
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  reportsDir: string;
  ms: number;
  peakRss: number;
}

function cli(name: string, profile: unknown, args: string[] = []): Promise<CliRun> {
  const profilePath = join(tmp, `${name}.json`);
  writeFileSync(profilePath, JSON.stringify(profile, null, 2));
  const reportsDir = join(tmp, `reports-${name}`);
  const peakFile = join(tmp, `${name}.peak`);
  const t0 = Date.now();
  return new Promise((done) => {
    const child = execFile(
      process.execPath,
      [
        '--import',
        join(root, 'test/support/peakRss.mjs'),
        join(root, 'bin/rampart.js'),
        'conformance',
        '--profile',
        profilePath,
        '--reports-dir',
        reportsDir,
        ...args,
      ],
      { cwd: root, env: { ...process.env, NO_COLOR: '1', CI: '1', RAMPART_TEST_PEAK_FILE: peakFile }, timeout: 120_000 },
      (_err, stdout, stderr) =>
        done({
          name,
          code: child.exitCode,
          signal: child.signalCode,
          stdout: String(stdout),
          stderr: String(stderr),
          reportsDir,
          ms: Date.now() - t0,
          peakRss: existsSync(peakFile) ? Number(readFileSync(peakFile, 'utf8')) : NaN,
        }),
    );
  });
}

function profileAt(origin: string, harness: Record<string, number> = {}, scheme?: 'http' | 'https'): unknown {
  const p = structuredClone(embedded);
  const o = scheme ? origin.replace(/^https?/, scheme) : origin;
  p.gate.baseUrls = { sandbox: `${o}/v1` };
  p.pools.baseUrls = { sandbox: `${o}/pools/v1` };
  if (Object.keys(harness).length) p.harness = harness;
  delete p.reference;
  return p;
}

/** The run's exit code, its one line, a complete report that `latest` points at, no secret anywhere, time and memory bounded. */
function expectEnded(r: CliRun, exitCode: number, cause: RegExp, maxMs: number): RunResults {
  const lines = r.stderr.split('\n').filter((l) => l.trim() !== '');
  // The matrix row (for the closing note): case, exit code, wall time, peak memory.
  console.log(`matrix: ${r.name} exit ${r.code} ${(r.ms / 1000).toFixed(1)} s peak ${(r.peakRss / 1024 / 1024).toFixed(0)} MB`);
  expect(r.signal, 'the CLI must exit by itself').toBeNull();
  expect(r.code, r.stderr).toBe(exitCode);
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(cause);
  expect(r.ms).toBeLessThan(maxMs);
  expect(r.peakRss).toBeLessThan(PEAK_LIMIT);
  const runs = readdirSync(r.reportsDir).filter((n) => n !== 'latest' && n !== 'history' && n !== 'history.db');
  expect(runs).toHaveLength(1);
  const latest = realpathSync(join(r.reportsDir, 'latest'));
  expect(latest).toBe(realpathSync(join(r.reportsDir, runs[0]!)));
  expect(readdirSync(latest)).toEqual(expect.arrayContaining(['results.json', 'junit.xml', 'report.html']));
  const results = JSON.parse(readFileSync(join(latest, 'results.json'), 'utf8')) as RunResults;
  expect(results.error).toMatchObject({ exitCode });
  expect(results.error!.message).toMatch(cause);
  // No secret, in any form, in the terminal output or any written file.
  expect(scanText(r.stdout + r.stderr)).toEqual([]);
  expect(scanDir(r.reportsDir)).toEqual([]);
  const written =
    readdirSync(latest)
      .map((f) => readFileSync(join(latest, f), 'utf8'))
      .join('\n') +
    r.stdout +
    r.stderr;
  for (const s of [...SECRETS, ...RANDOM_PARTS]) expect(written).not.toContain(s);
  return results;
}

async function hostile(opts: HostileOptions): Promise<HostileServer> {
  const s = await startHostile(opts);
  servers.push(s);
  return s;
}

// Wall-time bounds are generous (a CLI start under tsx takes a few seconds on a busy machine).
describe('rampart conformance against a hostile target', () => {
  it('refused: exit 3 within 30 s', async () => {
    const s = await hostile({ mode: 'refused' });
    expectEnded(await cli('refused', profileAt(s.origin)), EXIT.unreachable, /gate target unreachable: .*connection refused/, 30_000);
  }, 60_000);

  it('hang, --request-timeout 1: exit 3 within 30 s, the budget of 1 s × 2 attempts stated', async () => {
    const s = await hostile({ mode: 'hang' });
    expectEnded(
      await cli('hang', profileAt(s.origin), ['--request-timeout', '1']),
      EXIT.unreachable,
      /no answer within 1 s \(per attempt\) × 2 attempts = 2 s/,
      30_000,
    );
  }, 60_000);

  it('reset: exit 3 within 30 s', async () => {
    const s = await hostile({ mode: 'reset' });
    expectEnded(await cli('reset', profileAt(s.origin)), EXIT.unreachable, /connection reset by the target/, 30_000);
  }, 60_000);

  it('invalid JSON: exit 3 within 30 s', async () => {
    const s = await hostile({ mode: 'invalid-json' });
    expectEnded(await cli('invalid-json', profileAt(s.origin)), EXIT.unreachable, /invalid JSON body/, 30_000);
  }, 60_000);

  it('HTML 502: exit 3 within 30 s', async () => {
    const s = await hostile({ mode: 'html-502' });
    expectEnded(await cli('html-502', profileAt(s.origin)), EXIT.unreachable, /answered 502 with a non-JSON body \(text\/html\)/, 30_000);
  }, 60_000);

  it('500 with the error envelope to everything: exit 3 within 30 s', async () => {
    const s = await hostile({ mode: 'all-500' });
    expectEnded(await cli('all-500', profileAt(s.origin)), EXIT.unreachable, /answered 500 twice with the API error envelope/, 30_000);
  }, 60_000);

  it('JSON 404 at the base path: exit 3 within 30 s', async () => {
    const s = await hostile({ mode: 'json-404' });
    expectEnded(await cli('json-404', profileAt(s.origin)), EXIT.unreachable, /answered 404, a documented route missing at this base path/, 30_000);
  }, 60_000);

  it('redirect loop: exit 3 within 30 s, naming the Location', async () => {
    const s = await hostile({ mode: 'redirect-loop' });
    expectEnded(
      await cli('redirect', profileAt(s.origin)),
      EXIT.unreachable,
      new RegExp(`redirect \\(302\\) to ${s.origin.replace(/\./g, '\\.')}/v1/capabilities/assets`),
      30_000,
    );
  }, 60_000);

  it('1-byte/s drip (harness.bodyTimeoutMs 2000): exit 3 within 30 s', async () => {
    const s = await hostile({ mode: 'drip' });
    expectEnded(await cli('drip', profileAt(s.origin, { bodyTimeoutMs: 2_000 })), EXIT.unreachable, /body still arriving after 2 s/, 30_000);
  }, 60_000);

  it('50 MB body: exit 3 within 30 s, peak memory under 300 MB', async () => {
    const s = await hostile({ mode: 'huge-body' });
    expectEnded(await cli('huge', profileAt(s.origin)), EXIT.unreachable, /body larger than 8388608 bytes \(8 MiB\)/, 30_000);
  }, 60_000);

  it('429 with Retry-After 3600: exit 5 within 30 s, "rate limited by the target for 3600 s: wait or add keys"', async () => {
    const s = await hostile({ mode: 'rate-limited', retryAfter: '3600' });
    expectEnded(await cli('rate-limited', profileAt(s.origin)), EXIT.rateLimited, /rate limited by the target for 3600 s: wait or add keys/, 30_000);
    expect(s.seen).toHaveLength(1);
  }, 60_000);

  it('401 with the error envelope: exit 2 within 30 s, naming the partner, never the key', async () => {
    const s = await hostile({ mode: 'unauthorized' });
    expectEnded(await cli('unauthorized', profileAt(s.origin)), EXIT.usage, /gate partner gate-01: the target rejects its secret key/, 30_000);
  }, 60_000);

  it('TLS mismatch (https server, http profile): exit 3 within 30 s', async () => {
    const s = await hostile({ mode: 'healthy', tls: true });
    expectEnded(await cli('tls-http', profileAt(s.origin, {}, 'http')), EXIT.unreachable, /connection reset by the target .*check the scheme/, 30_000);
  }, 60_000);

  it('TLS mismatch (http server, https profile): exit 3 within 30 s', async () => {
    const s = await hostile({ mode: 'healthy' });
    expectEnded(await cli('tls-https', profileAt(s.origin, {}, 'https')), EXIT.unreachable, /TLS handshake failed/, 30_000);
  }, 60_000);

  it('a bad --request-timeout: exit 2, one line naming the flag', async () => {
    const s = await hostile({ mode: 'healthy' });
    expectEnded(
      await cli('bad-flag', profileAt(s.origin), ['--request-timeout', 'soon']),
      EXIT.usage,
      /--request-timeout soon is not a positive number/,
      30_000,
    );
    expect(s.seen).toHaveLength(0);
  }, 60_000);

  // Ready on the server side: startHostile({ mode: 'healthy-then-hang' | 'blip', upstream: <embedded target origin> }) forwards to a
  // real target (see test/hostile-server.test.ts); these wait for the runner's outage stop, signal handling and rate-limit end.
});

/** A profile whose Gate base goes through the hostile server (forwarding to the embedded target); pools straight to it. */
function throughHostile(ref: RunningReference, origin: string, harness: Record<string, number>): unknown {
  const p = structuredClone(ref.profile) as Record<string, any>;
  p.gate.baseUrls = { sandbox: `${origin}/v1` };
  p.harness = { ...p.harness, ...harness };
  delete p.reference;
  return p;
}

/** The checks a run's report failed, each with its first failure (the stderr tail shows only the checks not run). */
function failedIn(r: CliRun): string {
  try {
    const latest = realpathSync(join(r.reportsDir, 'latest'));
    const results = JSON.parse(readFileSync(join(latest, 'results.json'), 'utf8')) as RunResults;
    return results.checks
      .filter((c) => c.status === 'failed')
      .map((c) => `failed: ${c.name}: ${JSON.stringify(c.failure).slice(0, 600)}`)
      .join('\n');
  } catch (e) {
    return `no report: ${(e as Error).message}`;
  }
}

/** A run that stopped mid-way: its exit code, the cause as the last stderr line (progress lines come before it), a complete report `latest` points at. */
function expectStoppedMidRun(r: CliRun, exitCode: number, cause: RegExp, maxMs: number): RunResults {
  const lines = r.stderr.split('\n').filter((l) => l.trim() !== '');
  console.log(`matrix: ${r.name} exit ${r.code} ${(r.ms / 1000).toFixed(1)} s peak ${(r.peakRss / 1024 / 1024).toFixed(0)} MB`);
  expect(r.signal, 'the CLI must exit by itself').toBeNull();
  expect(r.code, `${failedIn(r)}\n${r.stderr.slice(-2000)}`).toBe(exitCode);
  expect(lines.at(-1)).toMatch(cause);
  expect(
    lines.filter((l) => cause.test(l)),
    lines.filter((l) => cause.test(l)).join('\n'),
  ).toHaveLength(1);
  expect(r.ms).toBeLessThan(maxMs);
  expect(r.peakRss).toBeLessThan(PEAK_LIMIT);
  const latest = realpathSync(join(r.reportsDir, 'latest'));
  expect(readdirSync(latest)).toEqual(expect.arrayContaining(['results.json', 'junit.xml', 'report.html', 'journal.jsonl']));
  const results = JSON.parse(readFileSync(join(latest, 'results.json'), 'utf8')) as RunResults;
  expect(scanDir(r.reportsDir)).toEqual([]);
  const written =
    readdirSync(latest)
      .map((f) => readFileSync(join(latest, f), 'utf8'))
      .join('\n') +
    r.stdout +
    r.stderr;
  for (const s of [...SECRETS, ...RANDOM_PARTS]) expect(written).not.toContain(s);
  return results;
}

describe('rampart conformance when the target goes wrong mid-run', () => {
  let ref: RunningReference;
  beforeAll(async () => {
    ref = await startEmbedded();
  });
  afterAll(async () => {
    await ref?.close();
  });

  it('healthy, then hanging after 60 requests: exit 3 naming when it stopped and the last answer; the checks left are not run, never failed', async () => {
    const h = await hostile({ mode: 'healthy-then-hang', healthyRequests: 60, upstream: new URL(ref.profile.gate.baseUrls.sandbox).origin });
    const r = await cli('outage', throughHostile(ref, h.origin, { requestTimeoutMs: 1000, outageAfter: 4 }), ['--service', 'gate']);
    const results = expectStoppedMidRun(
      r,
      EXIT.unreachable,
      /the target stopped answering mid-run: \d+ requests in a row got no answer since .*; the last answer came at/,
      120_000,
    );
    expect(results.error).toMatchObject({ exitCode: EXIT.unreachable });
    const notRun = results.checks.filter((c) => c.status === 'not_run');
    expect(notRun.length).toBeGreaterThan(0);
    // A request that got no answer because the target was down is the outage, not a broken rule.
    expect(results.checks.filter((c) => c.status === 'failed' && c.failure?.transport)).toEqual([]);
    expect(results.summary.verdict).not.toBe('CERTIFIED');
  }, 150_000);

  it('a blip (three resets, then healthy again) does not end the run', async () => {
    const h = await hostile({ mode: 'blip', healthyRequests: 10, blipRequests: 3, upstream: new URL(ref.profile.gate.baseUrls.sandbox).origin });
    const r = await cli('blip', throughHostile(ref, h.origin, { outageAfter: 8 }), ['--service', 'gate', '--grep', 'capabilities']);
    console.log(`matrix: blip exit ${r.code} ${(r.ms / 1000).toFixed(1)} s peak ${(r.peakRss / 1024 / 1024).toFixed(0)} MB`);
    expect(r.code, r.stderr.slice(-2000)).toBe(EXIT.ok);
    const results = JSON.parse(readFileSync(join(realpathSync(join(r.reportsDir, 'latest')), 'results.json'), 'utf8')) as RunResults;
    expect(results.error).toBeUndefined();
    expect(results.checks.filter((c) => c.status === 'failed' || c.status === 'not_run')).toEqual([]);
    expect(results.observations.some((o) => o.topic === 'client-retry')).toBe(true);
  }, 150_000);

  it('429 with Retry-After 3600 on every key after a healthy start: exit 5, "rate limited by the target", report written', async () => {
    const h = await hostile({
      mode: 'healthy-then-rate-limited',
      healthyRequests: 30,
      retryAfter: '3600',
      upstream: new URL(ref.profile.gate.baseUrls.sandbox).origin,
    });
    const r = await cli('rate-limited-mid-run', throughHostile(ref, h.origin, { rateLimitBudgetSeconds: 30 }), ['--service', 'gate']);
    const results = expectStoppedMidRun(r, EXIT.rateLimited, /rate limited by the target for \d+ s/, 120_000);
    expect(results.error).toMatchObject({ exitCode: EXIT.rateLimited });
    // It stopped sending into the announced wait: far fewer requests than the run would send.
    expect(h.seen.length).toBeLessThan(400);
  }, 150_000);
});
