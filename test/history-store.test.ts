// The run store on both of its databases, by one suite: the SQLite file (sql.js) and a real PostgreSQL from Debian's
// packages (started by scripts/postgres-for-tests.sh; skipped visibly with the reason where it cannot be). The same
// migration list brings each up (fresh, or from an older step), a store of a newer rampart is refused, a run is
// recorded and read back whole (requirements, checks, latency, clock, findings) and recorded again replaces itself,
// the old JSON records are imported once, prune removes a run with all its rows. SQLite alone: two processes
// writing at once both land, and a stale lock does not stop a write.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { sqliteFile } from '../src/history/sqliteFile.js';
import { postgresStore } from '../src/history/postgres.js';
import { MIGRATIONS, SCHEMA_VERSION, appliedVersions, migrate } from '../src/history/migrations.js';
import { HistoryStore, openHistoryStore } from '../src/history/store.js';
import type { DbHandle } from '../src/history/db.js';
import { toHistoryRecord } from '../src/report/history.js';
import { nightAt, nightRun } from './support/nights.js';
import { freshDatabase, postgresServer } from './support/postgres.js';

const tmp = mkdtempSync(join(tmpdir(), 'rampart-store-'));
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of cleanups) await c();
  rmSync(tmp, { recursive: true, force: true });
});

const pg = postgresServer();

interface Backend {
  name: string;
  skip?: string;
  open(): Promise<DbHandle>;
}

let n = 0;
const backends: Backend[] = [
  { name: 'SQLite file (sql.js)', open: async () => sqliteFile(join(tmp, `store-${++n}`, 'history.db')) },
  {
    name: 'PostgreSQL (Debian package, real server)',
    ...(pg.skip ? { skip: pg.skip } : {}),
    async open() {
      const db = await freshDatabase(pg.url!);
      cleanups.push(db.drop);
      const handle = await postgresStore(db.url);
      cleanups.unshift(() => handle.close());
      return handle;
    },
  },
];

const withLatency = (runId: string, startedAt: string) =>
  nightRun({
    runId,
    startedAt,
    statuses: { 'POOLS-CAP-TIER': 'failed', 'POOLS-DISC-ENTITLED': 'skipped' },
    latency: { read60: { p50: 2, p90: 3, p95: 4.5, p99: 9, max: 12, samples: 300 } },
  });

for (const b of backends) {
  describe.skipIf(!!b.skip)(`the run store on ${b.name}${b.skip ? ` (skipped: ${b.skip})` : ''}`, () => {
    it('the one migration list brings a fresh store and an older one to the newest step; a newer store is refused', async () => {
      const fresh = await b.open();
      expect(await fresh.write((db) => migrate(db))).toEqual(MIGRATIONS.map((m) => m.version));
      expect(await fresh.write((db) => migrate(db))).toEqual([]);
      expect(await fresh.read((db) => appliedVersions(db))).toEqual(MIGRATIONS.map((m) => m.version));

      const older = await b.open();
      expect(await older.write((db) => migrate(db, MIGRATIONS.slice(0, 1)))).toEqual([1]);
      // Step 2 adds a column to runs: the older store takes it on.
      expect(await older.write((db) => migrate(db))).toEqual(MIGRATIONS.slice(1).map((m) => m.version));
      const cols = await older.read((db) => db.all<{ seeds: unknown }>('SELECT seeds FROM runs'));
      expect(cols).toEqual([]);

      await fresh.write((db) =>
        db.run('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)', [SCHEMA_VERSION + 1, 'from the future', 'x']),
      );
      await expect(fresh.write((db) => migrate(db))).rejects.toThrow(/newer than this rampart knows/);
    });

    it('a run is recorded whole and read back; recorded again (a --resume), it replaces itself', async () => {
      const store = new HistoryStore(await b.open());
      await store.prepare();
      const { runId, startedAt } = nightAt(1);
      const results = withLatency(runId, startedAt);
      results.exploration = {
        seed: 42,
        budget: 10,
        spent: 10,
        sequences: 1,
        steps: 3,
        families: {},
        oracle: 'embedded',
        findings: [
          {
            requirement: 'POOLS-CAP-TIER',
            what: 'tier differs',
            step: 2,
            target: 1,
            oracle: 2,
            steps: [],
            family: 'pools-quotes',
            seed: -1234567,
            path: '0:1',
            firstSeenSteps: 5,
            confirmed: true,
            replay: { script: '', env: [], notes: [] },
          },
        ],
      };
      // A run of rampart races: its findings and seed are kept beside explore's.
      Object.assign(results, {
        races: { seed: 9, findings: [{ requirement: 'POOLS-CAP-TIER', what: 'two trades', family: 'pools-transact', seed: 9, round: 2 }] },
      });
      for (let i = 0; i < 2; i++) await store.record(results, { targetHash: 'abc', profileHash: 'def', exitCode: 1 });
      const runs = await store.runs();
      expect(runs).toHaveLength(1);
      expect(runs[0]).toMatchObject({
        runId,
        command: 'conformance',
        verdict: 'NOT CERTIFIED',
        targetKey: 'sha256:abc',
        targetName: 'embedded',
        exitCode: 1,
        source: 'run',
      });
      expect(runs[0]!.scopeKey).toBe('conformance|conformance|depth=quick|service=pools');
      const statuses = (await store.requirementStatuses([runId])).get(runId)!;
      expect(Object.fromEntries(statuses)).toEqual({
        'POOLS-QUOTE-NETWORK-DEFAULT-TRON': 'passed',
        'POOLS-CAP-TIER': 'failed',
        'POOLS-OMITTED-INTERNALS': 'passed',
        'POOLS-DISC-ENTITLED': 'skipped',
      });
      const checks = (await store.checkResults([runId])).get(runId)!;
      expect(checks.size).toBe(4);
      expect(checks.get('conformance:conformance/pools/made-up.ts::check of POOLS-CAP-TIER')).toEqual({ status: 'failed', durationMs: 24 });
      expect(await store.latency([runId])).toEqual([
        { runId, scenario: '*', group: 'read60', p50: 2, p90: 3, p95: 4.5, p99: 9, max: 12, samples: 300, errorRate: undefined },
      ]);
      const rows = await (store as unknown as { handle: DbHandle }).handle.read(async (db) => ({
        clock: await db.all<Record<string, unknown>>('SELECT service, offset_ms, round_trip_p95_ms FROM target_clocks'),
        findings: await db.all<Record<string, unknown>>('SELECT kind, requirement_id, seed, confirmed FROM findings ORDER BY kind'),
        seeds: await db.all<Record<string, unknown>>('SELECT seeds FROM runs'),
        checks: await db.all<Record<string, unknown>>('SELECT check_key, requirements FROM checks ORDER BY check_key'),
      }));
      // Each check's name is kept once, however many runs refer to it.
      expect(rows.checks.map((r) => r.check_key)).toEqual([...checks.keys()].sort());
      expect(JSON.parse(String(rows.checks[0]!.requirements))).toEqual(['POOLS-CAP-TIER']);
      expect(rows.clock.map((r) => ({ ...r, offset_ms: Number(r.offset_ms), round_trip_p95_ms: Number(r.round_trip_p95_ms) }))).toEqual([
        { service: 'pools', offset_ms: 12, round_trip_p95_ms: 5 },
      ]);
      expect(rows.findings.map((r) => ({ ...r, confirmed: Number(r.confirmed) }))).toEqual([
        { kind: 'explore', requirement_id: 'POOLS-CAP-TIER', seed: '-1234567', confirmed: 1 },
        { kind: 'races', requirement_id: 'POOLS-CAP-TIER', seed: '9', confirmed: 1 },
      ]);
      expect(JSON.parse(String(rows.seeds[0]!.seeds))).toEqual({ explore: 42, races: 9 });
    });

    it('groups the runs by target and scope, and prune removes old runs with every row of them', async () => {
      const store = new HistoryStore(await b.open());
      await store.prepare();
      for (const i of [1, 2, 3]) await store.record(withLatency(nightAt(i).runId, nightAt(i).startedAt), { targetHash: 'abc' });
      await store.record(nightRun({ ...nightAt(4), command: 'certify' }), { targetHash: 'abc' });
      expect((await store.groups()).map((g) => [g.scopeKey, g.runs])).toEqual([
        ['conformance|conformance|depth=quick|service=pools', 3],
        ['certify|conformance|depth=quick|service=pools', 1],
      ]);
      expect((await store.runs({ last: 2 })).map((r) => r.runId)).toEqual([nightAt(3).runId, nightAt(4).runId]);
      expect((await store.runs({ since: nightAt(3).startedAt, until: nightAt(3).startedAt })).map((r) => r.runId)).toEqual([nightAt(3).runId]);
      expect(await store.prune(nightAt(3).startedAt)).toBe(2);
      expect((await store.runs()).map((r) => r.runId)).toEqual([nightAt(3).runId, nightAt(4).runId]);
      const gone = [nightAt(1).runId, nightAt(2).runId];
      expect([...(await store.requirementStatuses(gone)).values()].map((m) => m.size)).toEqual([0, 0]);
      expect(await store.latency(gone)).toEqual([]);
    });

    it('imports the old reports/history/*.json records once per reports folder (a pruned one is not brought back)', async () => {
      const reportsDir = join(tmp, `imports-${++n}`);
      mkdirSync(join(reportsDir, 'history'), { recursive: true });
      for (const i of [1, 2]) {
        const r = withLatency(nightAt(i).runId, nightAt(i).startedAt);
        writeFileSync(join(reportsDir, 'history', `${r.runId}.json`), JSON.stringify(toHistoryRecord(r)));
      }
      writeFileSync(join(reportsDir, 'history', 'broken.json'), '{not json');
      const store = new HistoryStore(await b.open());
      expect(await store.prepare(reportsDir)).toMatchObject({ imported: 2 });
      expect(await store.prepare(reportsDir)).toMatchObject({ imported: 0 });
      const runs = await store.runs();
      expect(runs.map((r) => [r.runId, r.source, r.verdict])).toEqual([
        [nightAt(1).runId, 'imported', 'NOT CERTIFIED'],
        [nightAt(2).runId, 'imported', 'NOT CERTIFIED'],
      ]);
      expect((await store.latency([nightAt(1).runId])).map((l) => [l.scenario, l.group, l.p95])).toEqual([['*', 'read60', 4.5]]);
      await store.prune(nightAt(2).startedAt);
      expect(await store.prepare(reportsDir)).toMatchObject({ imported: 0 });
      expect(await store.runs()).toHaveLength(1);
    });
  });
}

describe('the SQLite file under two writers', () => {
  it('two processes recording at once both land (the lock), and nothing half-written is left beside the file', { timeout: 120_000 }, async () => {
    const dir = join(tmp, 'two-writers');
    const script = join(dir, 'writer.mts');
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      script,
      `import { openHistoryStore } from ${JSON.stringify(join(import.meta.dirname, '../src/history/store.ts'))};
import { nightRun } from ${JSON.stringify(join(import.meta.dirname, 'support/nights.ts'))};
const [who] = process.argv.slice(2);
const store = await openHistoryStore({ reportsDir: ${JSON.stringify(dir)} });
await store.prepare();
for (let i = 0; i < 8; i++) {
  const startedAt = new Date(Date.UTC(2026, 10, 1, 3, Number(who), i)).toISOString();
  await store.record(nightRun({ runId: 'w' + who + '-' + i, startedAt }), {});
}
`,
    );
    const run = promisify(execFile);
    const tsx = join(import.meta.dirname, '..', 'node_modules', '.bin', 'tsx');
    await Promise.all(['1', '2'].map((who) => run(tsx, [script, who], { cwd: dir })));
    const store = await openHistoryStore({ reportsDir: dir });
    expect((await store.runs()).length).toBe(16);
    expect(
      readdirSync(dir)
        .filter((f) => f.startsWith('history.db'))
        .sort(),
    ).toEqual(['history.db']);
  });

  it('a lock left by a process that is gone does not stop a write', async () => {
    const dir = join(tmp, 'stale');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'history.db.lock'), JSON.stringify({ pid: 2 ** 22 + 12345, host: (await import('node:os')).hostname(), at: Date.now() }));
    const store = await openHistoryStore({ reportsDir: dir });
    await store.prepare();
    await store.record(nightRun(nightAt(1)), {});
    expect(await store.runs()).toHaveLength(1);
    expect(existsSync(join(dir, 'history.db.lock'))).toBe(false);
  });
});
