// Merging the k6 summaries of a split run (src/load/summary.ts) and the
// reasons a run proves nothing (src/load/verdict.ts), on summaries shaped
// like k6 v2's handleSummary data.
import { describe, expect, it } from 'vitest';
import type { ScenarioRun } from '../src/load/scenarioRun.js';
import { evaluateThreshold, mergeSummaries, type Summary } from '../src/load/summary.js';
import { crashReasons, scenarioChecks } from '../src/load/verdict.js';
import { routeProbes } from '../scenarios/lib/routeProbes.js';

const part = (over: { reqs: number; fails: number; p95: number; unexpected: [number, number]; ms: number; check: [number, number] }): Summary => ({
  state: { testRunDurationMs: over.ms },
  metrics: {
    http_reqs: { type: 'counter', values: { count: over.reqs, rate: over.reqs / (over.ms / 1000) } },
    'checks{req:A}': {
      type: 'rate',
      values: { passes: over.check[0], fails: over.check[1], rate: over.check[0] / (over.check[0] + over.check[1] || 1) },
      thresholds: { 'rate==1': { ok: over.check[1] === 0 } },
    },
    'checks{req:B}': { type: 'rate', values: { passes: 0, fails: 0, rate: 0 }, thresholds: { 'rate==1': { ok: true } } },
    rampart_unexpected: {
      type: 'rate',
      values: { passes: over.unexpected[0], fails: over.unexpected[1], rate: over.unexpected[0] / (over.unexpected[0] + over.unexpected[1]) },
      thresholds: { 'rate<0.1': { ok: true } },
    },
    'http_req_duration{group:read60}': {
      type: 'trend',
      values: { min: 1, med: 5, avg: 6, 'p(95)': over.p95, max: over.p95 + 10 },
      thresholds: { 'p(95)<300': { ok: over.p95 < 300 } },
    },
    vus: { type: 'gauge', values: { value: 2, min: 1, max: 4 } },
  },
  root_group: { name: '', path: '', checks: [{ name: 'one', path: '::one', passes: over.check[0], fails: over.check[1] }], groups: [] },
});

describe('merging split summaries', () => {
  const a = part({ reqs: 30, fails: 0, p95: 120, unexpected: [1, 29], ms: 10_000, check: [3, 0] });
  const b = part({ reqs: 34, fails: 0, p95: 310, unexpected: [3, 31], ms: 12_000, check: [2, 1] });
  const m = mergeSummaries([a, b]);

  it('sums counts and recomputes the rate over the longest segment', () => {
    expect(m.metrics!.http_reqs!.values).toEqual({ count: 64, rate: 64 / 12 });
    expect(m.state!.testRunDurationMs).toBe(12_000);
    expect(m.segments).toBe(2);
  });

  it('sums passes and fails of rates and checks, and recomputes the rate', () => {
    expect(m.metrics!['checks{req:A}']!.values).toEqual({ passes: 5, fails: 1, rate: 5 / 6 });
    expect(m.metrics!['checks{req:A}']!.thresholds!['rate==1']!.ok).toBe(false);
    expect(m.metrics!.rampart_unexpected!.values!.rate).toBeCloseTo(4 / 64);
    expect(m.metrics!.rampart_unexpected!.thresholds!['rate<0.1']!.ok).toBe(true);
    const checks = m.root_group!.checks as { name: string; passes: number; fails: number }[];
    expect(checks).toEqual([expect.objectContaining({ name: 'one', passes: 5, fails: 1 })]);
  });

  it('keeps a threshold on a metric without samples unjudged, as k6 does', () => {
    expect(m.metrics!['checks{req:B}']!.thresholds!['rate==1']!.ok).toBe(true);
  });

  it("keeps each segment's trend and merges to the largest (conservative) value but min", () => {
    const t = m.metrics!['http_req_duration{group:read60}']!;
    expect(t.values).toEqual({ min: 1, med: 5, avg: 6, 'p(95)': 310, max: 320 });
    expect(t.perSegment).toEqual([a.metrics!['http_req_duration{group:read60}']!.values, b.metrics!['http_req_duration{group:read60}']!.values]);
    expect(t.thresholds!['p(95)<300']!.ok).toBe(false);
  });

  it('adds up the VUs of the segments', () => {
    expect(m.metrics!.vus!.values).toEqual({ value: 4, min: 2, max: 8 });
  });

  it('reads k6 threshold expressions', () => {
    expect(evaluateThreshold('p(95)<300', { 'p(95)': 299 })).toBe(true);
    expect(evaluateThreshold('p(99.9) <= 10', { 'p(99.9)': 11 })).toBe(false);
    expect(evaluateThreshold('rate==1', { rate: 1 })).toBe(true);
    expect(evaluateThreshold('count>=0', {})).toBeUndefined();
    expect(evaluateThreshold('avg<200 && max<1000', { avg: 1 })).toBeUndefined();
  });
});

describe('a run that did not finish cleanly proves nothing', () => {
  const summary = part({ reqs: 3, fails: 0, p95: 10, unexpected: [0, 3], ms: 1000, check: [3, 0] });
  const run = (over: Partial<ScenarioRun> & { exitCode?: number; noSummary?: boolean }): ScenarioRun => ({
    segments: [
      {
        segment: null,
        exitCode: over.exitCode ?? 0,
        durationMs: 5,
        stderrTail: 'level=error msg="boom"\n',
        summary: over.noSummary ? undefined : summary,
        summaryFile: 'k6/x/summary.json',
      },
    ],
    summary: over.noSummary ? undefined : summary,
    records: over.records ?? [],
    durationMs: 5,
  });

  it('a clean run: its passed requirement passes', () => {
    expect(crashReasons(run({}))).toEqual([]);
    expect(scenarioChecks('rate-limits', ['A'], run({})).map((c) => c.status)).toEqual(['passed']);
  });

  it('exit 99 (a threshold breached) is a judged run, not a crash', () => {
    expect(crashReasons(run({ exitCode: 99 }))).toEqual([]);
  });

  for (const [what, r, reason] of [
    ['a k6 exit other than 0 or 99', run({ exitCode: 107 }), 'k6 ended with exit code 107'],
    ['exit 0 without a summary', run({ noSummary: true }), 'k6 wrote no summary'],
    [
      'a scenario function that threw',
      run({ records: [{ kind: 'aborted', case: 'burst', message: 'x is undefined' }] }),
      'the scenario threw in burst: x is undefined',
    ],
    ['a case that started and never finished', run({ records: [{ kind: 'caseStart', case: 'minute' }] }), 'case minute started and never finished'],
  ] as const) {
    it(`${what}: every requirement fails with the reason, even those whose checks passed`, () => {
      expect(crashReasons(r)).toContain(reason);
      const checks = scenarioChecks('rate-limits', ['A', 'B'], r);
      expect(checks.map((c) => [c.requirements[0], c.status])).toEqual([
        ['A', 'failed'],
        ['B', 'failed'],
      ]);
      expect(checks[0]!.failure!.message).toContain(reason);
    });
  }
});

describe('a group of routes passes only whole', () => {
  const ID = 'GATE-RATE-ROUTES-WRITE30';
  const summary: Summary = {
    metrics: { [`checks{req:${ID}}`]: { type: 'rate', values: { passes: 7, fails: 0, rate: 1 }, thresholds: { 'rate==1': { ok: true } } } },
    root_group: { name: '', checks: [], groups: [] },
  };
  const runOf = (records: Record<string, unknown>[]): ScenarioRun => ({
    segments: [{ segment: null, exitCode: 0, durationMs: 5, stderrTail: '', summary, summaryFile: 'k6/x/summary.json' }],
    summary,
    records,
    durationMs: 5,
  });
  const probed = (items: string[]) => items.map((item) => ({ kind: 'routeProbe', item, group: 'write30', judged: true, ok: true }));
  const WRITE30 = routeProbes({})
    .filter((p) => p.group === 'write30')
    .map((p) => p.item);

  it('every route of the row probed and judged: passed', () => {
    expect(scenarioChecks('rate-limits', [ID], runOf(probed(WRITE30)))[0]!.status).toBe('passed');
  });

  it('a route whose probe judged nothing (every answer 401/403) leaves the row unverified though the others passed', () => {
    const unjudged = { kind: 'unverified', req: ID, part: 'POST /embed/bootstrap', reason: 'POST /embed/bootstrap: every answer refused the credential' };
    const record = { kind: 'routeProbe', item: 'POST /embed/bootstrap', group: 'write30', judged: false, ok: false };
    const [c] = scenarioChecks('rate-limits', [ID], runOf([...probed(WRITE30.filter((i) => i !== 'POST /embed/bootstrap')), record, unjudged]));
    expect(c!.status).toBe('unverified');
    expect(c!.reason).toMatch(/^1 part not judged \(POST \/embed\/bootstrap: every answer refused the credential\); 7 checks of its other parts passed$/);
  });

  it('a route no probe record names (never probed) leaves the row unverified', () => {
    const [c] = scenarioChecks('rate-limits', [ID], runOf(probed(WRITE30.filter((i) => i !== 'customer writes'))));
    expect(c!.status).toBe('unverified');
    expect(c!.reason).toContain('customer writes: not probed');
  });
});
