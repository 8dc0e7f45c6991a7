// Running one scenario with k6: as one process, or split into N processes
// with k6's execution segments (exactly the flags k6-operator gives the
// runner pods of a TestRun of parallelism N). Each process writes its
// summary, records and web dashboard under the scenario's directory; the
// summaries merge into one (summary.ts).
import { goTlsEnv } from '../client/transport.js';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join, resolve } from 'node:path';
import { segmentsOf } from '../../scenarios/lib/keyShare.js';
import { packagePath } from '../packageRoot.js';
import { runK6 } from './k6.js';
import { mergeSummaries, type Summary } from './summary.js';

export interface SegmentRun {
  /** The --execution-segment value, or null for an unsplit run. */
  segment: string | null;
  exitCode: number;
  durationMs: number;
  stderrTail: string;
  summary?: Summary;
  /** Paths relative to the scenario directory's parent run directory. */
  summaryFile: string;
  dashboardFile?: string;
}

export interface ScenarioRun {
  segments: SegmentRun[];
  /** The merged summary; undefined when any segment wrote none. */
  summary?: Summary;
  records: Record<string, unknown>[];
  durationMs: number;
}

/** Records the scenarios print (scenarios/lib/emit.ts): one JSON object per console line. */
export function readRecords(file: string): Record<string, unknown>[] {
  try {
    return recordsOf(readFileSync(file, 'utf8'));
  } catch {
    return [];
  }
}

/** The records in k6 console output (logfmt: `… msg="RAMPART {…}" …`), from a file or a pod's log. */
export function recordsOf(text: string): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const line of text.split('\n')) {
    const m = /msg="RAMPART (.*)"(?: |$)/.exec(line);
    if (!m) continue;
    try {
      out.push(JSON.parse(JSON.parse(`"${m[1]}"`)) as Record<string, unknown>);
    } catch {
      /* a torn line: skip */
    }
  }
  return out;
}

/**
 * The user's --k6-out specs as k6 flags. Split runs write one file per segment (name.seg2.json), since N processes
 * cannot share one; file paths are taken relative to where rampart was started.
 */
export function outFlags(outs: string[], index: number, n: number): string[] {
  return outs.flatMap((spec) => {
    const m = /^(json|csv)=(.+)$/.exec(spec);
    if (!m) return ['--out', spec];
    let file = resolve(m[2]!);
    if (n > 1) {
      const ext = extname(file);
      file = `${file.slice(0, file.length - ext.length)}.seg${index + 1}${ext}`;
    }
    return ['--out', `${m[1]}=${file}`];
  });
}

export async function runScenario(opts: {
  /** The scenario script (or a `k6 archive` bundle). */
  script: string;
  config: object;
  k6: string;
  /** reports/<run>/k6/<scenario>. */
  outDir: string;
  /** Its path relative to the run directory, for the metrics. */
  relDir: string;
  segments: number;
  k6Out?: string[];
  timeoutMs: number;
  /** A private CA the target's certificate chains to (harness.caFile): k6 trusts it through SSL_CERT_FILE. */
  caPem?: string;
}): Promise<ScenarioRun> {
  const n = Math.max(1, opts.segments);
  const { segments, sequence } = segmentsOf(n);
  mkdirSync(opts.outDir, { recursive: true });
  // Keys travel in a private temp file, never on a command line or in the run directory.
  const tmp = mkdtempSync(join(tmpdir(), 'rampart-k6-'));
  const started = Date.now();
  try {
    const cfgFile = join(tmp, 'config.json');
    writeFileSync(cfgFile, JSON.stringify(opts.config), { mode: 0o600 });
    chmodSync(cfgFile, 0o600);
    // For distributed runs by hand (docs/distributed-load.md): keep a copy where the user asks.
    if (process.env.RAMPART_KEEP_K6_CONFIG) writeFileSync(process.env.RAMPART_KEEP_K6_CONFIG, JSON.stringify(opts.config), { mode: 0o600 });
    const tlsEnv = goTlsEnv(opts.caPem, join(tmp, 'ca-bundle.pem'), (f, text) => writeFileSync(f, text, { mode: 0o600 }));
    const runs = await Promise.all(
      segments.map(async (segment, i): Promise<SegmentRun & { console: string }> => {
        const sub = n > 1 ? `segment-${i + 1}` : '';
        // Absolute: k6 runs in the user's folder, and its files must land in the run directory whatever that is.
        const dir = resolve(opts.outDir, sub);
        mkdirSync(dir, { recursive: true });
        const consoleFile = join(tmp, `console-${i + 1}.log`);
        const args = [
          ...(n > 1 ? ['--execution-segment', segment, '--execution-segment-sequence', sequence, '--tag', `instance_id=${i + 1}`] : []),
          ...outFlags(opts.k6Out ?? [], i, n),
        ];
        const run = await runK6({
          k6: opts.k6,
          script: opts.script,
          env: { RAMPART_CONFIG: cfgFile, RAMPART_OUT: dir, ...tlsEnv },
          args,
          consoleOutput: consoleFile,
          dashboardExport: join(dir, 'dashboard.html'),
          // About a hundred points whatever the length (k6 writes no dashboard for a run shorter than one period).
          dashboardPeriodSeconds: Math.max(1, Math.round(opts.timeoutMs / 1000 / 100)),
          timeoutMs: opts.timeoutMs,
        });
        let summary: Summary | undefined;
        try {
          summary = JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')) as Summary;
        } catch {
          /* k6 failed before handleSummary */
        }
        const rel = (f: string) => (sub ? `${opts.relDir}/${sub}/${f}` : `${opts.relDir}/${f}`);
        return {
          segment: n > 1 ? segment : null,
          exitCode: run.exitCode,
          durationMs: run.durationMs,
          stderrTail: run.stderrTail,
          summary,
          summaryFile: rel('summary.json'),
          dashboardFile: existsSync(join(dir, 'dashboard.html')) ? rel('dashboard.html') : undefined,
          console: consoleFile,
        };
      }),
    );
    const records = runs.flatMap((r) => readRecords(r.console));
    const parts = runs.map((r) => r.summary);
    const summary = parts.every((s): s is Summary => !!s) ? mergeSummaries(parts) : undefined;
    if (n > 1 && summary) writeFileSync(join(opts.outDir, 'summary.json'), JSON.stringify(summary, null, 1));
    return { segments: runs.map(({ console: _c, ...r }) => r), summary, records, durationMs: Date.now() - started };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** The scenario script of a name. */
export const scriptOf = (name: string) => packagePath('scenarios', `${name}.ts`);
