// reports/history/<runId>.json: one compact record per run, so nightly runs
// can show trends without keeping every full run directory.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunResults } from './results.js';

export interface HistoryRecord {
  runId: string;
  startedAt: string;
  command: string;
  profile: string;
  summary: RunResults['summary'];
  /** p95 latency (ms) per route group, when the run had load metrics. */
  p95ByGroup?: Record<string, number>;
}

export function historyDir(reportsDir: string): string {
  return join(reportsDir, 'history');
}

export function latencyOf(
  results: Pick<RunResults, 'metrics'>,
): Record<string, { p50?: number; p90?: number; p95?: number; p99?: number; max?: number; count?: number }> | undefined {
  const l = results.metrics?.latency;
  if (!l || typeof l !== 'object' || Array.isArray(l)) return undefined;
  return l as Record<string, { p95?: number }>;
}

export function toHistoryRecord(results: RunResults): HistoryRecord {
  const rec: HistoryRecord = {
    runId: results.runId,
    startedAt: results.startedAt,
    command: results.command,
    profile: results.profile.name,
    summary: results.summary,
  };
  const latency = latencyOf(results);
  if (latency) {
    const p95: Record<string, number> = {};
    for (const [group, v] of Object.entries(latency)) if (typeof v?.p95 === 'number' && Number.isFinite(v.p95)) p95[group] = v.p95;
    if (Object.keys(p95).length) rec.p95ByGroup = p95;
  }
  return rec;
}

/** Writes reports/history/<runId>.json and returns its path. */
export function appendHistory(reportsDir: string, results: RunResults): string {
  const dir = historyDir(reportsDir);
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${results.runId}.json`);
  writeFileSync(path, JSON.stringify(toHistoryRecord(results)) + '\n');
  return path;
}

/** The last `limit` records, oldest first (run ids sort by time). Unreadable records are skipped. */
export function readHistory(reportsDir: string, limit = 30): HistoryRecord[] {
  let names: string[];
  try {
    names = readdirSync(historyDir(reportsDir))
      .filter((n) => n.endsWith('.json'))
      .sort();
  } catch {
    return [];
  }
  const out: HistoryRecord[] = [];
  for (const name of names.slice(-Math.max(0, limit))) {
    try {
      const rec = JSON.parse(readFileSync(join(historyDir(reportsDir), name), 'utf8')) as HistoryRecord;
      if (rec && typeof rec.runId === 'string' && rec.summary) out.push(rec);
    } catch {
      // A half-written or hand-edited record must not stop the report.
    }
  }
  return out;
}
