// explore's small interactions and lanes: the small-interaction phase walks every (change, view) pair of a family the
// profile supports (each view around each change, whole), and each repeated request around each change; a profile
// with N partners explore may act as gives N lanes, one gives one, and a budget given whole is spread over them; the
// lanes run at once on their own partners, and a clean run over them parts nowhere.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOracle, type RunningOracle } from '../src/cli/oracle.js';
import { FAMILIES } from '../src/explore/commands/index.js';
import { explorationTag } from '../src/explore/explore.js';
import { exploreLanes } from '../src/explore/lanes.js';
import { changesOf, commandsOf, pairsOf } from '../src/explore/pairs.js';
import { defaultBudgetOf, lanesOf, splitBudget } from '../src/explore/budget.js';
import { lanesFrom } from '../src/explore/sides.js';
import { planExplore } from '../src/plan/explore.js';
import type { Profile } from '../src/profile/schema.js';
import type { RunningReference } from '../src/reference/server.js';
import { viewFor } from '../src/runner/partition.js';
import { startEmbedded } from './support/embedded.js';

let target: RunningReference;
let oracle: RunningOracle;
beforeAll(async () => {
  // Rate limits off: the test is about what the lanes walk, not how the windows pace them (the plan counts that).
  target = await startEmbedded({ tweak: (p) => ({ ...p, reference: { ...p.reference!, rateLimits: false } }) });
  oracle = await startOracle(target.profile);
});
afterAll(async () => {
  await Promise.all([target?.close(), oracle?.close()]);
});

/** The explore view with the Gate partners cut to the first n (single-key) ones explore may act as. */
function withGatePartners(p: Profile, n: number): Profile {
  const gates = p.gate.partners.filter((x) => !x.reservedFor && !x.brandingUnset).slice(0, n);
  return { ...p, gate: { ...p.gate, partners: gates.map((g) => ({ ...g, extraSecretKeys: [] })) } };
}

describe('explore lanes', () => {
  it('N partners give N Gate lanes, one gives one; each lane its keys; a whole budget spread over the lanes', () => {
    for (const n of [1, 3, 6]) {
      const view = withGatePartners(target.profile, n);
      const gate = lanesOf(view, 'gate');
      expect(gate).toHaveLength(n);
      expect(gate.every((l) => l.keys === 1)).toBe(true);
      // One key's hour window at explore's share.
      expect(gate[0]!.budget).toBe(270);
    }
    const view = viewFor(target.profile, 'explore');
    const lanes = lanesOf(view);
    expect(lanes.map((l) => [l.service, l.keys])).toEqual([
      ['gate', 5],
      ['pools', 1],
    ]);
    const split = splitBudget(lanes, 101);
    expect(split.reduce((a, b) => a + b, 0)).toBe(101);
    expect(split[0]).toBeGreaterThan(split[1]!);
    // The plan reads the same rule, lane by lane.
    const plan = planExplore(target.profile, { rttMs: 0 });
    expect(plan.budget).toBe(defaultBudgetOf(lanes));
    expect(plan.lanes.map((l) => [l.name, l.keys, l.budget])).toEqual(lanes.map((l) => [l.name, l.keys, l.budget]));
  });

  it('the pairs of a family: each view around each change, each repeated request around each other change', () => {
    for (const f of FAMILIES) {
      const pairs = pairsOf(f);
      const changes = changesOf(f);
      expect(pairs.filter((p) => p.shape === 'view')).toHaveLength(changes.length * f.views.length);
      for (const c of changes) for (const v of f.views) expect(pairs).toContainEqual({ family: f.name, shape: 'view', ops: [v, c, v] });
      // A repeat whose request the opening does not make (a pay-out's replay) has that request made first.
      const origin = f.origin === undefined ? [] : [f.origin];
      for (const r of f.repeats ?? [])
        for (const c of changes) if (c !== r && c !== f.origin) expect(pairs).toContainEqual({ family: f.name, shape: 'repeat', ops: [...origin, r, c, r] });
    }
  });

  it("a small interaction's last step is its first again: the same operation and parameters, on the object the first acted on", () => {
    for (const f of FAMILIES)
      for (const p of pairsOf(f)) {
        const cmds = commandsOf(f, p, 7);
        const [first, last] = [cmds.at(-3)!, cmds.at(-1)!];
        expect(last.variantKey(), `${f.name} ${p.ops.join(',')}`).toBe(first.variantKey());
        expect(last.pinnedTo).toBe(first);
      }
  });

  it('walks every (change, view) pair of the sessions and customers families whole, on lanes at once, and parts nowhere on the clean target', async () => {
    const view = withGatePartners(target.profile, 3);
    const plans = lanesOf(view, 'gate');
    const lanes = lanesFrom(target.profile, oracle.profile, plans, [600, 600, 600], explorationTag());
    const sent = new Map<string, number>();
    const out = await exploreLanes(
      // Two families, so the small interactions fit the budget (the test is about walking them all).
      lanes.map((l) => ({ ...l, can: { ...l.can, rails: false, webhooks: false, why: { ...l.can.why, rails: 'left out by the test' } } })),
      {
        seed: 42,
        pairShare: 1,
        onExchange: (side, ex) => {
          if (side === 'target') sent.set(ex.request.headers['authorization'] ?? '', (sent.get(ex.request.headers['authorization'] ?? '') ?? 0) + 1);
        },
      },
    );
    expect(out.finding, JSON.stringify(out.finding?.what)).toBeUndefined();
    expect(out.crash).toBeUndefined();
    expect(out.lanes).toHaveLength(3);
    // Every lane's secret key was used.
    for (const l of plans) expect(sent.get(`Bearer ${l.gate!.secretKey}`), l.name).toBeGreaterThan(0);
    for (const name of ['sessions', 'customers']) {
      const f = out.families[name]!;
      const family = FAMILIES.find((x) => x.name === name)!;
      const thenPairs = changesOf(family).length * family.views.length;
      expect(f.pairs.total).toBe(pairsOf(family).length);
      expect(f.pairs.tried, name).toBe(f.pairs.total);
      // Every view-around-change pair ran whole (a repeated request may not apply after a change that ends its object).
      expect(f.pairs.views, name).toBe(thenPairs);
    }
  }, 120_000);
});
