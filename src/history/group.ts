// The runs of one group (one target, one scope) read back from the store with what they hold: each requirement's and
// each check's row of statuses, the flips and intermittent flags, how each run's failures stood against the runs
// before it (new, intermittent, still failing), and p95 per scenario and route group over the runs. The report of a
// night (night.ts) and `rampart history` both read a group this way.
import { classifyAt, flipsAlong, rowHistories, type FailureInfo, type RowHistory, type StatusRow } from './analysis.js';
import type { ScenarioLatency } from './latency.js';
import type { HistoryStore, RunFilter, StoredRun } from './store.js';

export interface LatencySeries {
  scenario: string;
  group: string;
  /** Per run (in run order): the p95 and the samples it stands on, or null where the run has none. */
  points: ({ p95?: number; p99?: number; samples?: number; errorRate?: number } | null)[];
}

export interface RunFailures {
  runId: string;
  /** Each failed requirement (and each failed check that names none, by its key) with how it stands. */
  requirements: Map<string, FailureInfo>;
  checks: Map<string, FailureInfo>;
}

export interface GroupHistory {
  runs: StoredRun[];
  requirements: RowHistory[];
  checks: RowHistory[];
  /** Check durations per run, by key (CTRF's duration insights). */
  checkDurations: Map<string, (number | null)[]>;
  failures: RunFailures[];
  latency: LatencySeries[];
}

function rowsOf(runIds: readonly string[], byRun: Map<string, Map<string, string>>): StatusRow[] {
  const keys = new Set<string>();
  for (const m of byRun.values()) for (const k of m.keys()) keys.add(k);
  return [...keys].sort().map((key) => ({ key, statuses: runIds.map((id) => byRun.get(id)?.get(key) ?? null) }));
}

function latencySeries(runIds: readonly string[], rows: readonly (ScenarioLatency & { runId: string })[]): LatencySeries[] {
  const series = new Map<string, LatencySeries>();
  const at = new Map(runIds.map((id, i) => [id, i]));
  for (const r of rows) {
    const k = `${r.scenario}\u0000${r.group}`;
    let s = series.get(k);
    if (!s) series.set(k, (s = { scenario: r.scenario, group: r.group, points: runIds.map(() => null) }));
    const i = at.get(r.runId);
    if (i !== undefined) s.points[i] = { p95: r.p95, p99: r.p99, samples: r.samples, errorRate: r.errorRate };
  }
  return [...series.values()].sort((a, b) => a.scenario.localeCompare(b.scenario) || a.group.localeCompare(b.group));
}

/** The check rows that judge: a failed check naming no requirement (a performance gate) has no other row to tell it by. */
const requirementless = (key: string, requirementsOf: Map<string, string[]>) => (requirementsOf.get(key) ?? []).length === 0;

/** The group's runs (oldest first) and everything read of them. */
export async function readGroup(store: HistoryStore, filter: RunFilter): Promise<GroupHistory> {
  const runs = await store.runs(filter);
  const ids = runs.map((r) => r.runId);
  const versions = runs.map((r) => r.rampartVersion);
  const statuses = await store.requirementStatuses(ids);
  const checkResults = await store.checkResults(ids);
  const checkStatus = new Map([...checkResults].map(([id, m]) => [id, new Map([...m].map(([k, v]) => [k, v.status]))]));
  const requirements = rowHistories(rowsOf(ids, statuses), versions);
  const checks = rowHistories(rowsOf(ids, checkStatus), versions);
  const checkDurations = new Map<string, (number | null)[]>();
  for (const row of checks)
    checkDurations.set(
      row.key,
      ids.map((id) => checkResults.get(id)?.get(row.key)?.durationMs ?? null),
    );
  const requirementsOf = await store.checkRequirements(ids);
  // The group's first run has nothing to compare with: its failures are told apart from nothing.
  const failures: RunFailures[] = runs.map((run, at) => ({
    runId: run.runId,
    requirements: at ? classified(requirements, at, versions) : new Map(),
    checks: at
      ? classified(
          checks.filter((c) => requirementless(c.key, requirementsOf)),
          at,
          versions,
        )
      : new Map(),
  }));
  return { runs, requirements, checks, checkDurations, failures, latency: latencySeries(ids, await store.latency(ids)) };
}

function classified(rows: readonly StatusRow[], at: number, versions: readonly string[]): Map<string, FailureInfo> {
  const out = new Map<string, FailureInfo>();
  for (const r of rows) {
    const info = classifyAt(r, at, versions);
    if (info) out.set(r.key, info);
  }
  return out;
}

/** What flipped between the group's last two judged runs of each row. */
export function lastFlips(g: GroupHistory): { id: string; from: string; to: string; runId: string }[] {
  const last = g.runs.length - 1;
  return g.requirements.flatMap((r) =>
    flipsAlong(r)
      .filter((f) => f.at === last)
      .map((f) => ({ id: r.key, from: f.from, to: f.to, runId: g.runs[f.at]!.runId })),
  );
}
