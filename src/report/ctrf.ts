// ctrf.json: the run in the Common Test Report Format (CTRF 0.0.0 as the `ctrf` reference package validates it), one
// test per check like junit.xml, with what the run store knows filled in: per test its `insights` over the last runs
// of this target and scope (pass, fail and flaky rates, durations, runs executed in), `flaky` where its rule is
// intermittent (rampart retries nothing: a test is flaky when its status flips between runs, never within one), the
// report's `insights` and the `baseline` they are compared with (the --baseline run, else the run before this one).
import { createHash } from 'node:crypto';
import type { FailureInfo, RowHistory } from '../history/analysis.js';
import { describeFailure, failureOf, nightClasses, type Night } from '../history/night.js';
import { checkKeyOf } from '../history/record.js';
import type { CheckResult, RunResults } from './results.js';
import { serviceOfCheck } from './junit.js';

/** A stable UUID for a run's report: its baseline names it by the same id in a later run. */
export function reportIdOf(runId: string): string {
  const h = createHash('sha256').update(`rampart-ctrf:${runId}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-${((parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

const STATUS: Record<CheckResult['status'], 'passed' | 'failed' | 'skipped' | 'other'> = {
  passed: 'passed',
  failed: 'failed',
  skipped: 'skipped',
  unverified: 'other',
  not_run: 'other',
};

const round = (n: number, d = 4) => Number(n.toFixed(d));
const delta = (current: number, baseline: number | undefined) =>
  baseline === undefined ? { current } : { current, baseline, change: round(current - baseline) };

function p95(xs: number[]): number {
  if (!xs.length) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(0.95 * s.length) - 1)]!;
}

/** A test's figures over the runs up to `upTo` (inclusive). */
function testFigures(row: RowHistory, durations: (number | null)[], upTo: number) {
  const st = row.statuses.slice(0, upTo + 1);
  const passed = st.filter((s) => s === 'passed').length;
  const failed = st.filter((s) => s === 'failed').length;
  const judged = st.filter((s) => s === 'passed' || s === 'failed');
  let flips = 0;
  for (let i = 1; i < judged.length; i++) if (judged[i] !== judged[i - 1]) flips++;
  const ds = durations.slice(0, upTo + 1).filter((d): d is number => d !== null);
  return {
    passRate: passed + failed ? round(passed / (passed + failed)) : 0,
    failRate: passed + failed ? round(failed / (passed + failed)) : 0,
    flakyRate: judged.length > 1 ? round(flips / (judged.length - 1)) : 0,
    averageTestDuration: ds.length ? round(ds.reduce((a, b) => a + b, 0) / ds.length, 2) : 0,
    p95TestDuration: round(p95(ds), 2),
    executedInRuns: st.filter((s) => s !== null).length,
  };
}

/** The run the insights are compared with: the --baseline run when it is of this group, else the run before this one. */
function baselineIndex(night: Night): number | undefined {
  const runs = night.group.runs;
  const named = night.baseline ? runs.findIndex((r) => r.runId === night.baseline!.runId) : -1;
  if (named >= 0 && named < night.at) return named;
  return night.at > 0 ? night.at - 1 : undefined;
}

function testInsights(night: Night, key: string) {
  const row = night.group.checks.find((r) => r.key === key);
  if (!row) return undefined;
  const durations = night.group.checkDurations.get(key) ?? [];
  const now = testFigures(row, durations, night.at);
  const b = baselineIndex(night);
  const then = b === undefined ? undefined : testFigures(row, durations, b);
  return {
    passRate: delta(now.passRate, then?.passRate),
    failRate: delta(now.failRate, then?.failRate),
    flakyRate: delta(now.flakyRate, then?.flakyRate),
    averageTestDuration: delta(now.averageTestDuration, then?.averageTestDuration),
    p95TestDuration: delta(now.p95TestDuration, then?.p95TestDuration),
    executedInRuns: now.executedInRuns,
  };
}

/** The report's figures over the runs up to `upTo`. */
function runFigures(night: Night, upTo: number) {
  const rows = night.group.checks;
  const all = rows.flatMap((r) => r.statuses.slice(0, upTo + 1));
  const passed = all.filter((s) => s === 'passed').length;
  const failed = all.filter((s) => s === 'failed').length;
  const flaky = rows.filter((r) => testFigures(r, [], upTo).flakyRate > 0).length;
  const durations = night.group.runs.slice(0, upTo + 1).map((r) => Math.max(0, Date.parse(r.finishedAt) - Date.parse(r.startedAt)) || 0);
  const tests = [...night.group.checkDurations.values()].flatMap((d) => d.slice(0, upTo + 1)).filter((d): d is number => d !== null);
  return {
    passRate: passed + failed ? round(passed / (passed + failed)) : 0,
    failRate: passed + failed ? round(failed / (passed + failed)) : 0,
    flakyRate: rows.length ? round(flaky / rows.length) : 0,
    averageRunDuration: durations.length ? round(durations.reduce((a, b) => a + b, 0) / durations.length, 2) : 0,
    p95RunDuration: round(p95(durations), 2),
    averageTestDuration: tests.length ? round(tests.reduce((a, b) => a + b, 0) / tests.length, 2) : 0,
  };
}

function reportInsights(night: Night) {
  const now = runFigures(night, night.at);
  const b = baselineIndex(night);
  const then = b === undefined ? undefined : runFigures(night, b);
  const keys = ['passRate', 'failRate', 'flakyRate', 'averageRunDuration', 'p95RunDuration', 'averageTestDuration'] as const;
  return { ...Object.fromEntries(keys.map((k) => [k, delta(now[k], then?.[k])])), runsAnalyzed: night.at + 1 };
}

function isFlaky(night: Night | undefined, c: CheckResult): boolean {
  if (!night) return false;
  const rows = c.requirements.length
    ? night.group.requirements.filter((r) => c.requirements.includes(r.key))
    : night.group.checks.filter((r) => r.key === checkKeyOf(c));
  return rows.some((r) => r.intermittent);
}

function testOf(c: CheckResult, start: number, night: Night | undefined) {
  const f = c.failure;
  const standing: FailureInfo | undefined = failureOf(night, c);
  const message = [
    f?.message,
    f?.expected !== undefined ? `expected ${f.expected}` : '',
    f?.actual !== undefined ? `actual ${f.actual}` : '',
    f?.requestId ? `request id ${f.requestId}` : '',
  ]
    .filter(Boolean)
    .join(' · ');
  const insights = night ? testInsights(night, checkKeyOf(c)) : undefined;
  return {
    testId: checkKeyOf(c),
    name: c.requirements.length ? `${c.name} [${c.requirements.join(', ')}]` : c.name,
    status: STATUS[c.status],
    rawStatus: c.status,
    duration: Math.max(0, Math.round(c.durationMs || 0)),
    start,
    suite: [c.suite, serviceOfCheck(c)],
    ...(c.file ? { filePath: c.file } : {}),
    ...(c.status === 'failed' ? { message: message || 'failed' } : c.reason ? { message: c.reason } : {}),
    ...(c.requirements.length ? { tags: [...c.requirements] } : {}),
    labels: {
      ...(c.requirements.length ? { requirements: [...c.requirements] } : {}),
      ...(f?.kind ? { failureKind: f.kind } : {}),
      ...(standing ? { history: standing.class } : {}),
    },
    type: c.suite,
    retries: 0,
    flaky: isFlaky(night, c),
    ...(insights ? { insights } : {}),
    ...(standing && night ? { extra: { history: describeFailure(standing, night.group.runs) } } : {}),
  };
}

export function toCtrf(results: RunResults, night?: Night) {
  const start = Date.parse(results.startedAt) || 0;
  const stop = Math.max(start, Date.parse(results.finishedAt) || start);
  const tests = results.checks.map((c) => testOf(c, start, night));
  const n = (s: string) => tests.filter((t) => t.status === s).length;
  const b = night ? baselineIndex(night) : undefined;
  const baselineRun = night && b !== undefined ? night.group.runs[b] : undefined;
  const classes = night ? nightClasses(night) : undefined;
  return {
    reportFormat: 'CTRF' as const,
    specVersion: '0.0.0',
    reportId: reportIdOf(results.runId),
    runId: results.runId,
    timestamp: results.finishedAt,
    generatedBy: `rampart ${results.tool.version}`,
    results: {
      tool: { name: 'rampart', version: results.tool.version },
      summary: {
        tests: tests.length,
        passed: n('passed'),
        failed: n('failed'),
        skipped: n('skipped'),
        pending: 0,
        other: n('other'),
        flaky: tests.filter((t) => t.flaky).length,
        suites: new Set(tests.map((t) => t.suite.join('.'))).size,
        start,
        stop,
        duration: stop - start,
        extra: { verdict: results.summary.verdict, verdictLine: results.summary.verdictLine, requirements: requirementCounts(results) },
      },
      tests,
      environment: {
        reportName: `rampart ${results.command} ${results.runId}`,
        appName: results.profile.name,
        osPlatform: results.environment.platform,
        testEnvironment: results.depth === 'full' ? 'depth full' : 'depth quick',
        healthy: results.summary.verdict === 'CERTIFIED' || results.summary.verdict === 'PASSED',
      },
    },
    ...(night ? { insights: reportInsights(night) } : {}),
    ...(baselineRun && night
      ? {
          baseline: {
            reportId: reportIdOf(baselineRun.runId),
            timestamp: baselineRun.finishedAt,
            source: night.store,
            extra: { runId: baselineRun.runId, verdict: baselineRun.verdict, named: night.baseline?.runId === baselineRun.runId },
          },
        }
      : {}),
    extra: {
      specVersion: results.environment.specVersion,
      ...(night && classes
        ? {
            history: {
              store: night.store,
              target: night.target,
              scope: night.scope,
              runs: night.at + 1,
              newFailures: classes.new,
              intermittent: classes.intermittent,
              stillFailing: classes['still failing'],
            },
          }
        : {}),
    },
  };
}

function requirementCounts(results: RunResults) {
  const s = results.summary;
  return { passed: s.passed, failed: s.failed, partial: s.partial, skipped: s.skipped, unverified: s.unverified, notRun: s.notRun, notCovered: s.notCovered };
}
