// The one place a run is judged: each requirement's status from the checks
// that name it, the summary, the headline verdict and the exit code. Every
// output (results.json, junit.xml, report.html, the terminal, the exit code)
// reads what this computes.
import { EXIT } from '../exitCodes.js';
import { CATALOGUE, type Requirement } from '../model/catalogue/index.js';
import type { CheckResult, RequirementResult, RequirementStatus, RunResults, Summary, Verdict } from './results.js';

export interface ScopeOptions {
  /** Suite kinds this run ran: requirements of other kinds are not in its scope. */
  kinds: readonly ('conformance' | 'load' | 'chaos')[];
  service?: 'gate' | 'pools';
  depth: 'quick' | 'full';
  /** With --grep, only requirements a selected check names are in scope. */
  onlyNamed?: boolean;
}

const NOT_ASSERTED: readonly CheckResult['status'][] = ['skipped', 'unverified', 'not_run'];

/** A requirement's status from the checks naming it. */
export function requirementStatus(
  r: Pick<Requirement, 'depth'>,
  checks: readonly CheckResult[],
  depth: 'quick' | 'full',
): { status: RequirementStatus; reason?: string; missingParts?: string[] } {
  if (r.depth === 'full' && depth === 'quick') return { status: 'out_of_scope', reason: 'needs --depth full (a long real-time window)' };
  if (checks.length === 0) return { status: 'not_covered', reason: 'no check names this requirement' };
  if (checks.some((c) => c.status === 'failed')) return { status: 'failed' };
  const passed = checks.filter((c) => c.status === 'passed');
  const rest = checks.filter((c) => NOT_ASSERTED.includes(c.status));
  if (rest.length === 0) return { status: 'passed' };
  const parts = rest.map((c) => `${c.name}: ${c.status.replace('_', ' ')}${c.reason ? ` — ${c.reason}` : ''}`);
  if (passed.length > 0) return { status: 'partial', reason: `${rest.length} of ${checks.length} checks did not run to the end`, missingParts: parts };
  const first = (s: CheckResult['status']) => rest.find((c) => c.status === s);
  const chosen = first('unverified') ?? first('not_run') ?? rest[0]!;
  return {
    status: chosen.status === 'unverified' ? 'unverified' : chosen.status === 'not_run' ? 'not_run' : 'skipped',
    reason: chosen.reason,
    missingParts: parts.length > 1 ? parts : undefined,
  };
}

/** Requirement results from the catalogue: every entry in scope, covered or not. */
export function requirementResults(checks: readonly CheckResult[], scope: ScopeOptions): RequirementResult[] {
  const byReq = new Map<string, CheckResult[]>();
  for (const c of checks) for (const id of c.requirements) byReq.set(id, [...(byReq.get(id) ?? []), c]);
  const out: RequirementResult[] = [];
  for (const r of CATALOGUE) {
    if (!scope.kinds.includes(r.suite)) continue;
    if (scope.service && r.service !== scope.service) continue;
    const cs = byReq.get(r.id) ?? [];
    if (scope.onlyNamed && cs.length === 0) continue;
    const { status, reason, missingParts } = requirementStatus(r, cs, scope.depth);
    out.push({
      id: r.id,
      service: r.service,
      title: r.title,
      section: r.section,
      status,
      ...(reason ? { reason } : {}),
      ...(missingParts ? { missingParts } : {}),
      checks: cs.map((c) => ({ name: c.name, status: c.status, durationMs: c.durationMs, failure: c.failure, reason: c.reason })),
    });
  }
  return out;
}

function count<T extends string>(xs: readonly { status: string }[], s: T): number {
  return xs.filter((x) => x.status === s).length;
}

/** The headline and its one-line explanation. */
export function verdictOf(results: Pick<RunResults, 'requirements' | 'error' | 'interrupted'>): {
  verdict: Verdict;
  line: string;
  reasons: Summary['incompleteReasons'];
} {
  const reqs = results.requirements;
  const failed = count(reqs, 'failed');
  const inScope = reqs.filter((r) => r.status !== 'out_of_scope');
  const notAsserted = inScope.filter((r) => r.status !== 'passed' && r.status !== 'failed');
  const groups = new Map<string, number>();
  for (const r of notAsserted) {
    const reason = r.status === 'partial' ? `partial: ${firstReason(r)}` : `${r.status.replace('_', ' ')}: ${r.reason ?? 'no reason given'}`;
    groups.set(reason, (groups.get(reason) ?? 0) + 1);
  }
  const reasons = [...groups].map(([reason, requirements]) => ({ reason, requirements })).sort((a, b) => b.requirements - a.requirements);
  if (results.interrupted)
    return {
      verdict: 'INTERRUPTED',
      line: `interrupted by ${results.interrupted.signal}: ${failed} failed, ${notAsserted.length} requirements not asserted`,
      reasons,
    };
  if (failed > 0) return { verdict: 'NOT CERTIFIED', line: `${failed} requirement${failed === 1 ? '' : 's'} failed`, reasons };
  if (results.error) return { verdict: 'INCOMPLETE', line: `the run stopped: ${results.error.message}`, reasons };
  if (inScope.length === 0) return { verdict: 'INCOMPLETE', line: 'no requirement was in scope', reasons };
  if (notAsserted.length > 0) {
    const top = reasons
      .slice(0, 3)
      .map((g) => `${g.requirements} ${g.reason}`)
      .join('; ');
    return {
      verdict: 'INCOMPLETE',
      line: `${notAsserted.length} of ${inScope.length} requirements in scope were not asserted (${top}${reasons.length > 3 ? '; …' : ''})`,
      reasons,
    };
  }
  return { verdict: 'CERTIFIED', line: `all ${inScope.length} requirements in scope passed`, reasons };
}

function firstReason(r: RequirementResult): string {
  const c = r.checks.find((x) => x.status !== 'passed');
  return c ? `${c.status.replace('_', ' ')}${c.reason ? ` — ${c.reason}` : ''}` : (r.reason ?? '');
}

export function summarize(results: Omit<RunResults, 'summary'>, timeScales?: { retryScale: number; rateWindowScale: number }): Summary {
  const reqs = results.requirements;
  const checks = results.checks;
  const { verdict, line, reasons } = verdictOf(results);
  const requests = checks.reduce((a, c) => ({ gate: a.gate + (c.requests?.gate ?? 0), pools: a.pools + (c.requests?.pools ?? 0) }), { gate: 0, pools: 0 });
  const asserted = count(reqs, 'passed') + count(reqs, 'failed');
  const total = requests.gate + requests.pools;
  return {
    verdict,
    verdictLine: line,
    passed: count(reqs, 'passed'),
    failed: count(reqs, 'failed'),
    partial: count(reqs, 'partial'),
    skipped: count(reqs, 'skipped'),
    unverified: count(reqs, 'unverified'),
    notRun: count(reqs, 'not_run'),
    notCovered: count(reqs, 'not_covered'),
    outOfScope: count(reqs, 'out_of_scope'),
    checks: {
      passed: count(checks, 'passed'),
      failed: count(checks, 'failed'),
      skipped: count(checks, 'skipped'),
      unverified: count(checks, 'unverified'),
      notRun: count(checks, 'not_run'),
    },
    incompleteReasons: reasons,
    ...(total > 0 ? { requests, requestsPerRequirement: Math.round((total / Math.max(1, asserted)) * 100) / 100 } : {}),
    ...(timeScales && (timeScales.retryScale !== 1 || timeScales.rateWindowScale !== 1) ? { timeScales } : {}),
  };
}

/** "time-scaled: retry schedule ×0.001, rate windows ×0.1" — printed on every verdict whose target compresses time. */
export function timeScaleNote(s: Summary): string | undefined {
  const t = s.timeScales;
  if (!t) return undefined;
  const parts = [t.retryScale !== 1 ? `retry schedule ×${t.retryScale}` : '', t.rateWindowScale !== 1 ? `rate windows ×${t.rateWindowScale}` : ''].filter(
    Boolean,
  );
  return parts.length ? `time-scaled: ${parts.join(', ')}` : undefined;
}

/** The exit code a run ends with. */
export function exitCodeOf(results: Pick<RunResults, 'summary' | 'error' | 'interrupted'>, opts: { failIncomplete?: boolean } = {}): number {
  if (results.interrupted) return results.interrupted.signal === 'SIGTERM' ? EXIT.terminated : EXIT.interrupted;
  if (results.error) return results.error.exitCode;
  if (results.summary.verdict === 'NOT CERTIFIED') return EXIT.checkFailed;
  if (results.summary.verdict === 'INCOMPLETE' && opts.failIncomplete) return EXIT.incomplete;
  return EXIT.ok;
}
