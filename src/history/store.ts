// The run store: where it is (the SQLite file beside the reports by default, a PostgreSQL URL from --history or
// RAMPART_HISTORY_URL), brought up to the schema and fed the old JSON records once when opened, then each run
// recorded at its end and read back by group (one target, one scope) for the night's analysis, the reports and
// `rampart history`.
import { join } from 'node:path';
import { registerSecret } from '../secrets/index.js';
import type { RunResults } from '../report/results.js';
import type { DbHandle, SqlValue } from './db.js';
import { importJsonHistory } from './importJson.js';
import { migrate } from './migrations.js';
import { deleteOrphanChecks, deleteRun, recordRun, type RunContext } from './record.js';
import type { ScenarioLatency } from './latency.js';

export interface StoredRun {
  runId: string;
  startedAt: string;
  finishedAt: string;
  command: string;
  scopeKey: string;
  depth: string;
  rampartVersion: string;
  profileName: string;
  targetName: string;
  targetKey: string;
  faults: string[];
  verdict: string;
  verdictLine: string;
  exitCode?: number;
  interrupted?: string;
  baselineRunId?: string;
  source: 'run' | 'imported';
}

export interface RunFilter {
  targetKey?: string;
  /** Matches the target's name (the profile's, without faults). */
  targetName?: string;
  scopeKey?: string;
  /** ISO time: runs started at or after it. */
  since?: string;
  /** ISO time: runs started at or before it. */
  until?: string;
  /** The newest this many. */
  last?: number;
}

/** A store URL given by --history or RAMPART_HISTORY_URL: PostgreSQL only (the SQLite file needs none). */
export function historyUrlOf(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const url = flag ?? (env.RAMPART_HISTORY_URL || undefined);
  if (url === undefined) return undefined;
  if (!/^postgres(ql)?:\/\//.test(url))
    throw new Error(`--history takes a postgres:// URL (the SQLite store needs none: ${'reports/history.db'}), not ${url.replace(/:[^:@/]*@/, ':***@')}`);
  return url;
}

/** The default store of a reports folder. */
export const sqlitePathOf = (reportsDir: string) => join(reportsDir, 'history.db');

type Row = Record<string, SqlValue>;

function runOf(r: Row): StoredRun {
  const str = (k: string) => (r[k] === null || r[k] === undefined ? undefined : String(r[k]));
  return {
    runId: String(r.run_id),
    startedAt: String(r.started_at),
    finishedAt: String(r.finished_at),
    command: String(r.command),
    scopeKey: String(r.scope_key),
    depth: String(r.depth),
    rampartVersion: String(r.rampart_version),
    profileName: String(r.profile_name),
    targetName: String(r.target_name),
    targetKey: String(r.target_key),
    faults: JSON.parse(String(r.faults ?? '[]')) as string[],
    verdict: String(r.verdict),
    verdictLine: String(r.verdict_line),
    ...(r.exit_code !== null && r.exit_code !== undefined ? { exitCode: Number(r.exit_code) } : {}),
    ...(str('interrupted') ? { interrupted: str('interrupted') } : {}),
    ...(str('baseline_run_id') ? { baselineRunId: str('baseline_run_id') } : {}),
    source: r.source === 'imported' ? 'imported' : 'run',
  };
}

const RUN_COLUMNS =
  'run_id, started_at, finished_at, command, scope_key, depth, rampart_version, profile_name, target_name, target_key, faults, verdict, verdict_line, exit_code, interrupted, baseline_run_id, source';

const placeholders = (n: number) => Array.from({ length: n }, () => '?').join(', ');

export class HistoryStore {
  constructor(private readonly handle: DbHandle) {}

  get where(): string {
    return this.handle.where;
  }
  get dialect() {
    return this.handle.dialect;
  }

  /** Up to the newest schema, and this reports folder's old JSON records imported (once). */
  async prepare(reportsDir?: string): Promise<{ migrated: number[]; imported: number }> {
    return this.handle.write(async (db) => {
      const migrated = await migrate(db);
      const imported = reportsDir ? await importJsonHistory(db, reportsDir) : 0;
      return { migrated, imported };
    });
  }

  async record(results: RunResults, ctx: RunContext): Promise<void> {
    await this.handle.write(async (db) => {
      await migrate(db);
      await recordRun(db, results, ctx);
    });
  }

  /** Runs, oldest first (the newest `last` of them when asked). */
  async runs(filter: RunFilter = {}): Promise<StoredRun[]> {
    const where: string[] = [];
    const params: SqlValue[] = [];
    const add = (clause: string, v: SqlValue | undefined) => {
      if (v === undefined) return;
      where.push(clause);
      params.push(v);
    };
    add('target_key = ?', filter.targetKey);
    add('target_name = ?', filter.targetName);
    add('scope_key = ?', filter.scopeKey);
    add('started_at >= ?', filter.since);
    add('started_at <= ?', filter.until);
    const sql = `SELECT ${RUN_COLUMNS} FROM runs${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY started_at DESC, run_id DESC${filter.last ? ` LIMIT ${Math.floor(filter.last)}` : ''}`;
    const rows = await this.handle.read((db) => db.all<Row>(sql, params));
    return rows.map(runOf).reverse();
  }

  async run(runId: string): Promise<StoredRun | undefined> {
    const rows = await this.handle.read((db) => db.all<Row>(`SELECT ${RUN_COLUMNS} FROM runs WHERE run_id = ?`, [runId]));
    return rows[0] ? runOf(rows[0]) : undefined;
  }

  /** Per run, each requirement's status. */
  async requirementStatuses(runIds: readonly string[]): Promise<Map<string, Map<string, string>>> {
    const out = new Map<string, Map<string, string>>(runIds.map((id) => [id, new Map()]));
    if (!runIds.length) return out;
    const rows = await this.handle.read((db) =>
      db.all<Row>(`SELECT run_id, requirement_id, status FROM requirement_results WHERE run_id IN (${placeholders(runIds.length)})`, [...runIds]),
    );
    for (const r of rows) out.get(String(r.run_id))?.set(String(r.requirement_id), String(r.status));
    return out;
  }

  /** Per run, each check's status and duration, by check key (suite:file::name). */
  async checkResults(runIds: readonly string[]): Promise<Map<string, Map<string, { status: string; durationMs: number }>>> {
    const out = new Map<string, Map<string, { status: string; durationMs: number }>>(runIds.map((id) => [id, new Map()]));
    if (!runIds.length) return out;
    const rows = await this.handle.read((db) =>
      db.all<Row>(
        `SELECT r.run_id, c.check_key, r.status, r.duration_ms FROM check_results r JOIN checks c ON c.check_id = r.check_id WHERE r.run_id IN (${placeholders(runIds.length)})`,
        [...runIds],
      ),
    );
    for (const r of rows) out.get(String(r.run_id))?.set(String(r.check_key), { status: String(r.status), durationMs: Number(r.duration_ms) });
    return out;
  }

  /** Which requirements each check names, by check key. */
  async checkRequirements(runIds: readonly string[]): Promise<Map<string, string[]>> {
    const out = new Map<string, string[]>();
    if (!runIds.length) return out;
    const rows = await this.handle.read((db) =>
      db.all<Row>(
        `SELECT c.check_key, c.requirements FROM checks c WHERE c.check_id IN (SELECT check_id FROM check_results WHERE run_id IN (${placeholders(runIds.length)}))`,
        [...runIds],
      ),
    );
    for (const r of rows) out.set(String(r.check_key), JSON.parse(String(r.requirements)) as string[]);
    return out;
  }

  async latency(runIds: readonly string[]): Promise<(ScenarioLatency & { runId: string })[]> {
    if (!runIds.length) return [];
    const rows = await this.handle.read((db) =>
      db.all<Row>(
        `SELECT run_id, scenario, route_group, p50, p90, p95, p99, max_ms, samples, error_rate FROM latency WHERE run_id IN (${placeholders(runIds.length)}) ORDER BY scenario, route_group`,
        [...runIds],
      ),
    );
    const num = (v: SqlValue | undefined) => (v === null || v === undefined ? undefined : Number(v));
    return rows.map((r) => ({
      runId: String(r.run_id),
      scenario: String(r.scenario),
      group: String(r.route_group),
      p50: num(r.p50),
      p90: num(r.p90),
      p95: num(r.p95),
      p99: num(r.p99),
      max: num(r.max_ms),
      samples: num(r.samples),
      errorRate: num(r.error_rate),
    }));
  }

  /** Every target and scope the store holds runs of, with their counts and newest run. */
  async groups(): Promise<{ targetKey: string; targetName: string; scopeKey: string; runs: number; last: string }[]> {
    const rows = await this.handle.read((db) =>
      db.all<Row>(
        'SELECT target_key, target_name, scope_key, COUNT(*) AS n, MAX(started_at) AS last FROM runs GROUP BY target_key, target_name, scope_key ORDER BY MAX(started_at)',
      ),
    );
    return rows.map((r) => ({
      targetKey: String(r.target_key),
      targetName: String(r.target_name),
      scopeKey: String(r.scope_key),
      runs: Number(r.n),
      last: String(r.last),
    }));
  }

  /** Runs started before `before` removed, with everything recorded of them; returns how many. */
  async prune(before: string): Promise<number> {
    return this.handle.write(async (db) => {
      await migrate(db);
      const old = await db.all<Row>('SELECT run_id FROM runs WHERE started_at < ?', [before]);
      for (const r of old) await deleteRun(db, String(r.run_id));
      await deleteOrphanChecks(db);
      return old.length;
    });
  }

  async close(): Promise<void> {
    await this.handle.close();
  }
}

/** The store of a run or a command: PostgreSQL when a URL is given (its password masked in every output), else the SQLite file. */
export async function openHistoryStore(opts: { reportsDir: string; url?: string }): Promise<HistoryStore> {
  if (opts.url) {
    const pass = (() => {
      try {
        return decodeURIComponent(new URL(opts.url).password);
      } catch {
        return '';
      }
    })();
    if (pass) registerSecret(pass);
    const { postgresStore } = await import('./postgres.js');
    return new HistoryStore(await postgresStore(opts.url));
  }
  const { sqliteFile } = await import('./sqliteFile.js');
  return new HistoryStore(sqliteFile(sqlitePathOf(opts.reportsDir)));
}
