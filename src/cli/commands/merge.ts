// `rampart load --merge LOGS…`: a load run that happened on k6-operator, turned
// from its runner pods' `kubectl logs` into the run directory, verdict and exit
// code `rampart load --segments N` gives for the same split on this machine.
// Each file holds the logs of one scenario's pods (or several files one
// scenario each); the scenario is read from the requirements its summaries
// prove, or named with --scenario (smoke and soak prove none).
import { hostname } from 'node:os';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { EXIT, RunError } from '../../exitCodes.js';
import { SCENARIOS, type ScenarioName } from '../../../scenarios/lib/requirements.js';
import { loadProfile } from '../../profile/load.js';
import { Profile } from '../../profile/schema.js';
import { SPEC_VERSION } from '../../model/limits.js';
import { PACKAGE_VERSION } from '../../packageRoot.js';
import { readPodLogs, requirementsOfSummary, runOfPodLogs, scenarioOfRequirements, type PodLogs } from '../../load/podLogs.js';
import { outcomeOfRuns } from '../../load/run.js';
import type { RunResults } from '../../report/results.js';
import { exitCodeOf, headlineOf, requirementResults, summarize } from '../../report/verdict.js';
import { newRunId, writeRun } from '../../report/writeRun.js';
import { redact } from '../../secrets/index.js';
import { registerProfileSecrets } from '../run.js';

export interface MergeOptions {
  merge: string[];
  scenario?: string[];
  segments?: string;
  profile?: string;
  depth: 'quick' | 'full';
  case?: string[];
  reportsDir: string;
  failIncomplete?: boolean;
}

const NAMES = Object.keys(SCENARIOS) as ScenarioName[];

/** Each file's pods, grouped by the scenario they ran. */
function scenariosOf(files: string[], named: ScenarioName | undefined): Map<ScenarioName, PodLogs> {
  const byScenario = new Map<ScenarioName, PodLogs>();
  for (const file of files) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (e) {
      throw new RunError(`cannot read ${file} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}) — pass files of kubectl logs`, EXIT.usage);
    }
    const logs = readPodLogs(text);
    if (!logs.summaries.length && !logs.torn)
      throw new RunError(
        `${file} holds no RAMPART_SUMMARY line — save the runner pods' logs after the run: kubectl logs -l k6_cr=rampart-<scenario>,runner=true --tail=-1 > ${file}`,
        EXIT.usage,
      );
    const ids = [...new Set(logs.summaries.flatMap(requirementsOfSummary))];
    const inferred = scenarioOfRequirements(ids);
    if (named && inferred && inferred !== named)
      throw new RunError(`${file} holds the summaries of ${inferred}, not ${named} — drop --scenario or name the right one`, EXIT.usage);
    const name = named ?? inferred;
    if (!name)
      throw new RunError(
        `${file}: its summaries prove no requirement, so the scenario cannot be told from them — name it: --scenario smoke (or soak)`,
        EXIT.usage,
      );
    const prev = byScenario.get(name);
    byScenario.set(
      name,
      prev ? { summaries: [...prev.summaries, ...logs.summaries], records: [...prev.records, ...logs.records], torn: prev.torn + logs.torn } : logs,
    );
  }
  return byScenario;
}

export async function mergeCommand(opts: MergeOptions): Promise<number> {
  const startedAt = new Date();
  if ((opts.scenario?.length ?? 0) > 1) throw new RunError('--merge reads one scenario per file: give at most one --scenario, or none', EXIT.usage);
  const named = opts.scenario?.[0] as ScenarioName | undefined;
  if (named && !NAMES.includes(named)) throw new RunError(`unknown scenario ${named} — choose from ${NAMES.join(', ')}`, EXIT.usage);
  const expected = opts.segments === undefined ? undefined : Number(opts.segments);
  if (expected !== undefined && (!Number.isInteger(expected) || expected < 1))
    throw new RunError(`--segments must be a whole number (the TestRun's parallelism), not ${opts.segments}`, EXIT.usage);
  // The profile names the target in the report and gives its tolerances; its keys are not needed.
  const profile = opts.profile ? loadProfile(opts.profile) : undefined;
  if (profile) registerProfileSecrets(profile);
  const tolerances = profile?.tolerances ?? Profile.shape.tolerances.parse(undefined);

  const byScenario = scenariosOf(opts.merge, named);
  const runId = newRunId(startedAt);
  const runDir = join(opts.reportsDir, runId);
  const runs = [...byScenario].map(([name, logs]) => {
    if (expected !== undefined && logs.summaries.length + logs.torn > expected)
      throw new RunError(
        `${name}: ${logs.summaries.length + logs.torn} pods' summaries but --segments ${expected} — the logs hold more than one run; save one run's logs`,
        EXIT.usage,
      );
    const run = runOfPodLogs(name, logs, expected);
    // The summaries, where a local run leaves them: per segment, and merged.
    const dir = join(runDir, 'k6', name);
    run.segments.forEach((s, i) => {
      if (!s.summary || run.segments.length === 1) return;
      mkdirSync(join(dir, `segment-${i + 1}`), { recursive: true });
      writeFileSync(join(dir, `segment-${i + 1}`, 'summary.json'), JSON.stringify(s.summary, null, 1));
    });
    if (run.summary) {
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'summary.json'), JSON.stringify(run.summary, null, 1));
    }
    const reqs = [...new Set(logs.summaries.flatMap(requirementsOfSummary))];
    return { name, reqs, run };
  });
  const depth = runs.some(({ name, reqs }) => {
    const spec = SCENARIOS[name] as { cases: Record<string, readonly string[]>; fullOnly?: readonly string[] };
    return (spec.fullOnly ?? []).some((c) => (spec.cases[c] ?? []).some((id) => reqs.includes(id)));
  })
    ? 'full'
    : opts.depth;
  const outcome = outcomeOfRuns(runs, { depth, cases: opts.case, quoteTtlToleranceSeconds: tolerances.quoteTtlSeconds });
  const timeScales = profile ? { retryScale: profile.timing.retryScale, rateWindowScale: profile.timing.rateWindowScale } : undefined;
  const results: Omit<RunResults, 'summary'> = {
    runId,
    tool: { name: 'rampart', version: PACKAGE_VERSION },
    command: 'load',
    depth,
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    profile: profile
      ? {
          name: `${profile.name} [k6-operator logs]`,
          baseUrls: { gateSandbox: profile.gate.baseUrls.sandbox, poolsSandbox: profile.pools?.baseUrls.sandbox },
        }
      : { name: 'k6-operator logs', baseUrls: {} },
    environment: { node: process.version, platform: `${process.platform}-${process.arch}`, host: hostname(), specVersion: SPEC_VERSION },
    requirements: requirementResults(outcome.checks, { kinds: ['load'], depth }),
    checks: outcome.checks,
    observations: outcome.observations,
    metrics: { ...outcome.metrics, k6OperatorLogs: opts.merge },
  };
  const full: RunResults = { ...results, summary: summarize(results, timeScales) };
  const { dir } = await writeRun(full, { reportsDir: opts.reportsDir });
  const s = full.summary;
  const pods = runs.map(({ name, run }) => `${name}: ${run.segments.filter((x) => x.summary).length} of ${run.segments.length} pods' summaries`).join('; ');
  process.stdout.write(
    redact(
      [
        `merged ${pods}`,
        headlineOf(s),
        `requirements: ${s.passed} passed, ${s.failed} failed, ${s.partial} partial, ${s.skipped} skipped, ${s.unverified} unverified, ${s.notRun} not run, ${s.notCovered} not covered, ${s.outOfScope} out of scope at --depth ${depth}`,
        `checks: ${s.checks.passed} passed, ${s.checks.failed} failed, ${s.checks.skipped} skipped`,
        `report: ${dir}/report.html`,
      ].join('\n'),
    ) + '\n',
  );
  return exitCodeOf(full, { failIncomplete: opts.failIncomplete });
}
