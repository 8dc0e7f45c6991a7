// One night against the nights before it: the run just recorded, read back with the last runs of its target and
// scope (30 at most, this one last), so the reports can say which of its failures are new, which intermittent and
// which still failing, draw each requirement's strip and p95's trend, and fill CTRF's insights. Told apart, never
// changed: the verdict and every status stay the night's own.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { CheckResult, RunResults } from '../report/results.js';
import type { FailureInfo } from './analysis.js';
import { readGroup, type GroupHistory } from './group.js';
import { describeScopeKey } from './identity.js';
import { checkKeyOf, type RunContext } from './record.js';
import type { HistoryStore, StoredRun } from './store.js';

/** Runs a night is compared with (the report's strips show as many). */
export const NIGHT_WINDOW = 30;

export interface Night {
  /** Where the store is (a file, or a postgres URL with its password masked). */
  store: string;
  group: GroupHistory;
  /** This run's index in group.runs (the last). */
  at: number;
  target: string;
  scope: string;
  baseline?: StoredRun;
  /** Earlier runs' report.html beside this one, as links from this run's report (runId → href). */
  reports: Record<string, string>;
}

/** The recorded run read back with its group; undefined when the store does not hold it. */
export async function nightOf(
  store: HistoryStore,
  results: RunResults,
  ctx: Pick<RunContext, 'baselineRunId'> & { reportsDir?: string } = {},
): Promise<Night | undefined> {
  const self = await store.run(results.runId);
  if (!self) return undefined;
  const group = await readGroup(store, { targetKey: self.targetKey, scopeKey: self.scopeKey, until: self.startedAt, last: NIGHT_WINDOW });
  const at = group.runs.findIndex((r) => r.runId === results.runId);
  if (at < 0) return undefined;
  const baselineId = ctx.baselineRunId ?? self.baselineRunId;
  const baseline = baselineId ? await store.run(baselineId) : undefined;
  const reportsDir = ctx.reportsDir;
  const reports = Object.fromEntries(
    reportsDir
      ? group.runs
          .filter((r) => r.runId !== results.runId && existsSync(join(reportsDir, r.runId, 'report.html')))
          .map((r) => [r.runId, `../${encodeURIComponent(r.runId)}/report.html`])
      : [],
  );
  return {
    reports,
    store: store.where,
    group,
    at,
    target: self.targetName,
    scope: describeScopeKey(self.scopeKey),
    ...(baseline ? { baseline } : {}),
  };
}

/** How a failed check stands: by the requirement its failure names (else its first), or by itself when it names none. */
export function failureOf(
  night: Night | undefined,
  c: Pick<CheckResult, 'suite' | 'file' | 'name' | 'requirements' | 'failure' | 'status'>,
): FailureInfo | undefined {
  if (!night || c.status !== 'failed') return undefined;
  const f = night.group.failures[night.at];
  if (!f) return undefined;
  const req = c.failure?.requirement ?? c.requirements[0];
  return req ? f.requirements.get(req) : f.checks.get(checkKeyOf(c));
}

/** The night's failures by class: requirement ids, and the names of failed checks that name none. */
export function nightClasses(night: Night): Record<'new' | 'intermittent' | 'still failing', string[]> {
  const out = { new: [] as string[], intermittent: [] as string[], 'still failing': [] as string[] };
  const f = night.group.failures[night.at];
  if (!f) return out;
  for (const [id, info] of f.requirements) out[info.class].push(id);
  for (const [key, info] of f.checks) out[info.class].push(key.replace(/^[^:]*:[^:]*::/, ''));
  return out;
}

/** One phrase for a failure's standing: "new (passed in run X)", "intermittent (failed 2 of the last 5 runs)"… */
export function describeFailure(info: FailureInfo, runs: readonly StoredRun[]): string {
  const id = (i: number | undefined) => (i === undefined ? undefined : runs[i]?.runId);
  if (info.class === 'intermittent') return `intermittent (failed ${info.failed} of the last ${info.judged} runs that judged it)`;
  if (info.class === 'still failing') return `still failing (since run ${id(info.failingSince)})`;
  const passed = id(info.lastPassedAt);
  return passed ? `new failure (passed in run ${passed})` : 'new failure (no earlier run judged it)';
}

/** The banner's line: how many failures are new, intermittent, still failing, and what they were compared with. */
export function nightLine(night: Night): string | undefined {
  const c = nightClasses(night);
  const total = c.new.length + c.intermittent.length + c['still failing'].length;
  const earlier = night.at;
  if (!total) return undefined;
  const list = (ids: string[]) => (ids.length ? `: ${ids.slice(0, 5).join(', ')}${ids.length > 5 ? ', …' : ''}` : '');
  return [
    `${c.new.length} new${list(c.new)}`,
    `${c.intermittent.length} intermittent${list(c.intermittent)}`,
    `${c['still failing'].length} still failing${list(c['still failing'])}`,
  ]
    .join('; ')
    .concat(` — against ${earlier} earlier run${earlier === 1 ? '' : 's'} of this target and scope (nothing was retried or hidden)`);
}
