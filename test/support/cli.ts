// Test support: rampart's CLI as a partner runs it — a child process from the repository, its reports in a folder
// of the test's, no colour, no GitHub summary — with its exit code, output and the run directory it wrote.
import { execFile } from 'node:child_process';
import { readFileSync, realpathSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { RunResults } from '../../src/report/results.js';

export const ROOT = resolve(import.meta.dirname, '..', '..');

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
  reports: string;
}

/** A CLI runner writing each run's reports to a folder of its own below `tmp` (unless the args name one). */
export function cliIn(tmp: string): (args: string[], timeoutMs?: number) => Promise<CliRun> {
  let n = 0;
  return (args, timeoutMs = 120_000) => {
    const reports = join(tmp, `reports-${n++}`);
    // Never execFileSync: a test's target may answer from the test's own process.
    return new Promise((done) =>
      execFile(
        process.execPath,
        [join(ROOT, 'bin/rampart.js'), ...args, ...(args.includes('--reports-dir') ? [] : ['--reports-dir', reports])],
        { cwd: ROOT, env: { ...process.env, NO_COLOR: '1', CI: '1', GITHUB_STEP_SUMMARY: '' }, timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 },
        (err, stdout, stderr) => done({ code: err ? ((err as { code?: number }).code ?? -1) : 0, stdout: String(stdout), stderr: String(stderr), reports }),
      ),
    );
  };
}

/** The run a CLI run wrote last: results.json, junit.xml and report.html. */
export function latestRun(reports: string): { results: RunResults; junit: string; html: string } {
  const dir = realpathSync(join(reports, 'latest'));
  return {
    results: JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as RunResults,
    junit: readFileSync(join(dir, 'junit.xml'), 'utf8'),
    html: readFileSync(join(dir, 'report.html'), 'utf8'),
  };
}
