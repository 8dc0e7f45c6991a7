// The one judge of a run: a requirement passes only when every check naming it
// ran and passed; the headline is exactly CERTIFIED, PASSED (a partial run),
// NOT CERTIFIED, INCOMPLETE or INTERRUPTED; any failed check — a performance
// gate, a crashed k6 run — is NOT CERTIFIED; the exit code follows it.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXIT } from '../src/exitCodes.js';
import type { ScenarioRun } from '../src/load/scenarioRun.js';
import { percentileMinSamples, scenarioChecks } from '../src/load/verdict.js';
import { CATALOGUE } from '../src/model/catalogue/index.js';
import { buildCertificate } from '../src/report/certificate.js';
import { toHtml } from '../src/report/html.js';
import { toJunit } from '../src/report/junit.js';
import type { CheckResult, RunResults, RunScope } from '../src/report/results.js';
import { exitCodeOf, requirementResults, requirementStatus, runScope, scopeOf, summarize, verdictOf, type DeclaredCheck } from '../src/report/verdict.js';

const c = (status: CheckResult['status'], name: string = status, reason?: string): CheckResult => ({
  name,
  suite: 'conformance',
  requirements: ['GATE-SESS-CANCEL-TERMINAL-409'],
  status,
  durationMs: 1,
  ...(reason ? { reason } : {}),
});
const quick = { depth: 'quick' as const };

describe('requirement status', () => {
  it('passed only when every check naming it ran and passed', () => {
    expect(requirementStatus(quick, [c('passed'), c('passed', 'b')], 'quick').status).toBe('passed');
  });
  it('partial when a sibling check was skipped, naming the missing part and its reason', () => {
    const r = requirementStatus(quick, [c('passed', 'completed half'), c('skipped', 'expired half', 'needs gateExpireSession: missing')], 'quick');
    expect(r.status).toBe('partial');
    expect(r.missingParts?.[0]).toMatch(/expired half: skipped — needs gateExpireSession/);
  });
  it('failed beats everything', () => {
    expect(requirementStatus(quick, [c('passed'), c('skipped'), c('failed')], 'quick').status).toBe('failed');
  });
  it('unverified when nothing passed and a check could not reach the behaviour', () => {
    expect(requirementStatus(quick, [c('unverified', 'x', 'no 5xx could be provoked'), c('skipped')], 'quick')).toMatchObject({
      status: 'unverified',
      reason: 'no 5xx could be provoked',
    });
  });
  it('not covered without a check; out of scope at quick for a full-depth rule', () => {
    expect(requirementStatus(quick, [], 'quick').status).toBe('not_covered');
    expect(requirementStatus({ depth: 'full' }, [c('skipped')], 'quick').status).toBe('out_of_scope');
    expect(requirementStatus({ depth: 'full' }, [c('passed')], 'full').status).toBe('passed');
  });
});

function run(statuses: RunResults['requirements'][number]['status'][], extra: Partial<RunResults> = {}): RunResults {
  const requirements = statuses.map((status, i) => ({
    id: `R${i}`,
    service: 'gate' as const,
    title: 't',
    section: 's',
    status,
    reason: status === 'passed' ? undefined : `because ${status}`,
    checks: [],
  }));
  const base = {
    runId: 'x',
    tool: { name: 'rampart' as const, version: '0' },
    command: 'certify',
    depth: 'quick' as const,
    startedAt: '',
    finishedAt: '',
    profile: { name: 'p', baseUrls: {} },
    environment: { node: '', platform: '', host: '', specVersion: '' },
    requirements,
    checks: [],
    observations: [],
    ...extra,
  };
  return { ...base, summary: summarize(base) };
}

describe('verdict and exit code', () => {
  it('CERTIFIED only when every requirement in scope passed (out of scope at this depth does not count)', () => {
    const r = run(['passed', 'passed', 'out_of_scope']);
    expect(r.summary.verdict).toBe('CERTIFIED');
    expect(exitCodeOf(r)).toBe(EXIT.ok);
  });
  it('NOT CERTIFIED with any failure, exit 1', () => {
    const r = run(['passed', 'failed', 'skipped']);
    expect(r.summary.verdict).toBe('NOT CERTIFIED');
    expect(exitCodeOf(r)).toBe(EXIT.checkFailed);
  });
  it('INCOMPLETE when something in scope was not asserted, with reasons grouped; exit 0, or 6 with --fail-incomplete', () => {
    const r = run(['passed', 'skipped', 'skipped', 'partial', 'not_covered', 'unverified']);
    expect(r.summary.verdict).toBe('INCOMPLETE');
    expect(r.summary.incompleteReasons[0]).toEqual({ reason: 'skipped: because skipped', requirements: 2 });
    expect(r.summary.verdictLine).toMatch(/^5 of 6 requirements in scope were not asserted/);
    expect(exitCodeOf(r)).toBe(EXIT.ok);
    expect(exitCodeOf(r, { failIncomplete: true })).toBe(EXIT.incomplete);
  });
  it('INTERRUPTED after a signal: 130 for SIGINT, 143 for SIGTERM', () => {
    expect(run(['passed'], { interrupted: { signal: 'SIGINT', at: '' } }).summary.verdict).toBe('INTERRUPTED');
    expect(exitCodeOf(run(['passed'], { interrupted: { signal: 'SIGINT', at: '' } }))).toBe(EXIT.interrupted);
    expect(exitCodeOf(run(['passed'], { interrupted: { signal: 'SIGTERM', at: '' } }))).toBe(EXIT.terminated);
  });
  it('a run error keeps its own exit code and is never CERTIFIED', () => {
    const r = run([], { error: { message: 'target unreachable', exitCode: EXIT.unreachable } });
    expect(r.summary.verdict).toBe('INCOMPLETE');
    expect(exitCodeOf(r)).toBe(EXIT.unreachable);
    expect(verdictOf(r).line).toMatch(/target unreachable/);
  });
});

/** A run of one scope, judged from its checks as a run does. */
function judgedRun(checks: CheckResult[], scope: RunScope, declared?: DeclaredCheck[]): RunResults {
  const requirements = requirementResults(checks, { kinds: scope.kinds, service: scope.service, depth: scope.depth, onlyNamed: !!scope.grep, declared });
  const base = {
    runId: 'x',
    tool: { name: 'rampart' as const, version: '0' },
    command: scope.whole ? 'certify' : scope.kinds[0]!,
    depth: scope.depth,
    scope,
    startedAt: '2026-01-01T00:00:00.000Z',
    finishedAt: '2026-01-01T00:01:00.000Z',
    profile: { name: 'p', baseUrls: {} },
    environment: { node: '', platform: '', host: '', specVersion: '' },
    requirements,
    checks,
    observations: [],
  };
  return { ...base, summary: summarize(base) };
}

/** A k6 run of smoke that finished (exit 99: a threshold breached) with its gates as given. */
function smokeRun(thresholds: Record<string, boolean>, exitCode = 99, samples = 200): ScenarioRun {
  const summary = {
    root_group: { name: '', path: '', id: '', groups: [], checks: [] },
    metrics: {
      'http_req_duration{group:read60}': {
        type: 'trend',
        contains: 'time',
        values: { 'p(95)': 12.5, 'p(99)': 20, count: samples },
        thresholds: Object.fromEntries(Object.entries(thresholds).map(([expr, ok]) => [expr, { ok }])),
      },
    },
  } as unknown as ScenarioRun['summary'];
  return { segments: [{ exitCode, summary, stderrTail: '' } as unknown as ScenarioRun['segments'][number]], summary, records: [], durationMs: 5_000 };
}

const whole = runScope(['conformance', 'chaos', 'load', 'races'], { depth: 'quick' });
const passedReq = (id: string, suite: CheckResult['suite'] = 'conformance'): CheckResult => ({
  name: `check of ${id}`,
  suite,
  file: `${suite}/gate/x.ts`,
  requirements: [id],
  status: 'passed',
  durationMs: 1,
});

describe('one verdict for every failed check', () => {
  it('a breached performance gate (a check without a requirement) is NOT CERTIFIED, exit 1, in the summary, junit.xml, report.html and the certificate', () => {
    const gate = scenarioChecks('smoke', [], smokeRun({ 'p(95)<1': false }));
    expect(gate).toHaveLength(1);
    expect(gate[0]).toMatchObject({ status: 'failed', requirements: [], failure: { kind: 'assertion' } });
    const r = judgedRun([passedReq('GATE-CUST-GET-404'), ...gate], whole);
    expect(r.requirements.every((q) => q.status !== 'failed')).toBe(true);
    expect(r.summary.verdict).toBe('NOT CERTIFIED');
    expect(r.summary.verdictLine).toMatch(/^1 performance gate check failed \(smoke: gate http_req_duration\{group:read60\} p\(95\)<1\)/);
    expect(r.summary.failedWithoutRequirement).toEqual(['smoke: gate http_req_duration{group:read60} p(95)<1']);
    expect(exitCodeOf(r)).toBe(EXIT.checkFailed);
    // Every output reads the one verdict.
    const xml = toJunit(r);
    expect(xml).toContain('<property name="verdict" value="NOT CERTIFIED"/>');
    expect(xml).toMatch(/<testcase name="smoke: gate http_req_duration\{group:read60\} p\(95\)&lt;1"[^>]*>\s*<failure /);
    expect(toHtml(r).split('id="verdict"')[1]!.split('</section>')[0]).toContain('<div class="big">NOT CERTIFIED</div>');
    const dir = mkdtempSync(join(tmpdir(), 'rampart-verdict-'));
    try {
      writeFileSync(join(dir, 'results.json'), JSON.stringify(r));
      expect(buildCertificate(r, dir).verdict).toMatchObject({ label: 'NOT CERTIFIED', certified: false });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a gate that held passes with the run; a crashed smoke or soak run is NOT CERTIFIED', () => {
    // Every requirement of the catalogue passed: the gates decide.
    const everything = CATALOGUE.filter((q) => q.depth !== 'full').map((q) => passedReq(q.id, q.suite));
    const held = judgedRun([...everything, ...scenarioChecks('smoke', [], smokeRun({ 'p(95)<300': true }, 0))], whole);
    expect(held.summary.verdict).toBe('CERTIFIED');
    expect(held.summary.verdictLine).toMatch(/1 performance gate check passed$/);
    const crashed = scenarioChecks('soak', [], {
      segments: [{ exitCode: 107, stderrTail: 'boom' } as ScenarioRun['segments'][number]],
      records: [],
      durationMs: 1,
    });
    expect(crashed[0]).toMatchObject({ status: 'failed', failure: { kind: 'crash' } });
    const r = judgedRun([...everything, ...crashed], whole);
    expect(r.summary.verdict).toBe('NOT CERTIFIED');
    expect(r.summary.verdictLine).toMatch(/^1 performance gate check failed \(soak: performance gates/);
    expect(exitCodeOf(r)).toBe(EXIT.checkFailed);
  });
});

describe('CERTIFIED is the word of a whole run', () => {
  it('only certify with every kind and nothing narrowed is whole', () => {
    expect(whole).toMatchObject({ whole: true });
    expect(whole.partial).toBeUndefined();
    expect(runScope(['conformance'], { depth: 'quick' })).toMatchObject({ whole: false, partial: 'conformance only' });
    expect(runScope(['conformance', 'chaos', 'load', 'races'], { depth: 'quick', service: 'gate' })).toMatchObject({ whole: false, partial: 'service gate' });
    expect(runScope(['chaos'], { depth: 'full', grep: 'dlv' })).toMatchObject({ whole: false, partial: 'chaos only, grep "dlv"', grep: 'dlv' });
    expect(runScope(['load'], { depth: 'quick', scenarios: ['smoke'], cases: ['traffic'] })).toMatchObject({
      partial: 'load only, scenario smoke, case traffic',
      scenarios: ['smoke'],
      cases: ['traffic'],
    });
  });

  it('a partial run where everything passed is PASSED — partial run (…), exit 0; never CERTIFIED', () => {
    for (const scope of [
      runScope(['conformance'], { depth: 'quick' }),
      runScope(['conformance'], { depth: 'quick', service: 'gate' }),
      runScope(['conformance'], { depth: 'quick', grep: 'GATE-CUST-GET-404' }),
    ]) {
      const r = judgedRun([passedReq('GATE-CUST-GET-404')], scope, [
        { name: 'check of GATE-CUST-GET-404', file: 'conformance/gate/x.ts', requirements: ['GATE-CUST-GET-404'] },
      ]);
      const expected = scope.grep ? 'PASSED' : 'INCOMPLETE'; // unnarrowed, the kind's other requirements are in scope and not covered here
      expect(r.summary.verdict, scope.partial).toBe(expected);
      expect(r.summary.verdict).not.toBe('CERTIFIED');
      if (expected === 'PASSED') expect(r.summary.verdictLine).toBe(`partial run (${scope.partial}): all 1 requirements in scope passed`);
      expect(exitCodeOf(r)).toBe(EXIT.ok);
    }
    // A kind run where every requirement of the kind passed.
    const conformanceOnly = runScope(['conformance'], { depth: 'quick' });
    const all = CATALOGUE.filter((q) => q.suite === 'conformance' && q.depth !== 'full').map((q) => passedReq(q.id));
    const r = judgedRun(all, conformanceOnly);
    expect(r.summary.verdict).toBe('PASSED');
    expect(r.summary.verdictLine).toMatch(/^partial run \(conformance only\): all \d+ requirements in scope passed$/);
    expect(toJunit(r)).toContain('<property name="scope" value="partial run (conformance only)"/>');
    expect(toHtml(r)).toContain('<dt>scope</dt><dd>a partial run (conformance only): only rampart certify, nothing narrowed, can be CERTIFIED</dd>');
    // The same checks as a whole run (every kind's requirements passed) are CERTIFIED.
    const everything = CATALOGUE.filter((q) => q.depth !== 'full').map((q) => passedReq(q.id, q.suite));
    expect(judgedRun(everything, whole).summary.verdict).toBe('CERTIFIED');
  });

  it('results without a recorded scope are judged by their command: only certify can be CERTIFIED', () => {
    expect(scopeOf({ command: 'certify', depth: 'quick' }).whole).toBe(true);
    expect(scopeOf({ command: 'conformance', depth: 'quick' })).toMatchObject({ whole: false, partial: 'conformance only' });
    expect(scopeOf({ command: 'load', depth: 'quick', scope: runScope(['load'], { depth: 'quick', scenarios: ['smoke'] }) }).partial).toBe(
      'load only, scenario smoke',
    );
  });

  it('a partial run of performance gates alone (load --scenario smoke) is PASSED when they held, NOT CERTIFIED when breached', () => {
    const scope = runScope(['load'], { depth: 'quick', scenarios: ['smoke'] });
    const narrowed = (checks: CheckResult[]) => {
      const requirements = requirementResults(checks, { kinds: ['load'], depth: 'quick', onlyNamed: true });
      const base = { ...judgedRun(checks, scope), requirements };
      return { ...base, summary: summarize(base) };
    };
    const held = narrowed(scenarioChecks('smoke', [], smokeRun({ 'p(95)<300': true }, 0)));
    expect(held.summary).toMatchObject({
      verdict: 'PASSED',
      verdictLine: 'partial run (load only, scenario smoke): no requirement in scope; 1 performance gate check passed',
    });
    const breached = narrowed(scenarioChecks('smoke', [], smokeRun({ 'p(95)<1': false })));
    expect(breached.summary.verdict).toBe('NOT CERTIFIED');
    expect(exitCodeOf(breached)).toBe(EXIT.checkFailed);
  });

  it('a percentile gate on too few samples judges nothing: neither held nor breached, the gate check unverified, never PASSED or CERTIFIED', () => {
    // 19 samples: the p95 is their maximum (one at least must lie above it: 20).
    for (const [expr, ok] of [
      ['p(95)<300', true],
      ['p(95)<1', false],
    ] as const) {
      const gate = scenarioChecks('smoke', [], smokeRun({ [expr]: ok }, ok ? 0 : 99, 19));
      expect(gate).toHaveLength(1);
      expect(gate[0]).toMatchObject({ status: 'unverified', requirements: [] });
      expect(gate[0]!.reason).toMatch(/http_req_duration\{group:read60\} p\(95\)<\d+: 19 of 20/);
    }
    const everything = CATALOGUE.filter((q) => q.depth !== 'full').map((q) => passedReq(q.id, q.suite));
    const r = judgedRun([...everything, ...scenarioChecks('smoke', [], smokeRun({ 'p(95)<300': true }, 0, 3))], whole);
    expect(r.summary.verdict).toBe('INCOMPLETE');
    expect(r.summary.verdictLine).toMatch(/^1 performance gate check judged nothing \(smoke: performance gates/);
    // Enough samples for the p95 but not the p99: the p95 judges, the p99 is left out (not a failure).
    const mixed = scenarioChecks('smoke', [], smokeRun({ 'p(95)<300': true, 'p(99)<1': false }, 99, 40));
    expect(mixed.map((c) => c.status)).toEqual(['passed']);
  });

  it('percentile thresholds need one sample at least above the percentile', () => {
    expect([percentileMinSamples('p(95)<600'), percentileMinSamples('p(99)<1200'), percentileMinSamples('p(90) < 5')]).toEqual([20, 100, 10]);
    expect(percentileMinSamples('rate<0.01')).toBeUndefined();
  });

  it('a requirement whose declared checks did not all run is partial, never passed', () => {
    const declared = [
      { name: 'a', file: 'conformance/gate/x.ts', requirements: ['GATE-CUST-GET-404'] },
      { name: 'b', file: 'conformance/gate/x.ts', requirements: ['GATE-CUST-GET-404'] },
    ];
    const a: CheckResult = { ...passedReq('GATE-CUST-GET-404'), name: 'a' };
    const [req] = requirementResults([a], {
      kinds: ['conformance'],
      depth: 'quick',
      onlyNamed: true,
      declared,
      unrunWhy: 'not selected by this run (grep "a")',
    });
    expect(req).toMatchObject({ id: 'GATE-CUST-GET-404', status: 'partial', reason: '1 of 2 checks not selected by this run (grep "a")' });
    expect(req!.missingParts).toEqual(['b — not selected by this run (grep "a")']);
    // Both ran: passed.
    expect(requirementResults([a, { ...a, name: 'b' }], { kinds: ['conformance'], depth: 'quick', onlyNamed: true, declared })[0]!.status).toBe('passed');
    // None ran (the run stopped before them): not run, not "not covered".
    const none = requirementResults([], { kinds: ['conformance'], depth: 'quick', declared, unrunWhy: 'not run: the run stopped before them' }).find(
      (q) => q.id === 'GATE-CUST-GET-404',
    );
    expect(none).toMatchObject({ status: 'not_run', reason: 'its 2 checks not run: the run stopped before them' });
  });
});

describe('explore inside the verdict', () => {
  const explored = (status: CheckResult['status'], requirements: string[] = [], reason?: string): CheckResult => ({
    name: 'explore: sequences of documented operations, the target beside the oracle',
    suite: 'explore',
    file: 'src/explore',
    requirements,
    status,
    durationMs: 1,
    ...(status === 'failed'
      ? {
          failure: {
            kind: 'assertion' as const,
            message: 'after 4 steps, quote#1 read: field status (same)',
            ...(requirements[0] ? { requirement: requirements[0] } : {}),
          },
        }
      : {}),
    ...(reason ? { reason } : {}),
  });
  const nightly = runScope(['conformance', 'chaos', 'load', 'explore', 'races'], { depth: 'full' });
  const certified = (checks: CheckResult[]) =>
    summarize({ ...run([]), requirements: requirementResults(checks, { kinds: nightly.kinds, depth: 'full' }), checks, scope: nightly, depth: 'full' });

  it('certify --depth full with a finding naming a requirement: NOT CERTIFIED, exit 1', () => {
    const s = certified([{ ...c('passed'), requirements: ['POOLS-SQ-REJECT'] }, explored('failed', ['POOLS-SQ-REJECT'])]);
    expect(s.verdict).toBe('NOT CERTIFIED');
    expect(exitCodeOf({ summary: s } as RunResults)).toBe(EXIT.checkFailed);
  });
  it('a finding no requirement names (a gap in the catalogue) fails the run all the same', () => {
    const s = certified([{ ...c('passed'), requirements: ['POOLS-SQ-REJECT'] }, explored('failed')]);
    expect(s.verdict).toBe('NOT CERTIFIED');
    expect(s.verdictLine).toMatch(/explore: a sequence parts where no requirement names it/);
  });
  it('an exploration the target stopped (a 429 past the pacer) leaves the run INCOMPLETE, never CERTIFIED', () => {
    const s = certified([{ ...c('passed'), requirements: ['POOLS-SQ-REJECT'] }, explored('unverified', [], 'the target answered 429 at step 3')]);
    expect(s.verdict).toBe('INCOMPLETE');
    expect(s.verdictLine).toMatch(/^explore judged nothing: the target answered 429/);
  });
});
