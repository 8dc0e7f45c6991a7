// The faults of a night in the embedded target (src/reference/nightFaults.ts): the some-runs fault breaks its rule on
// the share of starts its seeded draw gives — the rule's own check fails by an assertion on a breaking start and
// passes on a clean one — and a slow fault makes every answer of one route group late by the milliseconds asked,
// leaving the other groups alone.
import { afterEach, describe, expect, it } from 'vitest';
import { NIGHT_FAULTS, SOME_RUNS, nightFaultsOn, slowFaultName, startBreaks } from '../src/reference/nightFaults.js';
import { loadConformanceSuites, onlyChecksFor, runAgainst, startEmbedded } from './support/embedded.js';

const env = { ...process.env };
afterEach(() => {
  process.env = { ...env };
});

describe('a fault of some runs', () => {
  it('breaks on the share of seeds asked, the same seed always alike', () => {
    const seeds = Array.from({ length: 2000 }, (_, i) => `night-${i}`);
    const share = (s: number) => seeds.filter((x) => startBreaks(x, s)).length / seeds.length;
    expect(share(0)).toBe(0);
    expect(share(1)).toBe(1);
    expect(share(0.3)).toBeGreaterThan(0.26);
    expect(share(0.3)).toBeLessThan(0.34);
    expect(seeds.map((s) => startBreaks(s, 0.5))).toEqual(seeds.map((s) => startBreaks(s, 0.5)));
  });

  it('each start draws once and says its seed; the fault it carries is the one it wraps, or none', () => {
    const logs: string[] = [];
    const breaking = Array.from({ length: 50 }, (_, i) => `s${i}`).find((s) => startBreaks(s, 0.5))!;
    const clean = Array.from({ length: 50 }, (_, i) => `s${i}`).find((s) => !startBreaks(s, 0.5))!;
    expect(nightFaultsOn(['x', SOME_RUNS.name], (l) => logs.push(l), { RAMPART_FAULT_SHARE: '0.5', RAMPART_FAULT_SEED: breaking })).toEqual([
      'x',
      SOME_RUNS.wraps,
    ]);
    expect(nightFaultsOn([SOME_RUNS.name], (l) => logs.push(l), { RAMPART_FAULT_SHARE: '0.5', RAMPART_FAULT_SEED: clean })).toEqual([]);
    expect(nightFaultsOn([SOME_RUNS.name], (l) => logs.push(l), {})).toEqual([SOME_RUNS.wraps]);
    expect(logs[0]).toContain(`seed ${breaking}, share 0.5: this start breaks the rule`);
    expect(logs[1]).toContain(`seed ${clean}, share 0.5: this start is clean`);
    expect(logs[2]).toMatch(/seed [0-9a-f]{12}, share 1:/);
    expect(nightFaultsOn(['x'], () => undefined, {})).toEqual(['x']);
    expect(() => nightFaultsOn([SOME_RUNS.name], () => undefined, { RAMPART_FAULT_SHARE: '2' })).toThrow(/from 0 to 1/);
  });

  it("the rule's own check fails by an assertion on a breaking start and passes on a clean one", { timeout: 60_000 }, async () => {
    const fault = NIGHT_FAULTS.find((f) => f.name === SOME_RUNS.name)!;
    const suites = onlyChecksFor(await loadConformanceSuites('pools'), fault.requirements);
    const outcomes: string[] = [];
    for (const seed of ['clean', 'breaks']) {
      process.env.RAMPART_FAULT_SHARE = '0.5';
      process.env.RAMPART_FAULT_SEED = Array.from({ length: 50 }, (_, i) => `t${i}`).find((s) => startBreaks(s, 0.5) === (seed === 'breaks'))!;
      const ref = await startEmbedded({ faults: [SOME_RUNS.name] });
      try {
        const { checks } = await runAgainst(ref, suites);
        outcomes.push(checks.map((c) => `${c.status}${c.failure ? `:${c.failure.kind}:${c.failure.requirement}` : ''}`).join(','));
      } finally {
        await ref.close();
      }
    }
    expect(outcomes).toEqual(['passed', 'failed:assertion:POOLS-QUOTE-NETWORK-DEFAULT-TRON']);
  });
});

describe('a slowed route group', () => {
  it('every answer of the group comes the milliseconds late, the other groups do not', { timeout: 60_000 }, async () => {
    process.env.RAMPART_FAULT_SLOW_MS = '300';
    const ref = await startEmbedded({ faults: [slowFaultName('read60')] });
    try {
      const key = ref.profile.gate.partners[0]!.secretKey;
      const time = async (path: string) => {
        const t0 = performance.now();
        const res = await fetch(`${ref.urls.gateSandbox}${path}`, { headers: { authorization: `Bearer ${key}` } });
        await res.arrayBuffer();
        return { ms: performance.now() - t0, status: res.status };
      };
      const read60 = [await time('/branding'), await time('/gate_sessions')];
      const other = [await time('/dashboard/webhook-settings')];
      for (const r of read60) expect(r.ms).toBeGreaterThanOrEqual(295);
      for (const r of other) expect(r.ms).toBeLessThan(250);
      expect([...read60, ...other].map((r) => r.status)).toEqual([200, 200, 200]);
    } finally {
      await ref.close();
    }
  });
});
