// Bad input ends with one line, the right exit code, and a report that is still written.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunResults } from '../src/report/results.js';
import { scanDir, scanText } from '../src/secrets/index.js';

const root = resolve(import.meta.dirname, '..');
const tmp = mkdtempSync(join(tmpdir(), 'rampart-badinput-'));
const embedded = JSON.parse(readFileSync(join(root, 'fixtures/profiles/embedded.json'), 'utf8'));

interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
  reportsDir: string;
}

/**
 * Spawns the real CLI asynchronously, so servers in this process keep answering. Bounded by a timeout.
 * A profile of null means none: the embedded reference target.
 */
function cli(name: string, profile: unknown, env: Record<string, string | undefined> = {}, command = 'conformance'): Promise<CliRun> {
  const profileArgs: string[] = [];
  if (profile !== null) {
    const profilePath = join(tmp, `${name}.json`);
    writeFileSync(profilePath, typeof profile === 'string' ? profile : JSON.stringify(profile, null, 2));
    profileArgs.push('--profile', profilePath);
  }
  const reportsDir = join(tmp, `reports-${name}`);
  return new Promise((done) => {
    execFile(
      process.execPath,
      [join(root, 'bin/rampart.js'), command, ...profileArgs, '--reports-dir', reportsDir],
      { cwd: root, env: { ...process.env, NO_COLOR: '1', CI: '1', ...env }, timeout: 90_000 },
      (err, stdout, stderr) => done({ code: err ? ((err as { code?: number }).code ?? -1) : 0, stdout: String(stdout), stderr: String(stderr), reportsDir }),
    );
  });
}

/** The embedded profile pointed at another origin (both services; base URLs end in /v1 as the schema requires). */
function withOrigin(origin: string): typeof embedded {
  const p = structuredClone(embedded);
  p.gate.baseUrls = { sandbox: `${origin}/v1`, production: `${origin}/prod/v1` };
  if (p.pools) p.pools.baseUrls = { sandbox: `${origin}/pools/v1`, production: `${origin}/pools/prod/v1` };
  return p;
}

function stderrLines(r: CliRun): string[] {
  return r.stderr.split('\n').filter((l) => l.trim() !== '');
}

function latestResults(r: CliRun): RunResults {
  const dir = realpathSync(join(r.reportsDir, 'latest'));
  return JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as RunResults;
}

function assertNoSecrets(r: CliRun): void {
  expect(scanText(r.stdout)).toEqual([]);
  expect(scanText(r.stderr)).toEqual([]);
  // The profile's own keys must not appear in any form either.
  for (const p of embedded.gate.partners.slice(0, 3)) for (const s of [p.secretKey, p.webhookSecret]) expect(r.stdout + r.stderr).not.toContain(s);
  for (const name of readdirSync(r.reportsDir)) if (name !== 'latest' && name !== 'history.db') expect(scanDir(join(r.reportsDir, name))).toEqual([]);
}

let closedPort = 0;
let html502: Server;
let html502Url = '';

beforeAll(async () => {
  // A port that was just free and is closed again: connections are refused.
  const probe = createServer();
  await new Promise<void>((ok) => probe.listen(0, '127.0.0.1', ok));
  closedPort = (probe.address() as AddressInfo).port;
  await new Promise<void>((ok) => probe.close(() => ok()));
  html502 = createServer((_req, res) => {
    res.writeHead(502, { 'content-type': 'text/html' });
    res.end('<html><body><h1>502 Bad Gateway</h1></body></html>');
  });
  await new Promise<void>((ok) => html502.listen(0, '127.0.0.1', ok));
  html502Url = `http://127.0.0.1:${(html502.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((ok) => html502?.close(() => ok()));
  rmSync(tmp, { recursive: true, force: true });
});

describe('rampart conformance with bad input', () => {
  it('unreachable target (closed port): exit 3, one line naming the target and what to do, results.json with the error', async () => {
    const r = await cli('unreachable', withOrigin(`http://127.0.0.1:${closedPort}`));
    expect(r.code).toBe(3);
    const lines = stderrLines(r);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/unreachable|refused/i);
    expect(lines[0]).toContain(`127.0.0.1:${closedPort}`);
    expect(lines[0]).toMatch(/is the target running|check|start/i);
    const results = latestResults(r);
    expect(results.error).toMatchObject({ exitCode: 3 });
    expect(results.error!.message).toMatch(/unreachable|refused/i);
    expect(readdirSync(realpathSync(join(r.reportsDir, 'latest')))).toEqual(expect.arrayContaining(['results.json', 'junit.xml', 'report.html']));
    assertNoSecrets(r);
  }, 100_000);

  it('malformed profile (bad field): exit 2, one line naming the field path', async () => {
    const p = structuredClone(embedded);
    p.gate.baseUrls.sandbox = 'not a url';
    const r = await cli('malformed', p);
    expect(r.code).toBe(2);
    const lines = stderrLines(r);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('/gate/baseUrls/sandbox');
    expect(latestResults(r).error).toMatchObject({ exitCode: 2 });
    assertNoSecrets(r);
  }, 100_000);

  it('a profile moving a value the spec fixes (quote TTL 60 s, attempt timeout 30 s): exit 2, one line naming the field', async () => {
    for (const [field, timing] of [
      ['timing/quoteTtlSeconds', { quoteTtlSeconds: 60 }],
      ['timing/attemptTimeoutMs', { attemptTimeoutMs: 30_000 }],
    ] as const) {
      const p = structuredClone(embedded) as typeof embedded & { timing: Record<string, unknown> };
      p.timing = { ...p.timing, ...timing };
      const r = await cli(`spec-fixed-${field.split('/')[1]}`, p);
      expect(r.code, field).toBe(2);
      const lines = stderrLines(r);
      expect(lines, field).toHaveLength(1);
      expect(lines[0]).toContain(`/${field}`);
      expect(lines[0]).toMatch(/fixed by the .* spec/);
      assertNoSecrets(r);
    }
  }, 100_000);

  it('target answering every request with an HTML 502: exit 3, one line, report written', async () => {
    const r = await cli('html502', withOrigin(html502Url));
    expect(r.code).toBe(3);
    const lines = stderrLines(r);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/502/);
    expect(lines[0]).toMatch(/non-JSON|html/i);
    const results = latestResults(r);
    expect(results.error).toMatchObject({ exitCode: 3 });
    assertNoSecrets(r);
  }, 100_000);

  it('missing ${ENV} variable: exit 2, one line naming it', async () => {
    const p = structuredClone(embedded);
    p.gate.partners[0].secretKey = '${RAMPART_TEST_UNSET_SECRET_KEY}';
    const r = await cli('missingenv', p, { RAMPART_TEST_UNSET_SECRET_KEY: undefined });
    expect(r.code).toBe(2);
    const lines = stderrLines(r);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('RAMPART_TEST_UNSET_SECRET_KEY');
    expect(latestResults(r).error).toMatchObject({ exitCode: 2 });
    assertNoSecrets(r);
  }, 100_000);

  it('chaos with an unknown RAMPART_TOXIPROXY: exit 2 before any traffic, one line naming the accepted values', async () => {
    const r = await cli('toxiproxymode', null, { RAMPART_TOXIPROXY: 'docker' }, 'chaos');
    expect(r.code).toBe(2);
    const lines = stderrLines(r);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('RAMPART_TOXIPROXY=docker is not one of auto, local, testcontainers');
    const results = latestResults(r);
    expect(results.error).toMatchObject({ exitCode: 2 });
    expect(results.checks).toEqual([]);
    assertNoSecrets(r);
  }, 100_000);
});
