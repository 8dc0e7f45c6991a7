// The store's schema as numbered migrations, one list for both databases: each step's SQL is in the subset SQLite
// and PostgreSQL share (test/history-store.test.ts runs the same list on both, so a step one of them refuses fails
// there). A store is brought up to the newest step in one transaction; one written by a newer rampart (a step this
// one does not know) is refused, never written into.
import type { Db } from './db.js';

export interface Migration {
  version: number;
  name: string;
  up: readonly string[];
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'runs, and per run each requirement and each check',
    up: [
      `CREATE TABLE runs (
        run_id TEXT PRIMARY KEY,
        started_at TEXT NOT NULL,
        finished_at TEXT NOT NULL,
        command TEXT NOT NULL,
        kinds TEXT NOT NULL,
        depth TEXT NOT NULL,
        scope_key TEXT NOT NULL,
        scope TEXT,
        whole INTEGER NOT NULL,
        rampart_version TEXT NOT NULL,
        spec_version TEXT,
        profile_name TEXT NOT NULL,
        target_name TEXT NOT NULL,
        target_key TEXT NOT NULL,
        profile_hash TEXT,
        faults TEXT NOT NULL,
        base_urls TEXT,
        verdict TEXT NOT NULL,
        verdict_line TEXT NOT NULL,
        exit_code INTEGER,
        interrupted TEXT,
        error TEXT,
        summary TEXT,
        baseline_run_id TEXT,
        source TEXT NOT NULL,
        host TEXT,
        recorded_at TEXT NOT NULL
      )`,
      'CREATE INDEX runs_by_group ON runs (target_key, scope_key, started_at)',
      'CREATE INDEX runs_by_time ON runs (started_at)',
      `CREATE TABLE requirement_results (
        run_id TEXT NOT NULL,
        requirement_id TEXT NOT NULL,
        service TEXT NOT NULL,
        status TEXT NOT NULL,
        reason TEXT,
        checks_ms DOUBLE PRECISION NOT NULL,
        checks TEXT NOT NULL,
        PRIMARY KEY (run_id, requirement_id)
      )`,
      // A check's name, file and requirements once (a run refers to it by a hash of its key), its result per run.
      `CREATE TABLE checks (
        check_id TEXT PRIMARY KEY,
        check_key TEXT NOT NULL,
        name TEXT NOT NULL,
        suite TEXT NOT NULL,
        file TEXT,
        requirements TEXT NOT NULL
      )`,
      `CREATE TABLE check_results (
        run_id TEXT NOT NULL,
        check_id TEXT NOT NULL,
        status TEXT NOT NULL,
        reason TEXT,
        duration_ms DOUBLE PRECISION NOT NULL,
        failure_kind TEXT,
        failure_requirement TEXT,
        failure_message TEXT,
        PRIMARY KEY (run_id, check_id)
      )`,
    ],
  },
  {
    version: 2,
    name: "latency per k6 scenario and route group, the target's clock and round trip, explore findings and seeds",
    up: [
      `CREATE TABLE latency (
        run_id TEXT NOT NULL,
        scenario TEXT NOT NULL,
        route_group TEXT NOT NULL,
        p50 DOUBLE PRECISION,
        p90 DOUBLE PRECISION,
        p95 DOUBLE PRECISION,
        p99 DOUBLE PRECISION,
        max_ms DOUBLE PRECISION,
        samples INTEGER,
        error_rate DOUBLE PRECISION,
        PRIMARY KEY (run_id, scenario, route_group)
      )`,
      `CREATE TABLE target_clocks (
        run_id TEXT NOT NULL,
        service TEXT NOT NULL,
        offset_ms DOUBLE PRECISION,
        uncertainty_ms DOUBLE PRECISION,
        basis TEXT,
        round_trip_median_ms DOUBLE PRECISION,
        round_trip_p95_ms DOUBLE PRECISION,
        report TEXT NOT NULL,
        PRIMARY KEY (run_id, service)
      )`,
      `CREATE TABLE findings (
        run_id TEXT NOT NULL,
        kind TEXT NOT NULL,
        seq INTEGER NOT NULL,
        requirement_id TEXT,
        what TEXT NOT NULL,
        family TEXT,
        seed TEXT,
        path TEXT,
        confirmed INTEGER NOT NULL,
        PRIMARY KEY (run_id, kind, seq)
      )`,
      'ALTER TABLE runs ADD COLUMN seeds TEXT',
    ],
  },
  {
    version: 3,
    name: 'imports of the compact records of reports/history/*.json, once per reports folder',
    up: [
      `CREATE TABLE imports (
        source TEXT PRIMARY KEY,
        imported_at TEXT NOT NULL,
        records INTEGER NOT NULL
      )`,
    ],
  },
];

export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version;

/** The steps a store has had. */
export async function appliedVersions(db: Db): Promise<number[]> {
  await db.run('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)');
  const rows = await db.all<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version');
  return rows.map((r) => Number(r.version));
}

/** Brings the store up to SCHEMA_VERSION inside the caller's write transaction; returns the steps applied now. */
export async function migrate(db: Db, migrations: readonly Migration[] = MIGRATIONS): Promise<number[]> {
  // Many CI runners may open one PostgreSQL store at once: one migrates, the others wait and find it done.
  if (db.dialect === 'postgres') await db.run('SELECT pg_advisory_xact_lock(4554130)');
  const applied = new Set(await appliedVersions(db));
  const known = new Set(migrations.map((m) => m.version));
  const newer = [...applied].filter((v) => !known.has(v));
  if (newer.length)
    throw new Error(
      `the history store has schema step ${Math.max(...newer)}, newer than this rampart knows (${Math.max(...known)}): a newer rampart wrote it — upgrade rampart`,
    );
  const done: number[] = [];
  for (const m of [...migrations].sort((a, b) => a.version - b.version)) {
    if (applied.has(m.version)) continue;
    for (const sql of m.up) await db.run(sql);
    await db.run('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)', [m.version, m.name, new Date().toISOString()]);
    done.push(m.version);
  }
  return done;
}
