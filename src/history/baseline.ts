// `--baseline last-certified|RUN_ID`: the run a load run's relative gates compare with, found in the run store before
// any traffic — a RUN_ID the store does not hold, or one of another target, is refused at once; last-certified is the
// newest run of this target and scope that passed (CERTIFIED, or PASSED for a partial run such as load --scenario
// smoke, which is never CERTIFIED) with latency to compare, and when there is none yet the relative gates end
// unverified with that reason (the first night has nothing to compare with), never passed.
import type { BaselineLatency } from '../load/verdict.js';
import type { HistoryStore, StoredRun } from './store.js';

export const LAST_CERTIFIED = 'last-certified';

export interface ResolvedBaseline {
  /** The run compared with, when there is one. */
  run?: StoredRun;
  latency: BaselineLatency;
}

export class BaselineError extends Error {}

export async function resolveBaseline(
  store: HistoryStore,
  asked: string,
  self: { targetKey: string; scopeKey: string; runId?: string },
): Promise<ResolvedBaseline> {
  if (asked === LAST_CERTIFIED) {
    const runs = (await store.runs({ targetKey: self.targetKey, scopeKey: self.scopeKey })).reverse();
    for (const r of runs) {
      if (r.runId === self.runId || r.source !== 'run' || (r.verdict !== 'CERTIFIED' && r.verdict !== 'PASSED')) continue;
      const latency = await store.latency([r.runId]);
      if (latency.length) return { run: r, latency: { runId: r.runId, latency } };
    }
    return {
      latency: {
        missing: `no earlier run of this target and scope in ${store.where} passed with latency to compare (--baseline ${LAST_CERTIFIED}): the first passing run becomes the baseline`,
      },
    };
  }
  const run = await store.run(asked);
  if (!run) throw new BaselineError(`--baseline ${asked}: no such run in the history store ${store.where} (rampart history lists its runs)`);
  if (run.targetKey !== self.targetKey)
    throw new BaselineError(`--baseline ${asked}: that run is of another target (${run.targetName}); a baseline must be a run of the same target`);
  const latency = await store.latency([run.runId]);
  return {
    run,
    latency: latency.length ? { runId: run.runId, latency } : { missing: `baseline run ${run.runId} measured no latency (a load run with smoke or soak does)` },
  };
}
