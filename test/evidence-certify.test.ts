// End to end, through the real CLI: `rampart keys generate` → `rampart certify
// --sign-key` against the embedded target → `rampart verify` of
// reports/latest/certificate.json passes (exit 0) and prints what was
// certified; one flipped byte of report.html, or of certificate.json, fails it
// with a one-line reason (exit 1). One whole certify run (conformance, chaos
// and load), against a target whose rate windows are declared ×0.1 so the run
// stays short; the certificate records that scale. Its smoke gate is breached
// on purpose (a --gates file with p95 1 ms): a performance gate is a check like
// any other, so the whole run ends NOT CERTIFIED, exit 1, in every output. The
// gates are stricter than the defaults and nothing else (a shorter smoke would
// be looser: --sign-key would then be refused), so the run may be signed.
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningReference } from '../src/reference/server.js';
import type { Certificate } from '../src/report/certificate.js';
import type { RunResults } from '../src/report/results.js';
import { scanDir } from '../src/secrets/index.js';
import { startEmbedded } from './support/embedded.js';

const root = resolve(import.meta.dirname, '..');
const tmp = mkdtempSync(join(tmpdir(), 'rampart-certify-e2e-'));
const keys = join(tmp, 'keys');
const reports = join(tmp, 'reports');
const RATE_WINDOW_SCALE = 0.1;

let ref: RunningReference;
let certify: { code: number | null; stdout: string; stderr: string };
let runDir = '';
let results: RunResults;

function run(args: string[], timeoutMs: number): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [join(root, 'bin/rampart.js'), ...args], {
      cwd: root,
      env: { ...process.env, CI: '1', NO_COLOR: '1', GITHUB_STEP_SUMMARY: '' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const guard = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('close', (code) => {
      clearTimeout(guard);
      done({ code, stdout, stderr });
    });
  });
}

function verify(cert: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      [join(root, 'bin/rampart.js'), 'verify', cert, '--pub', join(keys, 'certify.pub')],
      { cwd: root, timeout: 60_000 },
      (err, stdout, stderr) => done({ code: err ? ((err as { code?: number }).code ?? -1) : 0, stdout: String(stdout), stderr: String(stderr) }),
    );
  });
}

/** Flip the lowest bit of one byte; returns a function that puts it back. */
function flipByte(file: string, at: number): () => void {
  const pristine = readFileSync(file);
  const buf = Buffer.from(pristine);
  buf[at] = buf[at]! ^ 0x01;
  writeFileSync(file, buf);
  return () => writeFileSync(file, pristine);
}

beforeAll(async () => {
  const gen = await run(['keys', 'generate', '--out', keys], 60_000);
  expect(gen.code, gen.stderr).toBe(0);
  ref = await startEmbedded({ tweak: (p) => ({ ...p, timing: { ...p.timing, rateWindowScale: RATE_WINDOW_SCALE } }) });
  const profileFile = join(tmp, 'profile.json');
  writeFileSync(profileFile, JSON.stringify(ref.profile), { mode: 0o600 });
  const defaults = JSON.parse(readFileSync(join(root, 'fixtures/gates.json'), 'utf8')) as { p95Ms: Record<string, number> };
  const gatesFile = join(tmp, 'gates-p95-1ms.json');
  writeFileSync(gatesFile, JSON.stringify({ ...defaults, p95Ms: Object.fromEntries(Object.keys(defaults.p95Ms).map((k) => [k, 1])) }));
  certify = await run(['certify', '--profile', profileFile, '--gates', gatesFile, '--sign-key', join(keys, 'certify.key'), '--reports-dir', reports], 540_000);
  runDir = realpathSync(join(reports, 'latest'));
  results = JSON.parse(readFileSync(join(runDir, 'results.json'), 'utf8')) as RunResults;
}, 600_000);

afterAll(async () => {
  await ref?.close();
  rmSync(tmp, { recursive: true, force: true });
});

describe('keys generate → certify --sign-key → verify', () => {
  it('a breached smoke gate: NOT CERTIFIED, exit 1, in the terminal, results.json, junit.xml, report.html and the certificate', () => {
    expect(results.scope).toMatchObject({ kinds: ['conformance', 'chaos', 'load', 'races'], whole: true });
    const gates = results.checks.filter((c) => c.status === 'failed' && c.requirements.length === 0);
    expect(gates.length, JSON.stringify(results.checks.filter((c) => c.file === 'scenarios/smoke.ts'))).toBeGreaterThan(0);
    expect(gates.every((c) => c.name.startsWith('smoke: gate http_req_duration') && c.failure?.kind === 'assertion')).toBe(true);
    expect(results.summary.verdict).toBe('NOT CERTIFIED');
    expect(results.summary.failedWithoutRequirement).toEqual(expect.arrayContaining(gates.map((c) => c.name)));
    expect(certify.code).toBe(1);
    expect(certify.stdout).toMatch(/^NOT CERTIFIED\b.* — (\d+ requirements? failed; )?\d+ performance gate checks? failed \(smoke: gate /m);
    expect(readFileSync(join(runDir, 'junit.xml'), 'utf8')).toContain('<property name="verdict" value="NOT CERTIFIED"/>');
    expect(readFileSync(join(runDir, 'report.html'), 'utf8')).toContain('<div class="big">NOT CERTIFIED</div>');
    const cert = JSON.parse(readFileSync(join(runDir, 'certificate.json'), 'utf8')) as Certificate;
    expect(cert.verdict).toMatchObject({ label: 'NOT CERTIFIED', certified: false });
  });

  it("certify writes a signed certificate.json for the run, with the run's verdict and exit code", () => {
    console.log(`certify: exit ${certify.code}; ${certify.stdout.split('\n').find((l) => /^(CERTIFIED|NOT CERTIFIED|INCOMPLETE|INTERRUPTED)/.test(l))}`);
    expect(certify.stdout).toContain(`certificate: ${runDir}/certificate.json (signed)`);
    // A whole run: never the partial run's PASSED.
    expect(certify.code).toBe({ CERTIFIED: 0, PASSED: -1, INCOMPLETE: 0, 'NOT CERTIFIED': 1, INTERRUPTED: 130 }[results.summary.verdict]);
    const cert = JSON.parse(readFileSync(join(runDir, 'certificate.json'), 'utf8')) as Certificate;
    expect(cert.signature).toMatchObject({ alg: 'Ed25519' });
    expect(cert.verdict.label).toBe(results.summary.verdict);
    expect(cert.run).toMatchObject({ runId: results.runId, command: 'certify', depth: 'quick' });
    expect(cert.timeScales).toMatchObject({ rateWindowScale: RATE_WINDOW_SCALE });
    // The gates the load checks were judged by, stricter than the defaults: named, and not looser.
    expect(cert.gates).toMatchObject({ looser: [], content: { p95Ms: { read60: 1 } } });
    expect(cert.gates).toEqual(results.scope?.gates);
    expect(cert.requirements).toHaveLength(results.requirements.length);
    // Every report file of the run, hashed.
    expect(cert.files.map((f) => f.path)).toEqual(expect.arrayContaining(['report.html', 'results.json', 'junit.xml']));
    expect(scanDir(runDir)).toEqual([]);
  });

  it('rampart verify reports/latest/certificate.json --pub certify.pub: exit 0, printing what was certified', async () => {
    const v = await verify(join(reports, 'latest', 'certificate.json'));
    expect(v.code, v.stdout + v.stderr).toBe(0);
    expect(v.stdout).toMatch(/^valid: signature valid \(sha256:[0-9a-f]{64}\); \d+ file\(s\) match/);
    expect(v.stdout).toContain(`verdict: ${results.summary.verdict}`);
    expect(v.stdout).toContain(`run: certify ${results.runId}, depth quick`);
  });

  it('one flipped byte of report.html fails verify with one line naming it (exit 1); restored, it passes again', async () => {
    const html = join(runDir, 'report.html');
    const restore = flipByte(html, Math.floor(statSync(html).size / 2));
    try {
      const v = await verify(join(reports, 'latest', 'certificate.json'));
      expect(v.code).toBe(1);
      expect(v.stdout.trim().split('\n')).toEqual(['invalid: report.html changed after certification (its sha256 differs from the certificate)']);
    } finally {
      restore();
    }
    expect((await verify(join(reports, 'latest', 'certificate.json'))).code).toBe(0);
  });

  it('one flipped byte of certificate.json fails verify with a one-line reason (exit 1)', async () => {
    const file = join(runDir, 'certificate.json');
    const text = readFileSync(file, 'utf8');
    // A value (the verdict), the layout, and the signature itself.
    const positions = [text.indexOf(`"label": "${results.summary.verdict}"`) + 10, text.indexOf('\n  "', 20) + 1, text.indexOf('"value": "') + 12];
    for (const at of positions) expect(at).toBeGreaterThan(12);
    for (const at of positions) {
      const restore = flipByte(file, at);
      try {
        const v = await verify(file);
        expect(v.code, `byte ${at}`).toBe(1);
        const lines = v.stdout.trim().split('\n');
        expect(lines, `byte ${at}`).toHaveLength(1);
        expect(lines[0]).toMatch(/^invalid: /);
      } finally {
        restore();
      }
    }
    expect((await verify(file)).code).toBe(0);
  });
});
