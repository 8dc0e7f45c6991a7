// Relative gates (src/load/gates.ts RelativeGates, judged by src/load/verdict.ts relativeGateChecks): per k6 scenario
// and route group, a p95 past both the ratio and the noise floor of the baseline's fails naming the group and the
// baseline run; within either it passes; a percentile without the samples it needs in both runs judges nothing
// (observed), and a scenario where nothing was judged, or with no baseline to judge against, is unverified — never
// passed. The gates file's relative section defaults in, and asking less of it is looser than rampart's defaults.
import { describe, expect, it } from 'vitest';
import type { ScenarioLatency } from '../src/history/latency.js';
import { latencyOfSummary } from '../src/history/latency.js';
import { Gates, gatesUsed, loadGates, loosenedGates } from '../src/load/gates.js';
import { relativeGateChecks } from '../src/load/verdict.js';

const rules = { p95Ratio: 1.2, minDeltaMs: 50 };
const row = (group: string, p95: number, samples = 200, p99 = p95 * 2): ScenarioLatency => ({ scenario: 'smoke', group, p95, p99, samples });
const baseline = (...latency: ScenarioLatency[]) => ({ runId: 'BASE-1', latency });

describe('relative gates against a baseline run', () => {
  it('a regression past the ratio and the floor fails, naming the route group and the baseline', () => {
    const { checks } = relativeGateChecks([row('read60', 262), row('write10', 5)], baseline(row('read60', 4), row('write10', 5)), rules);
    expect(checks).toHaveLength(1);
    expect(checks[0]).toMatchObject({
      name: 'smoke: relative gate p95 of route group read60 against baseline BASE-1',
      status: 'failed',
      requirements: [],
      suite: 'load',
    });
    expect(checks[0]!.failure).toMatchObject({ kind: 'assertion', expected: 'p95 ≤ max(1.2 × 4 ms, 4 ms + 50 ms) = 54 ms (baseline BASE-1)' });
    expect(checks[0]!.failure!.message).toMatch(/route group read60 p95 262 ms > 54 ms/);
  });

  it('within the ratio, or within the noise floor, it passes', () => {
    expect(relativeGateChecks([row('read60', 500)], baseline(row('read60', 450)), rules).checks.map((c) => c.status)).toEqual(['passed']);
    expect(relativeGateChecks([row('read60', 40)], baseline(row('read60', 4)), rules).checks.map((c) => c.status)).toEqual(['passed']);
    expect(relativeGateChecks([row('read60', 541)], baseline(row('read60', 450)), rules).checks.map((c) => c.status)).toEqual(['failed']);
  });

  it('judged only on enough samples in both runs; nothing judged or no baseline is unverified, never passed', () => {
    const few = relativeGateChecks([row('read60', 900, 12)], baseline(row('read60', 4)), rules);
    expect(few.checks.map((c) => [c.status, c.reason])).toEqual([['unverified', expect.stringMatching(/no route group of smoke had the samples/)]]);
    expect(few.observations[0]!.value).toMatchObject({ group: 'read60', why: 'this run has 12 samples, a p95 needs 20' });
    const fewThen = relativeGateChecks([row('read60', 900), row('pools', 5)], baseline(row('read60', 4, 19), row('pools', 5)), rules);
    expect(fewThen.checks.map((c) => c.status)).toEqual(['passed']);
    expect(fewThen.observations.map((o) => (o.value as { why: string }).why)).toEqual(['the baseline has 19 samples, a p95 needs 20']);
    const none = relativeGateChecks([row('read60', 900)], { missing: 'no earlier run passed' }, rules);
    expect(none.checks.map((c) => [c.status, c.reason])).toEqual([['unverified', 'no earlier run passed']]);
    const other = relativeGateChecks([row('read60', 900)], baseline(row('write10', 4)), rules);
    expect(other.checks.map((c) => c.status)).toEqual(['unverified']);
  });

  it('p99 is judged too when the gates give its ratio, on the 100 samples a p99 needs', () => {
    const p99 = { ...rules, p99Ratio: 1.5 };
    const { checks } = relativeGateChecks([row('read60', 10, 150, 400)], baseline(row('read60', 10, 150, 20)), p99);
    expect(checks.map((c) => c.name)).toEqual(['smoke: relative gate p99 of route group read60 against baseline BASE-1']);
    expect(relativeGateChecks([row('read60', 10, 99, 400)], baseline(row('read60', 10, 150, 20)), p99).checks.map((c) => c.status)).toEqual(['passed']);
  });

  it("a k6 summary's tagged route groups become the rows compared", () => {
    const rows = latencyOfSummary('smoke', {
      metrics: {
        'http_req_duration{group:read60}': { values: { med: 2, 'p(90)': 3, 'p(95)': 4, 'p(99)': 8, max: 11, count: 240 } },
        http_req_duration: { values: { 'p(95)': 99 } },
        rampart_unexpected: { values: { rate: 0.004 } },
      },
    });
    expect(rows).toEqual([{ scenario: 'smoke', group: 'read60', p50: 2, p90: 3, p95: 4, p99: 8, max: 11, samples: 240, errorRate: 0.004 }]);
  });
});

describe('the gates file', () => {
  it("rampart's defaults carry the relative gates; a file without them takes the defaults; asking less is looser", () => {
    const defaults = loadGates();
    expect(defaults.relative).toMatchObject({ p95Ratio: 1.2, minDeltaMs: 50 });
    const { relative: _r, ...old } = gatesUsed().content as Record<string, unknown>;
    expect(Gates.parse(old).relative).toEqual({ p95Ratio: 1.2, minDeltaMs: 50 });
    expect(loosenedGates(Gates.parse(old), defaults)).toEqual([]);
    const loose = Gates.parse({ ...old, relative: { p95Ratio: 2, minDeltaMs: 500 } });
    expect(loosenedGates(loose, defaults)).toEqual(['relative.p95Ratio 2 > 1.2', 'relative.minDeltaMs 500 ms > 50 ms']);
    expect(loosenedGates(Gates.parse({ ...old, relative: { p95Ratio: 1.1, p99Ratio: 1.3, minDeltaMs: 20 } }), defaults)).toEqual([]);
    expect(() => Gates.parse({ ...old, relative: { p95Ratio: 0.5 } })).toThrow();
  });
});
