// Whole runs of the CLI against a field world: the world runs here, rampart runs as a partner runs it (a
// child process given only the world's profile), and the run's results.json says how it went.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunResults } from '../../src/report/results.js';
import type { FieldWorld } from '../support/fieldWorld.js';

export interface CliRun {
  exitCode: number;
  stdout: string;
  stderr: string;
  wallMs: number;
  results?: RunResults;
  dir: string;
}

/** `rampart <args> --profile <the world's profile>`, its results read back. */
export async function runCli(world: FieldWorld, args: string[], timeoutMs: number): Promise<CliRun> {
  const dir = mkdtempSync(join(tmpdir(), 'rampart-field-'));
  const profile = join(dir, 'profile.json');
  writeFileSync(profile, JSON.stringify(world.profile, null, 2));
  const started = Date.now();
  const writesReports = !['plan', 'doctor'].includes(args[0]!);
  const child = spawn(process.execPath, ['bin/rampart.js', ...args, '--profile', profile, ...(writesReports ? ['--reports-dir', join(dir, 'reports')] : [])], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, CI: '1' },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c) => (stdout += c));
  child.stderr.on('data', (c) => (stderr += c));
  const timer = setTimeout(() => child.kill('SIGTERM'), timeoutMs);
  const exitCode = await new Promise<number>((resolve) => child.on('close', (code) => resolve(code ?? 1)));
  clearTimeout(timer);
  let results: RunResults | undefined;
  try {
    results = JSON.parse(readFileSync(join(dir, 'reports', 'latest', 'results.json'), 'utf8')) as RunResults;
  } catch {
    /* no report: the assertions on the exit code say why */
  }
  return { exitCode, stdout, stderr, wallMs: Date.now() - started, results, dir };
}

/** One line per check that did not pass or skip, for an assertion message that says what went wrong. */
export function notPassed(r: RunResults | undefined): string[] {
  return (r?.checks ?? [])
    .filter((c) => c.status === 'failed' || c.status === 'unverified' || c.status === 'not_run')
    .map((c) => `${c.status} ${c.file} :: ${c.name}: ${c.failure?.message ?? c.reason ?? ''}`);
}
