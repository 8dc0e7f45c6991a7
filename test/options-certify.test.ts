// Options cannot certify what was not checked: gates looser than rampart's defaults end "PASSED — custom gates"
// (never CERTIFIED, never signed) and every output names the gates used; --sign-key where nothing can be signed
// is refused (exit 2, one line); NOT CERTIFIED exits 1 whatever run error came with it; and --resume refuses
// another profile (or a changed one, or other gates) before writing anything.
import { copyFileSync, existsSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { cliIn } from './support/cli.js';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { profileSha256, resumeOptions } from '../src/cli/resume.js';
import { EXIT } from '../src/exitCodes.js';
import { findK6 } from '../src/load/k6.js';
import { gatesUsed, loadGates, loosenedGates, type Gates } from '../src/load/gates.js';
import { CATALOGUE } from '../src/model/catalogue/index.js';
import { buildCertificate } from '../src/report/certificate.js';
import { toHtml } from '../src/report/html.js';
import { toJunit } from '../src/report/junit.js';
import type { CheckResult, RunResults, RunScope } from '../src/report/results.js';
import { exitCodeOf, headlineOf, requirementResults, runScope, summarize } from '../src/report/verdict.js';
import { writeRunRecord } from '../src/runner/journal.js';

const root = resolve(import.meta.dirname, '..');
const tmp = mkdtempSync(join(tmpdir(), 'rampart-options-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const defaults = loadGates();
const raw = JSON.parse(readFileSync(join(root, 'fixtures/gates.json'), 'utf8')) as Gates;
function gatesFile(name: string, edit: (g: Gates) => Gates): string {
  const file = join(tmp, `${name}.json`);
  writeFileSync(file, JSON.stringify(edit(structuredClone(raw)), null, 2));
  return file;
}
/** One latency threshold 100 ms above the default's, whatever the defaults are. */
const LOOSE_READ60 = defaults.p95Ms.read60! + 100;
const LOOSER = `p95Ms.read60 ${LOOSE_READ60} ms > ${defaults.p95Ms.read60} ms`;
const looserFile = gatesFile('looser', (g) => ({ ...g, p95Ms: { ...g.p95Ms, read60: LOOSE_READ60 } }));
const stricterFile = gatesFile('stricter', (g) => ({ ...g, p95Ms: { ...g.p95Ms, read60: 200 }, errorRate: 0.001, smokeDurationSeconds: 60 }));

describe('gates looser than the defaults', () => {
  it('names every value that asks less: a larger or dropped latency threshold, a higher error rate, less load', () => {
    expect(loosenedGates(defaults, defaults)).toEqual([]);
    const { write10: _dropped, ...p99 } = defaults.p99Ms;
    const loose = {
      ...defaults,
      errorRate: 1,
      p95Ms: { ...defaults.p95Ms, read60: defaults.p95Ms.read60! + 1 },
      p99Ms: p99,
      raceVus: 2,
      smokeDurationSeconds: 5,
    };
    expect(loosenedGates(loose, defaults)).toEqual([
      'errorRate 1 > 0.01',
      `p95Ms.read60 ${defaults.p95Ms.read60! + 1} ms > ${defaults.p95Ms.read60} ms`,
      `p99Ms.write10 dropped (default ${defaults.p99Ms.write10} ms)`,
      'raceVus 2 < 16',
      'smokeDurationSeconds 5 < 30',
    ]);
    // Stricter everywhere, and a threshold for a group the defaults do not have: nothing looser.
    const strict = { ...defaults, errorRate: 0, p95Ms: { ...defaults.p95Ms, read60: 1, extra: 5 }, quoteTtlVus: 120, soakDurationSeconds: 7200 };
    expect(loosenedGates(strict, defaults)).toEqual([]);
  });

  it("records the file, the sha256 of its bytes and its content; rampart's own file when none is given", () => {
    const used = gatesUsed(looserFile);
    expect(used).toMatchObject({ file: looserFile, looser: [LOOSER] });
    expect(used.content).toEqual(JSON.parse(readFileSync(looserFile, 'utf8')));
    expect(used.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(gatesUsed()).toMatchObject({ file: 'fixtures/gates.json (rampart default)', looser: [] });
    expect(gatesUsed(stricterFile).looser).toEqual([]);
  });
});

/** A whole certify run where every requirement in scope passed, judged by the given gates. */
function wholeRun(gates: RunScope['gates'], extra: Partial<RunResults> = {}, failed = false): RunResults {
  const scope = runScope(['conformance', 'chaos', 'load', 'races'], { depth: 'quick', gates });
  const checks: CheckResult[] = CATALOGUE.filter((q) => q.depth !== 'full').map((q, i) => ({
    name: `check of ${q.id}`,
    suite: q.suite,
    file: `${q.suite}/x.ts`,
    requirements: [q.id],
    status: failed && i === 0 ? 'failed' : 'passed',
    durationMs: 1,
    ...(failed && i === 0 ? { failure: { message: 'boom', kind: 'assertion' as const } } : {}),
  }));
  const base = {
    runId: 'r',
    tool: { name: 'rampart' as const, version: '0' },
    command: 'certify',
    depth: 'quick' as const,
    scope,
    startedAt: '2026-01-01T00:00:00.000Z',
    finishedAt: '2026-01-01T00:01:00.000Z',
    profile: { name: 'p', baseUrls: {} },
    environment: { node: '', platform: '', host: '', specVersion: '' },
    requirements: requirementResults(checks, { kinds: scope.kinds, depth: 'quick' }),
    checks,
    observations: [],
    ...extra,
  };
  return { ...base, summary: summarize(base) };
}

function certificateOf(r: RunResults) {
  const dir = mkdtempSync(join(tmp, 'cert-'));
  writeFileSync(join(dir, 'results.json'), JSON.stringify(r));
  return buildCertificate(r, dir);
}

describe('the verdict of a run by custom gates', () => {
  it('looser gates: PASSED — custom gates, exit 0, never CERTIFIED; results.json, junit.xml, report.html and the certificate name the gates', () => {
    const gates = gatesUsed(looserFile);
    const r = wholeRun(gates);
    expect(r.summary.verdict).toBe('PASSED');
    expect(headlineOf(r.summary)).toMatch(
      new RegExp(`^PASSED — custom gates \\(looser than rampart's defaults: ${LOOSER}\\): all \\d+ requirements in scope passed$`),
    );
    expect(exitCodeOf(r)).toBe(EXIT.ok);
    expect(r.scope).toMatchObject({ whole: true, gates: { file: looserFile, sha256: gates.sha256, looser: [LOOSER] } });
    expect(r.scope!.gates!.content).toMatchObject({ p95Ms: { read60: LOOSE_READ60 } });
    expect(toJunit(r)).toMatch(/<property name="gates" value="[^"]*looser\.json \(sha256 [0-9a-f]{12}…\): custom gates \(looser than rampart&apos;s defaults/);
    expect(toHtml(r).split('id="verdict"')[1]!.split('</section>')[0]).toContain('<div class="big">PASSED</div>');
    const cert = certificateOf(r);
    expect(cert.verdict).toMatchObject({ label: 'PASSED', certified: false });
    expect(cert.gates).toEqual(gates);
  });

  it('gates equal to or stricter than the defaults keep CERTIFIED, and the certificate names them too', () => {
    for (const file of [undefined, stricterFile]) {
      const r = wholeRun(gatesUsed(file));
      expect(r.summary.verdict, file).toBe('CERTIFIED');
      expect(headlineOf(r.summary)).toMatch(/^CERTIFIED — all \d+ requirements in scope passed$/);
      expect(certificateOf(r)).toMatchObject({ verdict: { certified: true }, gates: { looser: [] } });
    }
  });

  it('looser gates never hide a failure: NOT CERTIFIED, exit 1', () => {
    const r = wholeRun(gatesUsed(looserFile), {}, true);
    expect(r.summary.verdict).toBe('NOT CERTIFIED');
    expect(exitCodeOf(r)).toBe(EXIT.checkFailed);
  });
});

describe('NOT CERTIFIED exits 1 whatever else happened', () => {
  for (const [what, code] of [
    ['an outage', EXIT.unreachable],
    ['a rate-limit stop', EXIT.rateLimited],
    ['an internal error', EXIT.internal],
  ] as const) {
    it(`a failed check and ${what}: NOT CERTIFIED, exit 1, the run error said beside the verdict`, () => {
      const r = wholeRun(undefined, { error: { message: `${what} stopped the run`, exitCode: code } }, true);
      expect(r.summary.verdict).toBe('NOT CERTIFIED');
      expect(r.summary.verdictLine).toMatch(new RegExp(`^1 requirement failed; the run stopped: ${what} stopped the run$`));
      expect(exitCodeOf(r)).toBe(EXIT.checkFailed);
      expect(exitCodeOf(r, { failIncomplete: true })).toBe(EXIT.checkFailed);
    });
  }

  it('without a failure the run error keeps its own code', () => {
    const r = wholeRun(undefined, { error: { message: 'the target stopped answering', exitCode: EXIT.unreachable } });
    expect(r.summary.verdict).toBe('INCOMPLETE');
    expect(exitCodeOf(r)).toBe(EXIT.unreachable);
  });
});

const cli = cliIn(tmp);
const oneLine = (stderr: string) => stderr.split('\n').filter((l) => l.trim());

describe('--sign-key where nothing can be signed: exit 2, one line, nothing run', () => {
  it('certify --gates <looser> --sign-key: refused up front', async () => {
    const r = await cli(['certify', '--gates', looserFile, '--sign-key', join(tmp, 'no-such.key')]);
    expect(r.code).toBe(EXIT.usage);
    expect(oneLine(r.stderr)).toEqual([
      expect.stringMatching(
        new RegExp(
          `^rampart: --sign-key is refused: a certificate is signed only for rampart's default gates or stricter, and .*looser\\.json are custom gates \\(looser than rampart's defaults: ${LOOSER}\\)$`,
        ),
      ),
    ]);
    expect(r.stdout).toBe('');
    expect(existsSync(r.reports)).toBe(false);
  });

  for (const args of [
    ['load', '--merge', join(tmp, 'pods.log'), '--scenario', 'smoke'],
    ['load', '--emit', 'k6-operator', join(tmp, 'bundle'), '--profile', 'fixtures/profiles/embedded.json'],
  ]) {
    it(`${args.slice(0, 2).join(' ')} --sign-key: refused (it writes no certificate)`, async () => {
      writeFileSync(join(tmp, 'pods.log'), '');
      const r = await cli([...args, '--sign-key', join(tmp, 'no-such.key')]);
      expect(r.code).toBe(EXIT.usage);
      expect(oneLine(r.stderr)).toEqual([
        `rampart: --sign-key is refused: load ${args[1]} writes no certificate (only rampart certify, a whole run, signs one)`,
      ]);
      expect(existsSync(join(tmp, 'bundle'))).toBe(false);
      expect(existsSync(r.reports)).toBe(false);
    });
  }
});

describe.skipIf('missing' in findK6())('load by looser gates, through the CLI', () => {
  it('load --scenario smoke --gates <looser>: PASSED — partial run (…); custom gates (…), recorded in results.json and junit.xml', async () => {
    const file = gatesFile('looser-short', (g) => ({ ...g, p95Ms: { ...g.p95Ms, read60: LOOSE_READ60 }, smokeDurationSeconds: 25 }));
    const r = await cli(['load', '--scenario', 'smoke', '--gates', file], 180_000);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(
      new RegExp(
        `^PASSED( \\(time-scaled[^)]*\\))? — partial run \\(load only, scenario smoke\\); custom gates \\(looser than rampart's defaults: ${LOOSER}; smokeDurationSeconds 25 < 30\\): `,
        'm',
      ),
    );
    expect(r.stdout).toMatch(/^gates: .*looser-short\.json \(sha256 [0-9a-f]{12}…\) — custom gates .*: never CERTIFIED, never signed$/m);
    const dir = realpathSync(join(r.reports, 'latest'));
    const results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as RunResults;
    expect(results.scope?.gates).toMatchObject({ file, looser: [LOOSER, 'smokeDurationSeconds 25 < 30'] });
    expect(results.scope?.gates?.content).toEqual(JSON.parse(readFileSync(file, 'utf8')));
    expect(readFileSync(join(dir, 'junit.xml'), 'utf8')).toContain('<property name="gates" value="');
  }, 200_000);
});

/** Every file under a directory, with its size and modification time: "nothing new was written" is this unchanged. */
function snapshot(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const f of readdirSync(d)) {
      const p = join(d, f);
      const s = statSync(p);
      if (s.isDirectory()) walk(p);
      else out.push(`${p} ${s.size} ${s.mtimeMs}`);
    }
  };
  walk(dir);
  return out.sort();
}

describe('--resume keeps its target', () => {
  it('another profile: exit 2, one line, nothing new written; the same (embedded) target resumes', async () => {
    const first = await cli(['conformance', '--grep', 'GATE-CUST-GET-404']);
    expect(first.code, first.stderr).toBe(0);
    const runDir = realpathSync(join(first.reports, 'latest'));
    const record = JSON.parse(readFileSync(join(runDir, 'run.json'), 'utf8')) as { profileSha256?: string };
    expect(record.profileSha256).toBe(profileSha256(undefined, undefined));
    const before = snapshot(first.reports);

    const other = await cli(['conformance', '--resume', runDir, '--profile', 'fixtures/profiles/embedded-alt.json']);
    expect(other.code).toBe(EXIT.usage);
    expect(oneLine(other.stderr)).toEqual([
      expect.stringMatching(
        /^rampart: --resume refused: the profile fixtures\/profiles\/embedded-alt\.json \(sha256 [0-9a-f]{12}…\) is not the profile run \S+ started with \(sha256 [0-9a-f]{12}…, the embedded target\)/,
      ),
    ]);
    expect(other.stdout).toBe('');
    expect(snapshot(first.reports)).toEqual(before);

    const same = await cli(['conformance', '--resume', runDir]);
    expect(same.code, same.stderr).toBe(0);
    expect(same.stdout).toMatch(/^PASSED/m);
  }, 240_000);

  it('a profile file whose content changed, gates other than the run started with, or a record without a hash: refused', () => {
    const profile = join(tmp, 'profile.json');
    copyFileSync(join(root, 'fixtures/profiles/embedded-alt.json'), profile);
    const dir = mkdtempSync(join(tmp, 'run-'));
    const rec = { runId: 'r1', command: 'certify', depth: 'quick' as const, profile, startedAt: '2026-01-01T00:00:00.000Z' };
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      // Unchanged: resumes, with the run's own options.
      writeRunRecord(dir, { ...rec, kinds: ['conformance'], profileSha256: profileSha256(profile, undefined) });
      expect(resumeOptions(['conformance'], { resume: dir, depth: 'full' })).toMatchObject({ opts: { profile, depth: 'quick' } });

      const edited = JSON.parse(readFileSync(profile, 'utf8')) as { gate: { baseUrls: { sandbox: string } } };
      edited.gate.baseUrls.sandbox = 'http://127.0.0.1:5999/v1';
      writeFileSync(profile, JSON.stringify(edited));
      expect(resumeOptions(['conformance'], { resume: dir, depth: 'quick' })).toBe(EXIT.usage);
      expect(String(stderr.mock.calls.at(-1)?.[0])).toMatch(
        /^rampart: --resume refused: the profile .*profile\.json \(sha256 [0-9a-f]{12}…\) is not the profile run r1 started with/,
      );

      // A load run resumed with other gates than it started with.
      writeRunRecord(dir, { ...rec, kinds: ['load'], profileSha256: profileSha256(profile, undefined), gatesSha256: gatesUsed().sha256 });
      expect(resumeOptions(['load'], { resume: dir, depth: 'quick' })).toMatchObject({ opts: { profile } });
      expect(resumeOptions(['load'], { resume: dir, depth: 'quick', gates: looserFile })).toBe(EXIT.usage);
      expect(String(stderr.mock.calls.at(-1)?.[0])).toMatch(/^rampart: --resume refused: the gates .*looser\.json are not the ones run r1 started with/);

      writeRunRecord(dir, { ...rec, kinds: ['conformance'] });
      expect(resumeOptions(['conformance'], { resume: dir, depth: 'quick' })).toBe(EXIT.usage);
      expect(String(stderr.mock.calls.at(-1)?.[0])).toMatch(/^rampart: --resume refused: run r1 records no profile hash/);
    } finally {
      stderr.mockRestore();
    }
  });

  it("the embedded target's identity: its profile file and faults, never the ports it happened to start on", () => {
    expect(profileSha256(undefined, ['a', 'b'])).toBe(profileSha256(undefined, ['b', 'a']));
    expect(profileSha256(undefined, ['a'])).not.toBe(profileSha256(undefined, undefined));
    expect(profileSha256('fixtures/profiles/embedded.json', undefined)).not.toBe(profileSha256(undefined, undefined));
  });
});
