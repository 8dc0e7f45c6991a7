// Regenerates src/runner/calibration.json: what each check spends (Gate requests
// per route group and credential kind, pools requests, documented waits),
// measured against the embedded target — once with its full profile and once
// cut to one Gate key and one pools partner (where state built up by earlier
// checks makes the late checks cheapest). The plan keeps the smaller count of
// the two, so its bound stays a lower bound.
// Run: npx tsx scripts/calibrate-plan.ts
import { writeFileSync } from 'node:fs';
import { installChaos } from '../src/chaos/kit.js';
import { startToxiproxy } from '../src/chaos/toxiproxy.js';
import { gateRouteGroup } from '../src/model/limits.js';
import type { Calibration, CheckCost } from '../src/runner/calibration.js';
import { coveredMs, sequentialRequests } from '../src/plan/lowerBound.js';
import { oneKeyProfile } from '../src/plan/oneKey.js';
import { loadProfile } from '../src/profile/load.js';
import type { Profile } from '../src/profile/schema.js';
import { startReference } from '../src/reference/server.js';
import { createProgress } from '../src/runner/progress.js';
import { checkKey, loadSuites, runChecks, type CheckKind } from '../src/runner/run.js';

async function measure(profile: Profile, kind: CheckKind): Promise<Map<string, CheckCost>> {
  const ref = await startReference({ profile, ephemeralPorts: true });
  const tp = kind === 'chaos' ? await startToxiproxy() : undefined;
  try {
    if (tp && 'missing' in tp) return new Map();
    const suites = await loadSuites(kind);
    const out = await runChecks({
      profile: ref.profile,
      suites,
      kind,
      depth: 'quick',
      progress: createProgress({ live: false, quiet: true }),
      ...(tp ? { prepare: (run: Parameters<typeof installChaos>[0]) => installChaos(run, tp) } : {}),
    });
    const fileOf = new Map(out.checks.map((c) => [c.name, c.file!]));
    const costs = new Map<string, CheckCost>();
    const cost = (name: string) => {
      const key = checkKey(kind, fileOf.get(name) ?? '', name);
      let c = costs.get(key);
      if (!c) costs.set(key, (c = { gate: { secret: {}, publishable: {} }, pools: 0, targetWaitMs: 0 }));
      return c;
    };
    const ran = new Set(out.checks.filter((c) => c.status === 'passed').map((c) => c.name));
    for (const r of out.stats.requests) {
      if (!ran.has(r.check)) continue;
      const c = cost(r.check);
      if (r.service === 'pools') c.pools++;
      else if (r.credential !== 'none') {
        const g = gateRouteGroup(r.method, r.path);
        const into = c.gate[r.credential];
        into[g] = (into[g] ?? 0) + 1;
      }
    }
    // Documented waits as measured here: sleeps on the target, lifetimes and webhooks awaited (chaos waits follow the embedded target's declared retry scale).
    for (const name of ran) cost(name).targetWaitMs = coveredMs(out.stats.sleeps.filter((s) => s.kind === 'target' && s.check === name));
    // Requests that went one after another: on a remote target each is a round trip the plan multiplies.
    for (const name of ran) cost(name).sequential = sequentialRequests(out.stats.requests.filter((r) => r.check === name));
    return costs;
  } finally {
    await ref.close();
    if (tp && !('missing' in tp)) await tp.close();
  }
}

const sum = (g: Partial<Record<string, number>>) => Object.values(g).reduce((a: number, b) => a + (b ?? 0), 0);
const total = (c: CheckCost) => sum(c.gate.secret) + sum(c.gate.publishable) + c.pools;

const base = loadProfile('fixtures/profiles/embedded.json');
const merged: Record<string, CheckCost> = {};
for (const kind of ['conformance', 'chaos'] as const) {
  for (const profile of [base, oneKeyProfile(base, { rateWindowScale: 0.1 })]) {
    const t0 = Date.now();
    const costs = await measure(profile, kind);
    console.log(`${kind} on ${profile.name}: ${costs.size} checks measured in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
    for (const [k, c] of costs) {
      const prior = merged[k];
      // The smaller count of requests, and the shorter of the waits: the plan's bound stays a lower bound.
      if (!prior) merged[k] = c;
      else
        merged[k] = {
          ...(total(c) < total(prior) ? c : prior),
          targetWaitMs: Math.min(c.targetWaitMs, prior.targetWaitMs),
          sequential: Math.min(c.sequential ?? 0, prior.sequential ?? 0),
        };
    }
  }
}
/** rampart explore's mix of target requests on the embedded target: the Gate share, and each route group's share of it. */
async function exploreMix(profile: Profile): Promise<Calibration['explore']> {
  const { startOracle } = await import('../src/cli/oracle.js');
  const { explore, explorationTag } = await import('../src/explore/explore.js');
  const { capabilitiesOf, contextOf, explorePartners, sideOf } = await import('../src/explore/sides.js');
  const { viewFor } = await import('../src/runner/partition.js');
  const ref = await startReference({ profile: { ...profile, reference: { ...profile.reference!, rateLimits: false } }, ephemeralPorts: true });
  const oracle = await startOracle(ref.profile);
  const sent: { gate: boolean; method: string; path: string }[] = [];
  try {
    const partners = explorePartners(viewFor(ref.profile, 'explore'));
    for (const seed of [1, 2, 3, 4, 5])
      await explore({
        sides: { target: sideOf(ref.profile, 'target', partners), oracle: sideOf(oracle.profile, 'oracle', partners) },
        can: capabilitiesOf(ref.profile, partners),
        context: contextOf(ref.profile, explorationTag()),
        budget: 400,
        seed,
        onExchange: (side, ex) => {
          if (side !== 'target') return;
          const gate = ex.request.url.startsWith(ref.profile.gate.baseUrls.sandbox);
          sent.push({ gate, method: ex.request.method, path: new URL(ex.request.url).pathname.replace(/^\/v1/, '') });
        },
      });
  } finally {
    await oracle.close();
    await ref.close();
  }
  const gate = sent.filter((r) => r.gate);
  const groups: Partial<Record<ReturnType<typeof gateRouteGroup>, number>> = {};
  for (const r of gate) groups[gateRouteGroup(r.method, r.path)] = (groups[gateRouteGroup(r.method, r.path)] ?? 0) + 1;
  const share = (n: number, of: number) => Math.round((n / Math.max(1, of)) * 1000) / 1000;
  return { gateShare: share(gate.length, sent.length), groups: Object.fromEntries(Object.entries(groups).map(([g, n]) => [g, share(n ?? 0, gate.length)])) };
}

const explored = await exploreMix(base);
console.log(`explore on embedded: gate share ${explored?.gateShare}, groups ${JSON.stringify(explored?.groups)}`);
const cal: Calibration = {
  generatedAt: new Date().toISOString(),
  how: "scripts/calibrate-plan.ts: conformance and chaos against the embedded target, full profile and one-key cut; the smaller count per check; explore's request mix over five seeds",
  checks: Object.fromEntries(Object.entries(merged).sort(([a], [b]) => a.localeCompare(b))),
  ...(explored ? { explore: explored } : {}),
};
writeFileSync('src/runner/calibration.json', JSON.stringify(cal, null, 1) + '\n');
console.log(`wrote src/runner/calibration.json: ${Object.keys(merged).length} checks`);
