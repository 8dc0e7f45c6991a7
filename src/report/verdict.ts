// The one place a run is judged: each requirement's status from the checks
// that name it, the summary, the headline verdict and the exit code. Every
// output (results.json, junit.xml, report.html, the terminal, the exit code,
// the certificate) reads what this computes. A failed check of any kind — a
// requirement's, a performance gate, a crashed k6 run — is NOT CERTIFIED; only
// a whole run (rampart certify, nothing narrowed) can be CERTIFIED.
import { EXIT } from '../exitCodes.js';
import { CATALOGUE, type Requirement } from '../model/catalogue/index.js';
import type { CheckResult, GatesOfRun, RequirementResult, RequirementStatus, RunResults, RunScope, Summary, Verdict } from './results.js';

type KindName = RunScope['kinds'][number];
const ALL_KINDS: readonly KindName[] = ['conformance', 'chaos', 'load', 'races'];
/** The kinds a whole run holds (certify races at every depth): at --depth full explore too (certify --depth full explores), so a full run without it is partial. */
const wholeKinds = (depth: 'quick' | 'full'): readonly KindName[] => (depth === 'full' ? [...ALL_KINDS, 'explore'] : ALL_KINDS);

/** A check a suite kind declares, whether or not this run selected it. */
export interface DeclaredCheck {
  name: string;
  file?: string;
  requirements: readonly string[];
}

export interface ScopeOptions {
  /** Suite kinds this run ran: requirements of other kinds are not in its scope. */
  kinds: readonly KindName[];
  service?: 'gate' | 'pools';
  depth: 'quick' | 'full';
  /** With --grep (or --scenario, --case), only requirements a selected check names are in scope. */
  onlyNamed?: boolean;
  /**
   * Every check the kinds declare, before any filter: a requirement with a declared check that has no result
   * (not selected, or the run stopped before it) is never passed.
   */
  declared?: readonly DeclaredCheck[];
  /** Why a declared check has no result ("not selected by this run (grep \"x\")"). */
  unrunWhy?: string;
}

/**
 * The scope of a run from its kinds and filters: whole only for every kind with nothing narrowed. The gates a run
 * with load used go with it (looser than the defaults, they keep a whole run from being CERTIFIED: verdictOf).
 */
export function runScope(
  kinds: readonly KindName[],
  opts: { depth: 'quick' | 'full'; service?: 'gate' | 'pools'; grep?: string; scenarios?: string[]; cases?: string[]; gates?: GatesOfRun },
): RunScope {
  const parts: string[] = [];
  if (!wholeKinds(opts.depth).every((k) => kinds.includes(k))) parts.push(kinds.length ? `${kinds.join(' and ')} only` : 'no suite kind');
  if (opts.service) parts.push(`service ${opts.service}`);
  if (opts.grep) parts.push(`grep ${JSON.stringify(opts.grep)}`);
  if (opts.scenarios?.length) parts.push(`scenario ${opts.scenarios.join(', ')}`);
  if (opts.cases?.length) parts.push(`case ${opts.cases.join(', ')}`);
  return {
    kinds: [...kinds],
    depth: opts.depth,
    ...(opts.service ? { service: opts.service } : {}),
    ...(opts.grep ? { grep: opts.grep } : {}),
    ...(opts.scenarios?.length ? { scenarios: [...opts.scenarios] } : {}),
    ...(opts.cases?.length ? { cases: [...opts.cases] } : {}),
    whole: parts.length === 0,
    ...(parts.length ? { partial: parts.join(', ') } : {}),
    ...(opts.gates ? { gates: opts.gates } : {}),
  };
}

/** The gates a run with load used, in one line for the report and JUnit: the file, its hash, looser or not. */
export function gatesFact(scope: Pick<RunScope, 'gates'>): string {
  const g = scope.gates;
  if (!g) return '';
  const custom = customGatesNote(scope);
  return `${g.file} (sha256 ${g.sha256.slice(0, 12)}…): ${custom ? `${custom} — never CERTIFIED, never signed` : "rampart's defaults or stricter"}`;
}

/** "custom gates (looser than rampart's defaults: p95Ms.read60 700 ms > 300 ms; …)", or undefined for the defaults or stricter. */
export function customGatesNote(scope: Pick<RunScope, 'gates'>): string | undefined {
  const looser = scope.gates?.looser ?? [];
  if (!looser.length) return undefined;
  return `custom gates (looser than rampart's defaults: ${looser.slice(0, 3).join('; ')}${looser.length > 3 ? `; and ${looser.length - 3} more` : ''})`;
}

const KINDS_OF_COMMAND: Record<string, readonly KindName[]> = {
  conformance: ['conformance'],
  chaos: ['chaos'],
  load: ['load'],
  certify: ALL_KINDS,
};

/** The run's scope: as recorded, or (results written before it was) what its command runs. */
export function scopeOf(results: Pick<RunResults, 'scope' | 'command' | 'depth'>): RunScope {
  const kinds = results.command === 'certify' ? wholeKinds(results.depth) : (KINDS_OF_COMMAND[results.command] ?? []);
  return results.scope ?? runScope(kinds, { depth: results.depth });
}

const NOT_ASSERTED: readonly CheckResult['status'][] = ['skipped', 'unverified', 'not_run'];

/**
 * A requirement's status from the checks naming it. `unrun` names declared checks of the requirement that have no
 * result in this run (not selected by --grep or --case, or never reached): the requirement is then never passed.
 */
export function requirementStatus(
  r: Pick<Requirement, 'depth'>,
  checks: readonly CheckResult[],
  depth: 'quick' | 'full',
  unrun: readonly string[] = [],
  unrunWhy = 'not run by this run',
): { status: RequirementStatus; reason?: string; missingParts?: string[] } {
  if (r.depth === 'full' && depth === 'quick') return { status: 'out_of_scope', reason: 'needs --depth full (a long real-time window)' };
  if (checks.length === 0 && unrun.length === 0) return { status: 'not_covered', reason: 'no check names this requirement' };
  if (checks.some((c) => c.status === 'failed')) return { status: 'failed' };
  const passed = checks.filter((c) => c.status === 'passed');
  const rest = checks.filter((c) => NOT_ASSERTED.includes(c.status));
  if (rest.length === 0 && unrun.length === 0) return { status: 'passed' };
  const parts = [
    ...rest.map((c) => `${c.name}: ${c.status.replace('_', ' ')}${c.reason ? ` — ${c.reason}` : ''}`),
    ...unrun.map((name) => `${name} — ${unrunWhy}`),
  ];
  const total = checks.length + unrun.length;
  if (passed.length > 0)
    return {
      status: 'partial',
      reason: rest.length ? `${rest.length + unrun.length} of ${total} checks did not run to the end` : `${unrun.length} of ${total} checks ${unrunWhy}`,
      missingParts: parts,
    };
  if (rest.length === 0)
    return {
      status: 'not_run',
      reason: `${unrun.length === 1 ? 'its check' : `its ${unrun.length} checks`} ${unrunWhy}`,
      missingParts: parts.length > 1 ? parts : undefined,
    };
  const first = (s: CheckResult['status']) => rest.find((c) => c.status === s);
  const chosen = first('unverified') ?? first('not_run') ?? rest[0]!;
  return {
    status: chosen.status === 'unverified' ? 'unverified' : chosen.status === 'not_run' ? 'not_run' : 'skipped',
    reason: chosen.reason,
    missingParts: parts.length > 1 ? parts : undefined,
  };
}

const checkKeyOf = (c: { file?: string; name: string }) => `${c.file ?? ''}::${c.name}`;

/** Requirement results from the catalogue: every entry in scope, covered or not. */
export function requirementResults(checks: readonly CheckResult[], scope: ScopeOptions): RequirementResult[] {
  const byReq = new Map<string, CheckResult[]>();
  for (const c of checks) for (const id of c.requirements) byReq.set(id, [...(byReq.get(id) ?? []), c]);
  // Declared checks without a result, per requirement.
  const ran = new Set(checks.map(checkKeyOf));
  const unrunByReq = new Map<string, string[]>();
  for (const d of scope.declared ?? []) {
    if (ran.has(checkKeyOf(d))) continue;
    for (const id of d.requirements) unrunByReq.set(id, [...(unrunByReq.get(id) ?? []), d.name]);
  }
  // What explore's comparisons judged, and what races' bursts judged, is in the scope of a run of that kind, whichever kind's catalogue entry it is.
  const judgedBy = (kind: 'explore' | 'races') => (scope.kinds.includes(kind) ? checks.filter((c) => c.suite === kind).flatMap((c) => c.requirements) : []);
  const explored = new Set([...judgedBy('explore'), ...judgedBy('races')]);
  const out: RequirementResult[] = [];
  for (const r of CATALOGUE) {
    if (!scope.kinds.includes(r.suite) && !explored.has(r.id)) continue;
    if (scope.service && r.service !== scope.service) continue;
    const cs = byReq.get(r.id) ?? [];
    if (scope.onlyNamed && cs.length === 0) continue;
    const { status, reason, missingParts } = requirementStatus(r, cs, scope.depth, unrunByReq.get(r.id), scope.unrunWhy);
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
export function verdictOf(results: Pick<RunResults, 'requirements' | 'checks' | 'error' | 'interrupted' | 'scope' | 'command' | 'depth' | 'exploration'>): {
  verdict: Verdict;
  line: string;
  reasons: Summary['incompleteReasons'];
  failedWithoutRequirement: string[];
} {
  const reqs = results.requirements;
  const scope = scopeOf(results);
  const failed = count(reqs, 'failed');
  // A failed check counts whatever it names: a performance gate or a crashed k6 run names no requirement at all.
  const failedIds = new Set(reqs.filter((r) => r.status === 'failed').map((r) => r.id));
  const failedOtherChecks = results.checks.filter((c) => c.status === 'failed' && !c.requirements.some((id) => failedIds.has(id)));
  const failedOther = failedOtherChecks.map((c) => c.name);
  const inScope = reqs.filter((r) => r.status !== 'out_of_scope');
  const notAsserted = inScope.filter((r) => r.status !== 'passed' && r.status !== 'failed');
  const groups = new Map<string, number>();
  for (const r of notAsserted) {
    const reason = r.status === 'partial' ? `partial: ${firstReason(r)}` : `${r.status.replace('_', ' ')}: ${r.reason ?? 'no reason given'}`;
    groups.set(reason, (groups.get(reason) ?? 0) + 1);
  }
  const reasons = [...groups].map(([reason, requirements]) => ({ reason, requirements })).sort((a, b) => b.requirements - a.requirements);
  const judged = { reasons, failedWithoutRequirement: failedOther };
  const listed = (cs: CheckResult[]) =>
    `${cs
      .slice(0, 2)
      .map((c) => c.name)
      .join('; ')}${cs.length > 2 ? '; …' : ''}`;
  // A finding is said as explore's whether or not its requirement is in the run's scope.
  const explored = results.checks.filter((c) => c.status === 'failed' && c.suite === 'explore');
  const gateFailures = failedOtherChecks.filter((c) => c.requirements.length === 0 && c.suite !== 'explore');
  const otherFailures = failedOtherChecks.filter((c) => c.requirements.length > 0 && c.suite !== 'explore');
  // A race finding is said by the rule its burst breaks (the check's failure names it).
  const raced = results.checks.filter((c) => c.status === 'failed' && c.suite === 'races');
  const failures = [
    ...(failed ? [`${failed} requirement${failed === 1 ? '' : 's'} failed`] : []),
    ...raced.slice(0, 1).map((c) => `races: a burst breaks ${c.failure?.requirement ?? c.requirements.join(', ')} (${c.name})`),
    ...explored
      .slice(0, 1)
      .map((c) =>
        c.requirements.length
          ? `explore: a sequence breaks ${c.requirements.join(', ')} (${c.failure?.message ?? c.name})`
          : `explore: a sequence parts where no requirement names it (${c.failure?.message ?? c.name})`,
      ),
    ...(gateFailures.length ? [`${gateFailures.length} performance gate check${gateFailures.length === 1 ? '' : 's'} failed (${listed(gateFailures)})`] : []),
    ...(otherFailures.length ? [`${otherFailures.length} other check${otherFailures.length === 1 ? '' : 's'} failed (${listed(otherFailures)})`] : []),
  ];
  if (results.interrupted)
    return {
      verdict: 'INTERRUPTED',
      line: `interrupted by ${results.interrupted.signal}: ${failed} failed${failedOther.length ? ` (and ${failedOther.length} other checks)` : ''}, ${notAsserted.length} requirements not asserted`,
      ...judged,
    };
  // A failed check is NOT CERTIFIED whatever else happened; a run error (an outage, a rate-limit stop) is said beside it.
  const stopped = results.error ? `; the run stopped: ${results.error.message}` : '';
  if (failures.length) return { verdict: 'NOT CERTIFIED', line: failures.join('; ') + stopped, ...judged };
  if (results.error) return { verdict: 'INCOMPLETE', line: `the run stopped: ${results.error.message}`, ...judged };
  // A performance gate check that judged nothing (too few samples for any percentile) names no requirement, yet the
  // run did not judge what it was for: never CERTIFIED or PASSED on it.
  // An explore check naming no requirement that did not pass (it judged nothing, stopped, a family that applied no
  // step at --depth full, an intermittent divergence no requirement names): the run did not judge what it was for.
  const exploreUnjudged = results.checks.find((c) => c.suite === 'explore' && c.status !== 'passed' && c.status !== 'failed' && !c.requirements.length);
  if (exploreUnjudged)
    return {
      verdict: 'INCOMPLETE',
      line: `explore${exploreUnjudged.status === 'unverified' ? ' judged nothing' : ''}: ${exploreUnjudged.reason ?? 'no reason given'}`,
      ...judged,
    };
  const gatesUnjudged = results.checks.filter((c) => c.status === 'unverified' && c.requirements.length === 0 && c.suite !== 'explore');
  if (gatesUnjudged.length)
    return {
      verdict: 'INCOMPLETE',
      line: `${gatesUnjudged.length} performance gate check${gatesUnjudged.length === 1 ? '' : 's'} judged nothing (${gatesUnjudged[0]!.name}: ${gatesUnjudged[0]!.reason ?? 'no reason given'})`,
      ...judged,
    };
  const gatesPassed = results.checks.filter((c) => c.status === 'passed' && c.requirements.length === 0 && c.suite !== 'explore').length;
  const explorePassed = results.checks.some((c) => c.status === 'passed' && c.suite === 'explore');
  const e = results.exploration;
  const gates = `${gatesPassed ? `; ${gatesPassed} performance gate check${gatesPassed === 1 ? '' : 's'} passed` : ''}${
    explorePassed && e
      ? `; explore: no divergence in ${e.sequences} sequences (${e.steps} steps${e.judged ? `, ${e.judged.length} requirements judged` : ''}, seed ${e.seed})`
      : ''
  }`;
  if (inScope.length === 0) {
    // A partial run of performance gates alone (rampart load --scenario smoke), or of explore, has no requirement to pass.
    if (!scope.whole && (gatesPassed || explorePassed)) {
      const custom = customGatesNote(scope);
      return { verdict: 'PASSED', line: `partial run (${scope.partial})${custom ? `; ${custom}` : ''}: no requirement in scope${gates}`, ...judged };
    }
    return { verdict: 'INCOMPLETE', line: 'no requirement was in scope', ...judged };
  }
  if (notAsserted.length > 0) {
    const top = reasons
      .slice(0, 3)
      .map((g) => `${g.requirements} ${g.reason}`)
      .join('; ');
    return {
      verdict: 'INCOMPLETE',
      line: `${notAsserted.length} of ${inScope.length} requirements in scope were not asserted (${top}${reasons.length > 3 ? '; …' : ''})`,
      ...judged,
    };
  }
  // Gates looser than the defaults judged less than a certification asks: passed, never CERTIFIED.
  const custom = customGatesNote(scope);
  const narrowed = [...(scope.whole ? [] : [`partial run (${scope.partial})`]), ...(custom ? [custom] : [])].join('; ');
  if (narrowed) return { verdict: 'PASSED', line: `${narrowed}: all ${inScope.length} requirements in scope passed${gates}`, ...judged };
  return { verdict: 'CERTIFIED', line: `all ${inScope.length} requirements in scope passed${gates}`, ...judged };
}

function firstReason(r: RequirementResult): string {
  const c = r.checks.find((x) => x.status !== 'passed');
  return c ? `${c.status.replace('_', ' ')}${c.reason ? ` — ${c.reason}` : ''}` : (r.reason ?? '');
}

export function summarize(results: Omit<RunResults, 'summary'>, timeScales?: { retryScale: number; rateWindowScale: number }): Summary {
  const reqs = results.requirements;
  const checks = results.checks;
  const { verdict, line, reasons, failedWithoutRequirement } = verdictOf(results);
  const requests = checks.reduce((a, c) => ({ gate: a.gate + (c.requests?.gate ?? 0), pools: a.pools + (c.requests?.pools ?? 0) }), { gate: 0, pools: 0 });
  const asserted = count(reqs, 'passed') + count(reqs, 'failed');
  const total = requests.gate + requests.pools;
  return {
    verdict,
    verdictLine: line,
    ...(failedWithoutRequirement.length ? { failedWithoutRequirement } : {}),
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

/** The verdict as the terminal prints it: "PASSED — custom gates (…): all 312 requirements in scope passed". */
export function headlineOf(s: Summary): string {
  const scale = timeScaleNote(s);
  return `${s.verdict}${scale ? ` (${scale})` : ''} — ${s.verdictLine}`;
}

/**
 * The exit code a run ends with. NOT CERTIFIED is 1 whatever else happened: a run error beside a failed check (an
 * outage, a rate-limit stop after the failure) is reported with the verdict, but the failure is what the exit says.
 */
export function exitCodeOf(results: Pick<RunResults, 'summary' | 'error' | 'interrupted'>, opts: { failIncomplete?: boolean } = {}): number {
  if (results.interrupted) return results.interrupted.signal === 'SIGTERM' ? EXIT.terminated : EXIT.interrupted;
  if (results.summary.verdict === 'NOT CERTIFIED') return EXIT.checkFailed;
  if (results.error) return results.error.exitCode;
  if (results.summary.verdict === 'INCOMPLETE' && opts.failIncomplete) return EXIT.incomplete;
  return EXIT.ok;
}
