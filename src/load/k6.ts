// Running the pinned k6 (where it lives and which version: src/tools/pinned.ts).
import { spawn } from 'node:child_process';
import { pinnedVersion } from '../tools/pinned.js';

export { findK6 } from '../tools/pinned.js';

/** The k6 version pinned in tools/go.mod. */
export const pinnedK6Version = (): string => pinnedVersion('k6');

export interface K6Run {
  exitCode: number;
  stderrTail: string;
  durationMs: number;
}

/**
 * Run one scenario. k6 exits 99 when a threshold is breached; other non-zero
 * codes mean the script or k6 itself failed. Output is captured (never echoed
 * raw) so a key in an error message cannot leak; the caller redacts the tail.
 */
const running = new Set<import('node:child_process').ChildProcess>();

/** Stop every k6 process this rampart started (an interrupted run): k6 ends its iterations and writes its summary. */
export function stopK6Runs(): void {
  for (const c of running) c.kill('SIGTERM');
}

export function runK6(opts: {
  k6: string;
  script: string;
  env: Record<string, string>;
  dashboardExport?: string;
  /** Seconds between dashboard data points (k6 skips the export when a run has fewer than one). */
  dashboardPeriodSeconds?: number;
  /** File for console.log records (k6 --console-output). */
  consoleOutput?: string;
  /** Further `k6 run` flags before the script (execution segment, --out, --tag). */
  args?: string[];
  timeoutMs: number;
  onLine?: (line: string) => void;
}): Promise<K6Run> {
  const started = Date.now();
  const args = [
    'run',
    '--quiet',
    '--no-color',
    '--no-usage-report',
    ...(opts.consoleOutput ? ['--console-output', opts.consoleOutput] : []),
    ...(opts.args ?? []),
    opts.script,
  ];
  const env: NodeJS.ProcessEnv = { ...process.env, ...opts.env, K6_NO_USAGE_REPORT: 'true' };
  if (opts.dashboardExport) {
    env.K6_WEB_DASHBOARD = 'true';
    env.K6_WEB_DASHBOARD_PORT = '-1';
    env.K6_WEB_DASHBOARD_EXPORT = opts.dashboardExport;
    env.K6_WEB_DASHBOARD_PERIOD = `${opts.dashboardPeriodSeconds ?? 10}s`;
  }
  return new Promise((resolve) => {
    const child = spawn(opts.k6, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let tail = '';
    const keep = (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      tail = (tail + text).slice(-4000);
      if (opts.onLine) for (const l of text.split('\n')) if (l.trim()) opts.onLine(l);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const killer = setTimeout(() => child.kill('SIGTERM'), opts.timeoutMs);
    running.add(child);
    child.on('close', (code, signal) => {
      running.delete(child);
      clearTimeout(killer);
      resolve({ exitCode: code ?? (signal ? 124 : 1), stderrTail: tail, durationMs: Date.now() - started });
    });
    child.on('error', (e) => {
      running.delete(child);
      clearTimeout(killer);
      resolve({ exitCode: 127, stderrTail: e.message, durationMs: Date.now() - started });
    });
  });
}
