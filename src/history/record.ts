// One run as the store keeps it: a row of the run (times, command and scope, rampart's version, the profile's name
// and hash, the target's base URLs, the verdict), per requirement its status, reason and its checks' durations, per
// check its status and duration, per k6 scenario and route group the percentiles and error rate, the target's clock
// offset and round trip, and explore's and the races' findings with their seeds. Written in one transaction; a run recorded again
// (a --resume finishing it) replaces its rows.
import { createHash } from 'node:crypto';
import type { CheckResult, RunResults } from '../report/results.js';
import { insertRows, type Db, type SqlValue } from './db.js';
import { faultsOfName, scopeKeyOf, targetKeyOf, targetNameOf } from './identity.js';
import { runLatency } from './latency.js';
import { checkKey } from '../runner/suites.js';

/** What the run knows beside its results: the target's identity, the baseline it was judged against, its exit. */
export interface RunContext {
  /** sha256 of the target's profile without the embedded target's faults (runs with and without --fault: one target). */
  targetHash?: string;
  /** sha256 of the profile as the run's --resume identifies it (faults included). */
  profileHash?: string;
  faults?: string[];
  baselineRunId?: string;
  exitCode?: number;
  /** The run directory, where the k6 summaries are. */
  runDir?: string;
}

const json = (v: unknown): string | null => (v === undefined ? null : JSON.stringify(v));

/** A check's key across runs: the runner's own (kind:file::name). */
export const checkKeyOf = (c: { suite: string; file?: string; name: string }) => checkKey(c.suite, c.file ?? '', c.name);

const RUN_TABLES = ['requirement_results', 'check_results', 'latency', 'target_clocks', 'findings', 'runs'] as const;

export async function deleteRun(db: Db, runId: string): Promise<void> {
  for (const t of RUN_TABLES) await db.run(`DELETE FROM ${t} WHERE run_id = ?`, [runId]);
}

/** Checks no run refers to any more (after a prune). */
export async function deleteOrphanChecks(db: Db): Promise<void> {
  await db.run('DELETE FROM checks WHERE check_id NOT IN (SELECT check_id FROM check_results)');
}

function runRow(results: RunResults, ctx: RunContext): Record<string, SqlValue> {
  const scope = results.scope;
  const races = racesOf(results);
  const seeds = {
    ...(results.exploration ? { explore: results.exploration.seed } : {}),
    ...(typeof races?.seed === 'number' ? { races: races.seed } : {}),
    ...Object.fromEntries(
      Object.entries(results.metrics ?? {})
        .map(([k, m]) => [/^k6:(.+)$/.exec(k)?.[1], (m as { seed?: unknown } | undefined)?.seed] as const)
        .filter(([name, seed]) => name && typeof seed === 'number'),
    ),
  };
  return {
    run_id: results.runId,
    started_at: results.startedAt,
    finished_at: results.finishedAt,
    command: results.command,
    kinds: (scope?.kinds ?? []).join(','),
    depth: results.depth,
    scope_key: scopeKeyOf(results),
    scope: json(
      scope ? { ...scope, gates: scope.gates ? { file: scope.gates.file, sha256: scope.gates.sha256, looser: scope.gates.looser } : undefined } : undefined,
    ),
    whole: scope?.whole ? 1 : 0,
    rampart_version: results.tool?.version ?? '?',
    spec_version: results.environment?.specVersion ?? null,
    profile_name: results.profile.name,
    target_name: targetNameOf(results.profile.name),
    target_key: targetKeyOf(results.profile.name, ctx.targetHash),
    profile_hash: ctx.profileHash ?? null,
    faults: JSON.stringify(ctx.faults ?? faultsOfName(results.profile.name)),
    base_urls: json(results.profile.baseUrls),
    verdict: results.summary.verdict,
    verdict_line: results.summary.verdictLine,
    exit_code: ctx.exitCode ?? null,
    interrupted: results.interrupted?.signal ?? null,
    error: results.error?.message ?? null,
    summary: json(results.summary),
    baseline_run_id: ctx.baselineRunId ?? null,
    source: 'run',
    host: results.environment?.host ?? null,
    recorded_at: new Date().toISOString(),
    seeds: Object.keys(seeds).length ? JSON.stringify(seeds) : null,
  };
}

async function insertOne(db: Db, table: string, row: Record<string, SqlValue>): Promise<void> {
  await insertRows(db, table, Object.keys(row), [Object.values(row)]);
}

/** A check's id in the store: a hash of its key, so a run's rows stay short and its name is kept once. */
export const checkIdOf = (key: string) => createHash('sha256').update(key).digest('hex').slice(0, 16);

/** Each check once (its newest name, file and requirements), and its result in this run. */
async function recordChecks(db: Db, runId: string, all: readonly CheckResult[]): Promise<void> {
  // One row per check: a name twice in one file (never by design) keeps its first.
  const seen = new Set<string>();
  const checks = all.filter((c) => !seen.has(checkKeyOf(c)) && seen.add(checkKeyOf(c)));
  await insertRows(
    db,
    'checks',
    ['check_id', 'check_key', 'name', 'suite', 'file', 'requirements'],
    checks.map((c) => [checkIdOf(checkKeyOf(c)), checkKeyOf(c), c.name, c.suite, c.file ?? null, JSON.stringify(c.requirements)]),
    'ON CONFLICT (check_id) DO UPDATE SET requirements = excluded.requirements',
  );
  await insertRows(
    db,
    'check_results',
    ['run_id', 'check_id', 'status', 'reason', 'duration_ms', 'failure_kind', 'failure_requirement', 'failure_message'],
    checks.map((c) => [
      runId,
      checkIdOf(checkKeyOf(c)),
      c.status,
      c.reason ?? null,
      c.durationMs || 0,
      c.failure?.kind ?? null,
      c.failure?.requirement ?? null,
      c.failure?.message ?? null,
    ]),
  );
}

/** The run's rows, replacing any it had. */
export async function recordRun(db: Db, results: RunResults, ctx: RunContext): Promise<void> {
  const id = results.runId;
  await deleteRun(db, id);
  await insertOne(db, 'runs', runRow(results, ctx));
  // Per requirement its checks' statuses and durations in the order of its checks (their names are the checks' own rows).
  await insertRows(
    db,
    'requirement_results',
    ['run_id', 'requirement_id', 'service', 'status', 'reason', 'checks_ms', 'checks'],
    results.requirements.map((r) => [
      id,
      r.id,
      r.service,
      r.status,
      r.reason ?? null,
      r.checks.reduce((a, c) => a + (c.durationMs || 0), 0),
      JSON.stringify(r.checks.map((c) => [c.status, Math.round(c.durationMs || 0)])),
    ]),
  );
  await recordChecks(db, id, results.checks);
  await insertRows(
    db,
    'latency',
    ['run_id', 'scenario', 'route_group', 'p50', 'p90', 'p95', 'p99', 'max_ms', 'samples', 'error_rate'],
    runLatency(results, ctx.runDir).map((l) => [
      id,
      l.scenario,
      l.group,
      l.p50 ?? null,
      l.p90 ?? null,
      l.p95 ?? null,
      l.p99 ?? null,
      l.max ?? null,
      l.samples ?? null,
      l.errorRate ?? null,
    ]),
  );
  await insertRows(
    db,
    'target_clocks',
    ['run_id', 'service', 'offset_ms', 'uncertainty_ms', 'basis', 'round_trip_median_ms', 'round_trip_p95_ms', 'report'],
    Object.entries(results.target ?? {})
      .filter(([, t]) => !!t)
      .map(([service, t]) => [
        id,
        service,
        t!.clock?.offsetMs ?? null,
        t!.clock?.uncertaintyMs ?? null,
        t!.basis ?? null,
        t!.roundTrip?.medianMs ?? null,
        t!.roundTrip?.p95Ms ?? null,
        JSON.stringify(t),
      ]),
  );
  await insertRows(db, 'findings', ['run_id', 'kind', 'seq', 'requirement_id', 'what', 'family', 'seed', 'path', 'confirmed'], findingRows(results));
}

/** What a run's races found, as far as the store keeps it (results written by a rampart with races carry it). */
interface RacesLike {
  seed?: number;
  findings?: { requirement?: string; what: string; family: string; seed: number; round?: number }[];
}
const racesOf = (results: RunResults) => (results as { races?: RacesLike }).races;

/** Explore's findings (and the one that did not part again) and the races' findings, each with its seed. */
function findingRows(results: RunResults): SqlValue[][] {
  const id = results.runId;
  const e = results.exploration;
  const explored = [...(e?.findings ?? []).map((f) => ({ f, kind: 'explore' })), ...(e?.flaky ? [{ f: e.flaky, kind: 'explore-flaky' }] : [])];
  const rows: SqlValue[][] = explored.map(({ f, kind }, i) => [
    id,
    kind,
    i,
    f.requirement ?? null,
    f.what,
    f.family,
    String(f.seed),
    f.path,
    f.confirmed ? 1 : 0,
  ]);
  (racesOf(results)?.findings ?? []).forEach((f, i) =>
    rows.push([id, 'races', i, f.requirement ?? null, f.what, f.family, String(f.seed), f.round === undefined ? null : `round ${f.round}`, 1]),
  );
  return rows;
}
