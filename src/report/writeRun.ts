// Writes reports/<runId>/ (results.json, junit.xml, ctrf.json, report.html), points
// reports/latest at it, appends the history record and records the run in the run
// store (src/history), whose nights before it tell its failures apart in the reports.
// Everything written is redacted first and the whole run directory is scanned afterwards.
import { randomBytes } from 'node:crypto';
import { cpSync, lstatSync, mkdirSync, readFileSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { redact, redactDeep } from '../secrets/index.js';
import { appendHistory, readHistory } from './history.js';
import { toHtml } from './html.js';
import { toJunit } from './junit.js';
import { toCtrf } from './ctrf.js';
import { recordNight, type RunHistoryOption } from '../history/recordNight.js';
import type { Night } from '../history/night.js';
import type { RunResults } from './results.js';
import { isProbablyText, listFiles, maskAuthorizationBearer, scanDir, scanText } from '../secrets/index.js';

/** Sortable, filesystem-safe, unique: 20261123T031500Z-ab12. */
export function newRunId(at: Date = new Date()): string {
  const stamp = at
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replace(/[-:]/g, '');
  return `${stamp}-${randomBytes(2).toString('hex')}`;
}

export class SecretLeakError extends Error {
  constructor(readonly findings: { file: string; kind: string }[]) {
    super(`secret scan: refusing to keep the run output — ${findings.map((f) => `${f.kind} in ${f.file}`).join('; ')}`);
    this.name = 'SecretLeakError';
  }
}

/** Known shapes and profile secrets (redact), then opaque Authorization Bearer values. */
function mask(text: string): string {
  return maskAuthorizationBearer(redact(text));
}

function writeChecked(path: string, text: string, displayName: string): void {
  const safe = mask(text);
  const findings = scanText(safe);
  if (findings.length) throw new SecretLeakError([...new Set(findings.map((f) => f.kind))].map((kind) => ({ file: displayName, kind })));
  writeFileSync(path, safe);
}

/** reports/latest → the run: a relative symlink, or a copy where symlinks are not allowed. */
export function pointLatest(reportsDir: string, runDir: string): void {
  const latest = join(reportsDir, 'latest');
  try {
    const st = lstatSync(latest);
    if (st.isSymbolicLink() || st.isFile()) unlinkSync(latest);
    else rmSync(latest, { recursive: true, force: true });
  } catch {
    // Nothing there yet.
  }
  try {
    symlinkSync(relative(reportsDir, runDir), latest, 'dir');
  } catch {
    cpSync(runDir, latest, { recursive: true });
  }
}

/**
 * A second Ctrl-C: write what is known at once, synchronously (results.json and
 * a minimal report.html), so the run directory `latest` points at is never empty.
 */
export function writeRunEmergency(
  runDir: string,
  partial: Omit<RunResults, 'summary'> & { summary?: RunResults['summary'] },
  checks: RunResults['checks'],
): void {
  const body = {
    ...partial,
    checks,
    summary: {
      verdict: 'INTERRUPTED',
      verdictLine: 'interrupted twice: the run exited at once; only finished checks are listed',
      checks: { total: checks.length },
    },
  };
  const text = mask(JSON.stringify(redactDeep(body), null, 2) + '\n');
  if (scanText(text).length) return;
  writeFileSync(join(runDir, 'results.json'), text);
  // Every run directory holds ctrf.json: the checks that finished, told apart from nothing (no store is read now).
  try {
    const ctrf = mask(JSON.stringify(toCtrf(JSON.parse(text) as RunResults), null, 2) + '\n');
    if (!scanText(ctrf).length) writeFileSync(join(runDir, 'ctrf.json'), ctrf);
  } catch {
    // What is known is too partial to say in CTRF: results.json and report.html stand.
  }
  writeFileSync(
    join(runDir, 'report.html'),
    `<!doctype html><meta charset="utf-8"><title>rampart — INTERRUPTED</title><h1>INTERRUPTED</h1><p>The run was interrupted twice and exited at once. ${checks.length} checks had finished; see results.json, or resume the run with <code>--resume</code>.</p>`,
  );
}

export async function writeRun(
  results: RunResults,
  opts: {
    reportsDir: string;
    /** Files that must see every other report file (the certificate hashes them): written last, then scanned. */
    finalize?: (dir: string, safe: RunResults) => void;
    /** The run store to record the run in (default: the SQLite file beside the reports), or false for none. */
    history?: RunHistoryOption;
  },
): Promise<{ dir: string; files: string[]; night?: Night }> {
  // Masking the serialised form too catches opaque bearer values under an "authorization" key,
  // so results.json, junit.xml and report.html all derive from the same masked object.
  const safe = JSON.parse(mask(JSON.stringify(redactDeep(results)))) as RunResults;
  const dir = join(opts.reportsDir, safe.runId);
  mkdirSync(dir, { recursive: true });

  // Suites may have left their own artefacts (k6 summaries) in the run directory: mask those in place too.
  for (const path of listFiles(dir)) {
    const buf = readFileSync(path);
    if (!isProbablyText(buf)) continue;
    const text = buf.toString('utf8');
    const masked = mask(text);
    if (masked !== text) writeFileSync(path, masked);
  }

  const files: string[] = [];
  const resultsPath = join(dir, 'results.json');
  writeChecked(resultsPath, JSON.stringify(safe, null, 2) + '\n', 'results.json');
  files.push(resultsPath);

  // Recorded once results.json passed the scan (the store keeps nothing it did not), before the reports that tell
  // the run's failures apart by the nights before it.
  const night = await recordNight(safe, { reportsDir: opts.reportsDir, runDir: dir, history: opts.history });

  const junitPath = join(dir, 'junit.xml');
  writeChecked(junitPath, toJunit(safe, night), 'junit.xml');
  files.push(junitPath);

  const ctrfPath = join(dir, 'ctrf.json');
  writeChecked(ctrfPath, JSON.stringify(toCtrf(safe, night), null, 2) + '\n', 'ctrf.json');
  files.push(ctrfPath);

  const historyPath = appendHistory(opts.reportsDir, safe);
  const historyText = readFileSync(historyPath, 'utf8');
  if (scanText(historyText).length) {
    rmSync(historyPath, { force: true });
    throw new SecretLeakError([{ file: relative(opts.reportsDir, historyPath), kind: scanText(historyText)[0]!.kind }]);
  }
  files.push(historyPath);

  const htmlPath = join(dir, 'report.html');
  writeChecked(htmlPath, toHtml(safe, readHistory(opts.reportsDir), night), 'report.html');
  files.push(htmlPath);

  opts.finalize?.(dir, safe);

  const findings = scanDir(dir);
  if (findings.length) throw new SecretLeakError(findings);

  pointLatest(opts.reportsDir, dir);
  return { dir, files, ...(night ? { night } : {}) };
}
