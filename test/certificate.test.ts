// Signed certificate bundle: generate → sign → verify; any tampered byte, a
// wrong key or a missing signature fails with a one-line reason.
import { withSummary } from './support/results.js';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOGUE } from '../src/model/catalogue/index.js';
import { SPEC_VERSION } from '../src/model/limits.js';
import { loadProfile } from '../src/profile/load.js';
import { canonicalJson } from '../src/report/canonicalJson.js';
import { loadSigningKey, verifyCertificate, writeCertificate, type Certificate } from '../src/report/certificate.js';
import type { RunResults } from '../src/report/results.js';
import { listFiles, scanText } from '../src/secrets/index.js';
import { writeRun } from '../src/report/writeRun.js';

const root = resolve(import.meta.dirname, '..');
const tmp = mkdtempSync(join(tmpdir(), 'rampart-cert-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const profile = loadProfile(join(root, 'fixtures/profiles/embedded.json'));

function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      [join(root, 'bin/rampart.js'), ...args],
      { cwd: root, timeout: 60_000, env: { ...process.env, NO_COLOR: '1' } },
      (err, stdout, stderr) => done({ code: err ? ((err as { code?: number }).code ?? -1) : 0, stdout: String(stdout), stderr: String(stderr) }),
    );
  });
}

function results(runId: string): RunResults {
  return withSummary({
    runId,
    tool: { name: 'rampart', version: '0.1.0' },
    command: 'certify',
    depth: 'quick',
    startedAt: '2026-05-25T10:00:00.000Z',
    finishedAt: '2026-05-25T10:20:00.000Z',
    profile: { name: profile.name, baseUrls: { gateSandbox: profile.gate.baseUrls.sandbox } },
    environment: { node: process.version, platform: 'linux-x64', host: 'ci', specVersion: SPEC_VERSION },
    requirements: [
      {
        id: 'GATE-SESS-RETRIEVE',
        service: 'gate',
        title: 'retrieve',
        section: 'Endpoints > Sessions',
        status: 'passed',
        checks: [{ name: 'retrieve a session', status: 'passed', durationMs: 12 }],
      },
      { id: 'POOLS-TTL-ABOUT-15S', service: 'pools', title: 'ttl', section: 'Limits', status: 'out_of_scope', reason: 'needs --depth full', checks: [] },
    ],
    checks: [{ name: 'retrieve a session', suite: 'conformance', requirements: ['GATE-SESS-RETRIEVE'], status: 'passed', durationMs: 12 }],
    observations: [],
  });
}

/** A run directory written by writeRun, plus an artefact in a subfolder. */
async function runDir(name: string): Promise<{ dir: string; res: RunResults }> {
  const res = results(`20260525T100000Z-${name}`);
  const { dir } = await writeRun(res, { reportsDir: join(tmp, `reports-${name}`) });
  mkdirSync(join(dir, 'k6'));
  writeFileSync(join(dir, 'k6', 'summary.json'), '{"ok":true}\n');
  return { dir, res };
}

function flipByte(file: string, at: number): void {
  const buf = readFileSync(file);
  buf[at] = buf[at]! ^ 0x01;
  writeFileSync(file, buf);
}

const keysDir = join(tmp, 'keys');
const otherKeysDir = join(tmp, 'other-keys');
const toolsDir = join(tmp, 'tools');
let keygenOut = '';

beforeAll(async () => {
  const a = await cli(['keys', 'generate', '--out', keysDir]);
  expect(a.code, a.stderr).toBe(0);
  keygenOut = a.stdout + a.stderr;
  const b = await cli(['keys', 'generate', '--out', otherKeysDir]);
  expect(b.code, b.stderr).toBe(0);
  mkdirSync(toolsDir);
  writeFileSync(join(toolsDir, '.k6.version'), 'v2.2.0\n');
  writeFileSync(join(toolsDir, '.toxiproxy-server.version'), 'v2.12.0\n');
});

describe('rampart keys generate', () => {
  it('writes certify.key (PKCS8 PEM, mode 0600) and certify.pub (SPKI PEM), and never prints the private key', () => {
    const key = readFileSync(join(keysDir, 'certify.key'), 'utf8');
    expect(key).toMatch(/^-----BEGIN PRIVATE KEY-----\n/);
    expect(readFileSync(join(keysDir, 'certify.pub'), 'utf8')).toMatch(/^-----BEGIN PUBLIC KEY-----\n/);
    expect(statSync(join(keysDir, 'certify.key')).mode & 0o777).toBe(0o600);
    const body = key
      .split('\n')
      .filter((l) => l && !l.startsWith('-----'))
      .join('');
    expect(keygenOut).not.toContain(body);
    expect(keygenOut).not.toContain('PRIVATE KEY-----');
    expect(keygenOut).toMatch(/sha256:[0-9a-f]{64}/);
    expect(loadSigningKey(join(keysDir, 'certify.key')).asymmetricKeyType).toBe('ed25519');
  });

  it('refuses to overwrite an existing pair without --force (exit 2, one line), replaces it with --force', async () => {
    const dir = join(tmp, 'keys-overwrite');
    expect((await cli(['keys', 'generate', '--out', dir])).code).toBe(0);
    const before = readFileSync(join(dir, 'certify.key'), 'utf8');
    const refused = await cli(['keys', 'generate', '--out', dir]);
    expect(refused.code).toBe(2);
    expect(refused.stderr.trim().split('\n')).toHaveLength(1);
    expect(refused.stderr).toMatch(/already exists — pass --force/);
    expect(readFileSync(join(dir, 'certify.key'), 'utf8')).toBe(before);
    const forced = await cli(['keys', 'generate', '--out', dir, '--force']);
    expect(forced.code).toBe(0);
    expect(readFileSync(join(dir, 'certify.key'), 'utf8')).not.toBe(before);
    expect(statSync(join(dir, 'certify.key')).mode & 0o777).toBe(0o600);
  });

  it('refuses a directory inside the repository work tree that git would pick up', async () => {
    const inside = join(root, 'tmp-keys-should-not-exist');
    const r = await cli(['keys', 'generate', '--out', inside]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/inside a git work tree and not ignored/);
    expect(() => statSync(inside)).toThrow();
  });

  it('a signing key tracked by git is refused', () => {
    expect(() => loadSigningKey(join(root, 'package.json'))).toThrow(/tracked by git/);
  });
});

describe('certificate.json', () => {
  it('carries the verdict, per-requirement results, versions, catalogue hash, profile identity (no keys), time scales, tools and every file hash', async () => {
    const { dir, res } = await runDir('content');
    writeCertificate(dir, res, { signKeyFile: join(keysDir, 'certify.key'), profile, toolsDir });
    const text = readFileSync(join(dir, 'certificate.json'), 'utf8');
    const cert = JSON.parse(text) as Certificate;
    expect(cert.verdict).toMatchObject({ certified: true, label: 'CERTIFIED' });
    expect(cert.requirements).toEqual([
      { id: 'GATE-SESS-RETRIEVE', status: 'passed' },
      { id: 'POOLS-TTL-ABOUT-15S', status: 'out_of_scope' },
    ]);
    expect(cert.rampart.version).toBe('0.1.0');
    expect(cert.catalogue).toEqual({ sha256: createHash('sha256').update(canonicalJson(CATALOGUE)).digest('hex'), requirements: CATALOGUE.length });
    expect(cert.specVersions).toEqual({ gate: SPEC_VERSION, pools: SPEC_VERSION });
    expect(cert.run).toMatchObject({ depth: 'quick', command: 'certify', startedAt: res.startedAt, finishedAt: res.finishedAt });
    expect(cert.profile.name).toBe('embedded');
    expect(cert.profile.baseUrls.gateSandbox).toBe(profile.gate.baseUrls.sandbox);
    expect(cert.profile.partners.gate).toEqual(profile.gate.partners.map((p) => p.name));
    expect(cert.timeScales).toEqual({ retryScale: profile.timing.retryScale, rateWindowScale: profile.timing.rateWindowScale });
    expect(cert.tools).toMatchObject({ k6: 'v2.2.0', toxiproxy: 'v2.12.0' });
    // Every file of the run directory but the certificate itself, with its real hash.
    const files = listFiles(dir)
      .map((p) => p.slice(dir.length + 1))
      .filter((p) => p !== 'certificate.json');
    expect(cert.files.map((f) => f.path).sort()).toEqual(files.sort());
    expect(cert.files.map((f) => f.path)).toContain('k6/summary.json');
    for (const f of cert.files)
      expect(f.sha256).toBe(
        createHash('sha256')
          .update(readFileSync(join(dir, f.path)))
          .digest('hex'),
      );
    // No secret in any form.
    expect(scanText(text)).toEqual([]);
    for (const p of profile.gate.partners) for (const s of [p.secretKey, p.publishableKey, p.webhookSecret]) if (s) expect(text).not.toContain(s);
    expect(cert.signature).toMatchObject({ alg: 'Ed25519', publicKeyFingerprint: expect.stringMatching(/^sha256:[0-9a-f]{64}$/) });
  });

  it('generate → sign → verify: valid, and rampart verify prints what was certified (exit 0)', async () => {
    const { dir, res } = await runDir('valid');
    writeCertificate(dir, res, { signKeyFile: join(keysDir, 'certify.key'), profile, toolsDir });
    const pub = readFileSync(join(keysDir, 'certify.pub'), 'utf8');
    const v = verifyCertificate(join(dir, 'certificate.json'), pub);
    expect(v).toMatchObject({ ok: true });
    expect(v.reason).toMatch(/signature valid .*\d+ file\(s\) match/);
    const r = await cli(['verify', join(dir, 'certificate.json'), '--pub', join(keysDir, 'certify.pub')]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^valid: /);
    expect(r.stdout).toMatch(/verdict: CERTIFIED/);
    expect(r.stdout).toMatch(/profile: embedded/);
    expect(r.stdout).toMatch(/depth quick/);
    expect(r.stdout).toContain(res.startedAt);
    expect(r.stdout).toMatch(/rampart 0\.1\.0, catalogue sha256:[0-9a-f]{16}…/);
    expect(r.stdout).toContain(`specs gate ${SPEC_VERSION}`);
  });

  it('one flipped byte of report.html fails verification, naming report.html (exit 1, one line)', async () => {
    const { dir, res } = await runDir('tamper-html');
    writeCertificate(dir, res, { signKeyFile: join(keysDir, 'certify.key'), profile, toolsDir });
    const html = join(dir, 'report.html');
    flipByte(html, Math.floor(statSync(html).size / 2));
    const v = verifyCertificate(join(dir, 'certificate.json'), readFileSync(join(keysDir, 'certify.pub'), 'utf8'));
    expect(v.ok).toBe(false);
    expect(v.reason).toBe('report.html changed after certification (its sha256 differs from the certificate)');
    const r = await cli(['verify', join(dir, 'certificate.json'), '--pub', join(keysDir, 'certify.pub')]);
    expect(r.code).toBe(1);
    expect(r.stdout.trim().split('\n')).toEqual(['invalid: report.html changed after certification (its sha256 differs from the certificate)']);
  });

  it('a file added after certification does not fail verification but is named as not covered', async () => {
    const { dir, res } = await runDir('added');
    writeCertificate(dir, res, { signKeyFile: join(keysDir, 'certify.key') });
    writeFileSync(join(dir, 'notes.txt'), 'added later\n');
    const v = verifyCertificate(join(dir, 'certificate.json'), readFileSync(join(keysDir, 'certify.pub'), 'utf8'));
    expect(v.ok).toBe(true);
    expect(v.reason).toMatch(/; not covered by the certificate: notes\.txt$/);
  });

  it('a deleted report file fails verification, naming it', async () => {
    const { dir, res } = await runDir('missing');
    writeCertificate(dir, res, { signKeyFile: join(keysDir, 'certify.key') });
    rmSync(join(dir, 'junit.xml'));
    const v = verifyCertificate(join(dir, 'certificate.json'), readFileSync(join(keysDir, 'certify.pub'), 'utf8'));
    expect(v).toMatchObject({ ok: false, reason: 'junit.xml is missing from the run directory' });
  });

  it('one flipped byte anywhere in certificate.json fails verification (a value, the layout, the signature)', async () => {
    const { dir, res } = await runDir('tamper-cert');
    writeCertificate(dir, res, { signKeyFile: join(keysDir, 'certify.key'), profile, toolsDir });
    const certFile = join(dir, 'certificate.json');
    const pristine = readFileSync(certFile);
    const text = pristine.toString('utf8');
    const pub = readFileSync(join(keysDir, 'certify.pub'), 'utf8');
    expect(verifyCertificate(certFile, pub).ok).toBe(true);
    const positions = {
      'a value (the verdict label)': text.indexOf('CERTIFIED'),
      'a file hash': text.indexOf('"sha256": "') + 12,
      'the layout (indentation)': text.indexOf('\n  "') + 1,
      'the signature value': text.indexOf('"value": "') + 12,
      'a key name': text.indexOf('"depth"') + 2,
    };
    const reasons: string[] = [];
    for (const [what, at] of Object.entries(positions)) {
      expect(at, what).toBeGreaterThan(0);
      writeFileSync(certFile, pristine);
      flipByte(certFile, at);
      const v = verifyCertificate(certFile, pub);
      expect(v.ok, what).toBe(false);
      expect(v.reason.split('\n'), what).toHaveLength(1);
      reasons.push(v.reason);
    }
    // Every byte of the file, not only the chosen ones (the file is a few KB).
    for (let at = 0; at < pristine.length; at++) {
      const copy = Buffer.from(pristine);
      copy[at] = copy[at]! ^ 0x01;
      writeFileSync(certFile, copy);
      expect(verifyCertificate(certFile, pub).ok, `byte ${at}`).toBe(false);
    }
    expect(reasons.some((r) => /changed after signing/.test(r))).toBe(true);
  });

  it('the wrong public key fails verification (exit 1)', async () => {
    const { dir, res } = await runDir('wrong-key');
    writeCertificate(dir, res, { signKeyFile: join(keysDir, 'certify.key'), profile, toolsDir });
    const v = verifyCertificate(join(dir, 'certificate.json'), readFileSync(join(otherKeysDir, 'certify.pub'), 'utf8'));
    expect(v.ok).toBe(false);
    expect(v.reason).toMatch(/^signed by another key \(sha256:[0-9a-f]{64}\); the given public key is sha256:[0-9a-f]{64}$/);
    const r = await cli(['verify', join(dir, 'certificate.json'), '--pub', join(otherKeysDir, 'certify.pub')]);
    expect(r.code).toBe(1);
  });

  it('an unsigned bundle says so in the file, and verification fails saying it is unsigned', async () => {
    const { dir, res } = await runDir('unsigned');
    const out = writeCertificate(dir, res, { profile, toolsDir });
    expect(out.signed).toBe(false);
    const cert = JSON.parse(readFileSync(join(dir, 'certificate.json'), 'utf8')) as Certificate;
    expect(cert.signature).toBeNull();
    expect(cert.unsigned).toBe(true);
    expect(cert.note).toMatch(/^unsigned: no --sign-key/);
    const v = verifyCertificate(join(dir, 'certificate.json'), readFileSync(join(keysDir, 'certify.pub'), 'utf8'));
    expect(v.ok).toBe(false);
    expect(v.reason).toMatch(/^the certificate is unsigned/);
  });

  it('rampart verify: bad usage is exit 2 with one line (no --pub, unreadable certificate, not a public key)', async () => {
    const { dir, res } = await runDir('usage');
    writeCertificate(dir, res, { signKeyFile: join(keysDir, 'certify.key') });
    const cert = join(dir, 'certificate.json');
    for (const args of [
      ['verify', cert],
      ['verify', join(tmp, 'nope.json'), '--pub', join(keysDir, 'certify.pub')],
      ['verify', cert, '--pub', join(keysDir, 'certify.key')],
      ['verify', cert, '--pub', join(dir, 'results.json')],
    ]) {
      const r = await cli(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
    }
    expect(readdirSync(dir)).toContain('certificate.json');
  });
});
