// A run's store, opened before any traffic: --history (or RAMPART_HISTORY_URL) names a PostgreSQL store, else the
// SQLite file beside the reports. A store asked for by name that cannot be opened, and a --baseline it cannot
// resolve, refuse the run at once (nothing is written, exit 2), so a night's record is never lost after an hour of
// traffic; the default file failing costs the run its history only (said on the terminal). With --baseline and load,
// the relative gates are judged on the run's k6 summaries before the run is judged.
import { redact } from '../secrets/index.js';
import { loadGates } from '../load/gates.js';
import { relativeGateChecks } from '../load/verdict.js';
import type { CheckResult, Observation, RunResults } from '../report/results.js';
import { BaselineError, resolveBaseline, type ResolvedBaseline } from './baseline.js';
import { targetKeyOf } from './identity.js';
import { runLatency } from './latency.js';
import type { RunContext } from './record.js';
import { historyUrlOf, openHistoryStore, sqlitePathOf, type HistoryStore } from './store.js';

export interface RunHistory {
  store?: HistoryStore;
  baseline?: ResolvedBaseline;
  /** What the store records of the run beside its results. */
  context: RunContext;
}

export class RunHistoryError extends Error {}

export async function openRunHistory(opts: {
  history?: string;
  baseline?: string;
  reportsDir: string;
  targetHash?: string;
  profileHash?: string;
  faults?: string[];
  scopeKey: string;
  /** The run's own id (a --resume's): never its own baseline. */
  runId?: string;
}): Promise<RunHistory> {
  const context: RunContext = {
    ...(opts.targetHash ? { targetHash: opts.targetHash } : {}),
    ...(opts.profileHash ? { profileHash: opts.profileHash } : {}),
    ...(opts.faults?.length ? { faults: opts.faults } : {}),
  };
  let url: string | undefined;
  try {
    url = historyUrlOf(opts.history);
  } catch (e) {
    throw new RunHistoryError((e as Error).message);
  }
  let store: HistoryStore | undefined;
  try {
    store = await openHistoryStore({ reportsDir: opts.reportsDir, url });
    await store.prepare(opts.reportsDir);
  } catch (e) {
    await store?.close();
    if (url || opts.baseline) throw new RunHistoryError(`the history store cannot be used: ${(e as Error).message}`);
    process.stderr.write(
      redact(`rampart: history: ${sqlitePathOf(opts.reportsDir)} cannot be used (${(e as Error).message}); this run is not recorded`) + '\n',
    );
    return { context };
  }
  if (!opts.baseline) return { store, context };
  try {
    const baseline = await resolveBaseline(store, opts.baseline, { targetKey: targetKeyOf('', opts.targetHash), scopeKey: opts.scopeKey, runId: opts.runId });
    return { store, baseline, context: { ...context, ...(baseline.run ? { baselineRunId: baseline.run.runId } : {}) } };
  } catch (e) {
    await store.close();
    if (e instanceof BaselineError) throw new RunHistoryError(e.message);
    throw e;
  }
}

/** The relative gates of a run with --baseline that ran load: checks and observations to add before it is judged. */
export function relativeGatesOfRun(
  results: Pick<RunResults, 'metrics'>,
  runDir: string,
  baseline: ResolvedBaseline,
  gatesFile: string | undefined,
): { checks: CheckResult[]; observations: Observation[] } {
  const current = runLatency(results, runDir).filter((l) => l.scenario !== '*');
  if (!current.length) return { checks: [], observations: [] };
  return relativeGateChecks(current, baseline.latency, loadGates(gatesFile).relative);
}
