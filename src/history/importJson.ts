// The compact records earlier rampart versions kept (reports/history/<run>.json: the summary counts and p95 per route
// group) brought into the store once per reports folder: a run row each (source "imported", no per-requirement
// statuses: those records never had them) and their p95 per route group under the scenario "*". The folder is
// marked done, so a record pruned from the store later is not brought back.
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { HistoryRecord } from '../report/history.js';
import { insertRows, type Db } from './db.js';
import { faultsOfName, targetKeyOf, targetNameOf } from './identity.js';

function readRecords(dir: string): HistoryRecord[] {
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.json'));
  } catch {
    return [];
  }
  const out: HistoryRecord[] = [];
  for (const n of names.sort()) {
    try {
      const rec = JSON.parse(readFileSync(join(dir, n), 'utf8')) as HistoryRecord;
      if (rec && typeof rec.runId === 'string' && typeof rec.startedAt === 'string' && rec.summary?.verdict) out.push(rec);
    } catch {
      // A half-written or hand-edited record is left out, as the report's trend leaves it out.
    }
  }
  return out;
}

/** Imports reports/history/*.json into the store unless this folder was imported before; returns the records added. */
export async function importJsonHistory(db: Db, reportsDir: string): Promise<number> {
  const source = `reports-history:${resolve(reportsDir)}`;
  const done = await db.all('SELECT source FROM imports WHERE source = ?', [source]);
  if (done.length) return 0;
  const known = new Set((await db.all<{ run_id: string }>('SELECT run_id FROM runs')).map((r) => r.run_id));
  const records = readRecords(join(reportsDir, 'history')).filter((r) => !known.has(r.runId));
  const now = new Date().toISOString();
  for (const r of records) {
    const row = {
      run_id: r.runId,
      started_at: r.startedAt,
      finished_at: r.startedAt,
      command: r.command,
      kinds: '',
      depth: '?',
      scope_key: `${r.command}|imported`,
      whole: 0,
      rampart_version: '?',
      profile_name: r.profile,
      target_name: targetNameOf(r.profile),
      target_key: targetKeyOf(r.profile),
      faults: JSON.stringify(faultsOfName(r.profile)),
      verdict: r.summary.verdict,
      verdict_line: r.summary.verdictLine ?? '',
      summary: JSON.stringify(r.summary),
      source: 'imported',
      recorded_at: now,
    };
    await insertRows(db, 'runs', Object.keys(row), [Object.values(row)]);
    await insertRows(
      db,
      'latency',
      ['run_id', 'scenario', 'route_group', 'p95'],
      Object.entries(r.p95ByGroup ?? {}).map(([group, p95]) => [r.runId, '*', group, p95]),
    );
  }
  await db.run('INSERT INTO imports (source, imported_at, records) VALUES (?, ?, ?)', [source, now, records.length]);
  return records.length;
}
