// rampart as people install it: `npm pack`, `npm i <tarball>` into an empty
// project, then `npx rampart` from that project's folder. Every default
// (gates, the embedded profile, suites, scenarios, spec texts, the tools
// module) must come from the installed package, and the report must land in
// the project's ./reports. The full `npx rampart setup && npx rampart certify`
// from a fresh folder is a step of .ci/run (about two minutes).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const REPO = join(import.meta.dirname, '..');
const work = mkdtempSync(join(tmpdir(), 'rampart-install-'));
const project = join(work, 'project');

const run = (cmd: string, args: string[], cwd: string, timeout = 120_000) => {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', timeout, env: { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false' } });
  return { status: r.status, out: `${r.stdout ?? ''}${r.stderr ?? ''}` };
};

let tarball = '';

beforeAll(() => {
  const packed = run('npm', ['pack', '--pack-destination', work, '--json'], REPO);
  expect(packed.status, packed.out).toBe(0);
  tarball = join(work, (JSON.parse(packed.out.slice(packed.out.indexOf('['))) as { filename: string }[])[0]!.filename);
  // An empty project: what `npm init -y` writes, nothing of rampart's.
  spawnSync('mkdir', ['-p', project]);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'partner-project', version: '1.0.0', private: true }, null, 2));
  const installed = run('npm', ['i', '--prefer-offline', '--no-audit', '--no-fund', tarball], project, 300_000);
  expect(installed.status, installed.out).toBe(0);
}, 360_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the packed tarball, installed into an empty project', () => {
  it('holds what runs and nothing of the repository around it', () => {
    const pkg = join(project, 'node_modules', 'rampart');
    for (const f of [
      'bin/rampart.js',
      'fixtures/gates.json',
      'fixtures/profiles/embedded.json',
      'src/model/text/gate-api.md',
      'src/runner/calibration.json',
      'tools/go.mod',
      'tools/go.sum',
      'scenarios/smoke.ts',
    ])
      expect(existsSync(join(pkg, f)), f).toBe(true);
    for (const dir of ['conformance/gate', 'chaos/pools']) expect(readdirSync(join(pkg, dir)).length, dir).toBeGreaterThan(0);
    for (const f of ['test', 'bench', 'reports', 'tools/bin', '.ci']) expect(existsSync(join(pkg, f)), f).toBe(false);
  });

  it('npx rampart --version prints rampart and the pinned tools', () => {
    const r = run('npx', ['--no', '--', 'rampart', '--version'], project);
    expect(r.status, r.out).toBe(0);
    const version = (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string }).version;
    expect(r.out).toContain(`rampart ${version}`);
    expect(r.out).toMatch(/^k6 v\d+\.\d+\.\d+ \(pinned\): /m);
    expect(r.out).toMatch(/^toxiproxy-server v\d+\.\d+\.\d+ \(pinned\): /m);
  });

  it("a short conformance run from the project's folder passes and writes ./reports/latest there", () => {
    const r = run('npx', ['--no', '--', 'rampart', 'conformance', '--grep', 'branding'], project);
    expect(r.status, r.out).toBe(0);
    for (const f of ['report.html', 'results.json', 'junit.xml']) expect(existsSync(join(project, 'reports', 'latest', f)), f).toBe(true);
    const results = JSON.parse(readFileSync(join(project, 'reports', 'latest', 'results.json'), 'utf8')) as { summary: { passed: number; failed: number } };
    expect(results.summary.failed).toBe(0);
    expect(results.summary.passed).toBeGreaterThan(0);
    expect(existsSync(join(project, 'node_modules', 'rampart', 'reports'))).toBe(false);
  });

  it('rampart plan reads the embedded profile and the calibration from the package', () => {
    const r = run('npx', ['--no', '--', 'rampart', 'plan', '--for', 'load', '--json'], project);
    expect(r.status, r.out).toBe(0);
    expect(JSON.parse(r.out)).toHaveProperty('lowerBoundSeconds');
  });
});
