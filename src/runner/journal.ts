// The journal of a run: every finished check appended as one JSON line the
// moment it ends, and the options the run started with. An interrupted run
// (Ctrl-C, a CI time limit, an outage) is continued with --resume RUN_DIR:
// finished checks keep their results, the rest run, one report.
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { redactDeep } from '../secrets/index.js';
import type { CheckResult } from '../report/results.js';

export const JOURNAL_FILE = 'journal.jsonl';
export const RUN_FILE = 'run.json';

/** What a run was asked to do: enough to resume it (never a secret: the profile is a path). */
export interface RunRecord {
  runId: string;
  command: string;
  kinds: ('conformance' | 'chaos' | 'load' | 'explore' | 'races')[];
  depth: 'quick' | 'full';
  service?: 'gate' | 'pools';
  grep?: string;
  /** The profile file, or undefined for the embedded target. */
  profile?: string;
  /**
   * sha256 of the target's profile as the run started (src/cli/resume.ts profileSha256): a resume against another
   * profile, other base URLs or keys is refused.
   */
  profileSha256?: string;
  /** The --gates file of a run with load (undefined: rampart's defaults), and sha256 of the file it read. */
  gates?: string;
  gatesSha256?: string;
  faults?: string[];
  startedAt: string;
  scenarios?: string[];
  cases?: string[];
}

export function writeRunRecord(runDir: string, rec: RunRecord): void {
  writeFileSync(join(runDir, RUN_FILE), JSON.stringify(rec, null, 2) + '\n');
}

export function readRunRecord(runDir: string): RunRecord {
  const file = join(runDir, RUN_FILE);
  if (!existsSync(file)) throw new Error(`${file} not found: --resume takes a run directory a rampart run wrote (reports/<run-id>)`);
  return JSON.parse(readFileSync(file, 'utf8')) as RunRecord;
}

export function appendToJournal(runDir: string, key: string, result: CheckResult): void {
  // Only finished results are kept: a check the stop cut short runs again on resume.
  if (result.status === 'not_run') return;
  appendFileSync(join(runDir, JOURNAL_FILE), JSON.stringify({ key, result: redactDeep(result) }) + '\n');
}

/** Finished checks by key (a torn last line — the process died mid-write — is ignored). */
export function readJournal(runDir: string): Map<string, CheckResult> {
  const out = new Map<string, CheckResult>();
  const file = join(runDir, JOURNAL_FILE);
  if (!existsSync(file)) return out;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    try {
      const { key, result } = JSON.parse(line) as { key: string; result: CheckResult };
      out.set(key, result);
    } catch {
      /* torn line */
    }
  }
  return out;
}
