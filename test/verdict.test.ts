// The one judge of a run: a requirement passes only when every check naming it
// ran and passed; the headline is exactly CERTIFIED, NOT CERTIFIED, INCOMPLETE
// or INTERRUPTED; the exit code follows it.
import { describe, expect, it } from 'vitest';
import { EXIT } from '../src/exitCodes.js';
import type { CheckResult, RunResults } from '../src/report/results.js';
import { exitCodeOf, requirementStatus, summarize, verdictOf } from '../src/report/verdict.js';

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
