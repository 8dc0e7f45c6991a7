// rampart races end to end against the embedded target (src/suites/races.ts): every family passes the clean world;
// a race fault is found, its finding naming the rule, carrying the burst with each request's send and answer times,
// the closest serial order and where it parts, and a replay script; the window judge rules fixed-bucket edges out.
import { afterAll, describe, expect, it } from 'vitest';
import { RACE_FAMILIES } from '../src/races/families/index.js';
import { oneEdgeExplainsBoth } from '../src/races/window.js';
import { startDialect, startEmbedded } from './support/embedded.js';
import { racesAgainst } from './support/races.js';

const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of closers) await c();
});

async function world(faults: string[] = []) {
  const w = await startEmbedded({ faults });
  closers.push(() => w.close());
  return w;
}

describe('rampart races against the embedded target', () => {
  it('every family passes the clean world: each burst explained by a serial order, no family skipped', async () => {
    const w = await world();
    const { races, outcome } = await racesAgainst(w.profile, { seed: 7 });
    expect(races.findings).toEqual([]);
    expect(outcome.checks.map((c) => [c.name, c.status]).filter(([, s]) => s !== 'passed')).toEqual([]);
    expect(outcome.checks).toHaveLength(RACE_FAMILIES.length);
    // Each check names its family's requirements; every burst fired was judged.
    for (const f of RACE_FAMILIES) expect(outcome.checks.find((c) => c.name === f.name)?.requirements).toEqual(f.requirements);
    expect(races.bursts).toBeGreaterThanOrEqual(RACE_FAMILIES.length);
    expect(races.ordersTried).toBeGreaterThanOrEqual(races.bursts - 2);
  }, 120_000);

  it('a race fault is found: the finding names the rule and carries the burst, the closest order and a replay script', async () => {
    const w = await world(['race-sess-idempotency-gap']);
    const { races, outcome } = await racesAgainst(w.profile, { seed: 3, families: ['sessions-same-key'], faults: ['race-sess-idempotency-gap'] });
    const check = outcome.checks[0]!;
    expect(check.status).toBe('failed');
    expect(check.failure).toMatchObject({ kind: 'assertion', requirement: 'GATE-SESS-IDEMPOTENT-REPLAY' });
    const f = races.findings[0]!;
    expect(f).toMatchObject({ family: 'sessions-same-key', requirement: 'GATE-SESS-IDEMPOTENT-REPLAY', seed: 3 });
    expect(f.burst).toHaveLength(3);
    for (const r of f.burst) {
      expect(r.exchange?.status).toBe(201);
      expect(r.answeredMs).toBeGreaterThanOrEqual(r.sentMs);
    }
    expect(f.burst.map((r) => r.sentAs).sort()).toEqual([0, 1, 2]);
    // Three sessions for one key: no serial order gives the second request another id than the first.
    expect(f.closest).toMatchObject({ matched: 1, what: 'field id (ref)' });
    expect(f.closest.oracleAnswers).toHaveLength(3);
    expect(f.after.map((a) => a.label)).toEqual(['the same create once more']);
    expect(f.replay.script).toContain("npx rampart races --fault 'race-sess-idempotency-gap' --family sessions-same-key --times");
  }, 60_000);

  it('both documented readings of a transact on a consumed quote pass (the dialect world answers 409, the reference the trade)', async () => {
    const w = await startDialect('everywhere');
    closers.push(() => w.close());
    const { races, outcome } = await racesAgainst(w.profile, { seed: 11, families: ['transact-one-quote', 'transact-same-key', 'transact-beside-reject'] });
    expect(races.findings).toEqual([]);
    expect(outcome.checks.map((c) => c.status)).toEqual(['passed', 'passed', 'passed']);
  }, 60_000);
});

describe('the window judge', () => {
  const W = 10_000;
  it('two bursts half a window apart: no fixed bucket edge can fall inside both', () => {
    expect(oneEdgeExplainsBoth([1_000, 1_100], [16_000, 16_100], W)).toBe(false);
    expect(oneEdgeExplainsBoth([9_950, 10_050], [16_000, 16_100], W)).toBe(false);
  });
  it('bursts a whole window apart (or spans as long as the window) could both straddle one edge', () => {
    expect(oneEdgeExplainsBoth([1_000, 1_100], [11_050, 11_150], W)).toBe(true);
    expect(oneEdgeExplainsBoth([0, W], [5_000, 5_001], W)).toBe(true);
  });
});
