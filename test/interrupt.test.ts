// Interrupted runs end like any run: on SIGINT or SIGTERM the CLI stops
// starting checks, writes results.json, junit.xml, report.html and the history
// entry with the verdict INTERRUPTED, points `latest` at it and exits 130 / 143;
// a second signal exits at once, `latest` still pointing at this run. The run
// then continues with --resume: finished checks keep their results, the rest
// run, one report. Against the embedded target cut to one Gate key and one
// pools partner (rate windows ×0.1), as a partner would run it.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT } from '../src/exitCodes.js';
import { oneKeyProfile } from '../src/plan/oneKey.js';
import { loadProfile } from '../src/profile/load.js';
import { startReference, type RunningReference } from '../src/reference/server.js';
import type { RunResults } from '../src/report/results.js';

const root = resolve(import.meta.dirname, '..');
const tmp = mkdtempSync(join(tmpdir(), 'rampart-interrupt-'));
let ref: RunningReference;

/**
 * The embedded target cut to one Gate key and one pools partner, rate windows ×0.02: a run and its resume
 * together spend more than the key's 300 requests an hour, so the resume sits out the rest of the (72 s) hour
 * window the interrupted run filled, as a partner's resume the same hour would.
 */
const oneKeyTarget = () =>
  startReference({ profile: oneKeyProfile(loadProfile(join(root, 'fixtures/profiles/embedded.json')), { rateWindowScale: 0.02 }), ephemeralPorts: true });
let profileFile: string;

beforeAll(async () => {
  ref = await oneKeyTarget();
  profileFile = join(tmp, 'one-key.json');
  // The resumed run shares the one key's windows with the interrupted one: let it sit out the target's Retry-After.
  writeFileSync(profileFile, JSON.stringify({ ...ref.profile, harness: { ...ref.profile.harness, rateLimitBudgetSeconds: 600 } }), { mode: 0o600 });
});
afterAll(async () => {
  await ref?.close();
  rmSync(tmp, { recursive: true, force: true });
});

interface Ended {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/** Run the CLI; `signals` are sent once `journal.jsonl` of the run holds `afterChecks` passed checks. */
function run(args: string[], reportsDir: string, signals: NodeJS.Signals[] = [], afterChecks = 0, gapMs = 150): Promise<Ended> {
  const t0 = Date.now();
  return new Promise((done) => {
    const child = spawn(process.execPath, [join(root, 'bin/rampart.js'), ...args, '--reports-dir', reportsDir], {
      cwd: root,
      env: { ...process.env, CI: '1' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    let sent = false;
    const poll = setInterval(() => {
      if (sent || signals.length === 0) return;
      const runs = existsSync(reportsDir) ? readdirSync(reportsDir).filter((n) => /^\d{8}T/.test(n)) : [];
      const journal = runs.length ? join(reportsDir, runs[0]!, 'journal.jsonl') : '';
      // Checks that ran and passed (a skip is journaled at once and proves nothing about stopping mid-run).
      const lines =
        journal && existsSync(journal)
          ? readFileSync(journal, 'utf8')
              .split('\n')
              .filter((l) => l.includes('"status":"passed"')).length
          : 0;
      if (lines >= afterChecks) {
        sent = true;
        for (const [i, s] of signals.entries()) setTimeout(() => child.kill(s), i * gapMs);
      }
    }, 100);
    const guard = setTimeout(() => child.kill('SIGKILL'), 240_000);
    child.on('close', (code, signal) => {
      clearInterval(poll);
      clearTimeout(guard);
      done({ code, signal, stdout, stderr, ms: Date.now() - t0 });
    });
  });
}

function latestResults(reportsDir: string): { dir: string; results: RunResults } {
  const dir = realpathSync(join(reportsDir, 'latest'));
  return { dir, results: JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as RunResults };
}

describe('interrupted runs', () => {
  it('SIGINT mid-run: exit 130, INTERRUPTED, the report of what finished, latest points at it; --resume finishes it into one report', async () => {
    const reports = join(tmp, 'sigint');
    const r = await run(['conformance', '--profile', profileFile], reports, ['SIGINT'], 8);
    console.log(`matrix: SIGINT mid-run exit ${r.code} ${(r.ms / 1000).toFixed(1)} s`);
    expect(r.signal).toBeNull();
    expect(r.code, r.stderr.slice(-1500)).toBe(EXIT.interrupted);
    const { dir, results } = latestResults(reports);
    expect(results.summary.verdict).toBe('INTERRUPTED');
    expect(results.interrupted?.signal).toBe('SIGINT');
    expect(readdirSync(dir)).toEqual(expect.arrayContaining(['results.json', 'junit.xml', 'report.html', 'journal.jsonl', 'run.json']));
    expect(readFileSync(join(dir, 'report.html'), 'utf8')).toContain('INTERRUPTED');
    expect(readdirSync(join(reports, 'history')).length).toBe(1);
    const finished = results.checks.filter((c) => c.status !== 'not_run');
    expect(finished.length).toBeGreaterThanOrEqual(8);
    expect(results.checks.some((c) => c.status === 'not_run')).toBe(true);
    expect(r.stdout).toContain(`resume with: rampart conformance --resume ${join(reports, results.runId)}`);

    // Resume: the finished checks keep their results; the rest run; one report in the same directory.
    const again = await run(['conformance', '--resume', dir, '--profile', profileFile], reports);
    console.log(`matrix: resume exit ${again.code} ${(again.ms / 1000).toFixed(1)} s`);
    expect(again.code, again.stderr.slice(-1500)).toBe(EXIT.ok);
    const after = latestResults(reports);
    expect(after.dir).toBe(dir);
    expect(after.results.resumedFrom).toBe(dir);
    expect(after.results.summary.verdict).not.toBe('INTERRUPTED');
    expect(after.results.checks.filter((c) => c.status === 'not_run' || c.status === 'failed')).toEqual([]);
    const names = after.results.checks.map((c) => `${c.file}::${c.name}`);
    expect(names.length).toBe(new Set(names).size);
    for (const f of finished) {
      const kept = after.results.checks.find((c) => c.file === f.file && c.name === f.name)!;
      expect(kept.durationMs, `${f.name} was kept, not run again`).toBe(f.durationMs);
    }
  }, 600_000);

  it('SIGTERM mid-run (a CI time limit): exit 143, INTERRUPTED, latest points at the report', async () => {
    // A target of its own: the SIGINT run and its resume spent this hour's requests of the shared one.
    const own = await oneKeyTarget();
    try {
      const file = join(tmp, 'sigterm.json');
      writeFileSync(file, JSON.stringify(own.profile), { mode: 0o600 });
      const reports = join(tmp, 'sigterm');
      const r = await run(['conformance', '--profile', file], reports, ['SIGTERM'], 4);
      console.log(`matrix: SIGTERM mid-run exit ${r.code} ${(r.ms / 1000).toFixed(1)} s`);
      expect(r.code, r.stderr.slice(-1500)).toBe(EXIT.terminated);
      const { results } = latestResults(reports);
      expect(results.summary.verdict).toBe('INTERRUPTED');
      expect(results.interrupted?.signal).toBe('SIGTERM');
    } finally {
      await own.close();
    }
  }, 300_000);

  it('a second signal exits at once; latest still points at this run, with what had finished', async () => {
    // An interrupted run ends about 150 ms after the first signal: second signals before, at and after
    // that moment (one arriving while the process exits once ended it by the signal instead of 130).
    // Each on a target of its own: the one key's windows are not shared with the other runs of this file.
    for (const gapMs of [60, 130, 135, 140, 145, 150, 155, 160, 165, 170, 180, 190, 250]) {
      const own = await oneKeyTarget();
      try {
        const file = join(tmp, `twice-${gapMs}.json`);
        writeFileSync(file, JSON.stringify(own.profile), { mode: 0o600 });
        const reports = join(tmp, `twice-${gapMs}`);
        const r = await run(['conformance', '--profile', file], reports, ['SIGINT', 'SIGINT'], 4, gapMs);
        if (gapMs === 150) console.log(`matrix: SIGINT twice exit ${r.code} ${(r.ms / 1000).toFixed(1)} s`);
        expect(r.code, `second SIGINT ${gapMs} ms after the first: ${r.signal ?? ''}`).toBe(EXIT.interrupted);
        const { dir, results } = latestResults(reports);
        expect(dir).toBe(
          realpathSync(
            join(
              reports,
              readdirSync(reports).find((n) => /^\d{8}T/.test(n))!,
            ),
          ),
        );
        expect(results.summary.verdict).toBe('INTERRUPTED');
        expect(existsSync(join(dir, 'report.html'))).toBe(true);
      } finally {
        await own.close();
      }
    }
  }, 300_000);
});
