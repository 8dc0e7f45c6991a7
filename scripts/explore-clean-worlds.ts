// rampart explore against correct targets: WORLD=embedded (the embedded profile), alt (the second world: other ids,
// keys, readings and sandbox dialect), field (the embedded target as a remote sandbox: latency each way, its own
// clock, a lived-in history), dialect (every open point of the inventory its second choice: startDialect('everywhere'))
// or draw:SEED (one choice per open point, drawn from SEED). SEEDS explorations over every lane, each on a fresh world (its rate windows empty),
// the clean embedded reference as the oracle. Any divergence here is a false failure. Prints per seed and in all,
// with the wall beside the plan's bound for the world's round trip (RTT, ms; the field world's is 200).
// Run: WORLD=field SEEDS=20 npx tsx scripts/explore-clean-worlds.ts
import { startOracle } from '../src/cli/oracle.js';
import { Pacer } from '../src/client/pacer.js';
import { explorationTag } from '../src/explore/explore.js';
import { exploreLanes } from '../src/explore/lanes.js';
import { defaultBudgetOf, lanesOf, splitBudget } from '../src/explore/budget.js';
import { lanesFrom } from '../src/explore/sides.js';
import { planExplore } from '../src/plan/explore.js';
import type { Profile } from '../src/profile/schema.js';
import { viewFor } from '../src/runner/partition.js';
import { startDialect, startEmbedded } from '../test/support/embedded.js';
import { startFieldWorld } from '../test/support/fieldWorld.js';

const world = process.env.WORLD ?? 'embedded';
const seeds = Number(process.env.SEEDS ?? 20);
// BUDGET: the whole exploration's, spread over its lanes; unset, the default (src/explore/budget.ts).
const budget = Number(process.env.BUDGET ?? 0);
const rtt = Number(process.env.RTT ?? (world === 'field' ? 200 : 0));

async function start(): Promise<{ profile: Profile; close(): Promise<void> }> {
  if (world === 'field')
    return startFieldWorld({ clockOffsetSeconds: 2, history: { sessions: 30, customers: 15, trades: 60, deliveries: 20 }, retryScale: 0.01 });
  if (world === 'alt') return startEmbedded({ profileFile: 'fixtures/profiles/embedded-alt.json' });
  if (world === 'dialect') return startDialect('everywhere');
  if (world.startsWith('draw:')) return startDialect(world.slice(5));
  return startEmbedded();
}

let divergences = 0;
let flaky = 0;
let wallSum = 0;
let boundSum = 0;
for (let s = 1; s <= seeds; s++) {
  const target = await start();
  const oracle = await startOracle(target.profile);
  try {
    const plans = lanesOf(viewFor(target.profile, 'explore'));
    const whole = budget || defaultBudgetOf(plans);
    const pacer = new Pacer({ windowScale: target.profile.timing.rateWindowScale });
    const bound = planExplore(target.profile, { budget: whole, rttMs: rtt }).ms / 1000;
    const t0 = Date.now();
    const lanes = lanesFrom(target.profile, oracle.profile, plans, splitBudget(plans, whole), explorationTag(), { target: { pacer } });
    const out = await exploreLanes(lanes, { seed: s * 7919 });
    const wall = (Date.now() - t0) / 1000;
    wallSum += wall;
    boundSum += bound;
    if (out.finding) divergences++;
    if (out.intermittent) flaky++;
    const f = out.finding ?? out.intermittent;
    console.log(
      `${world} seed ${s * 7919}: ${f ? `${out.finding ? 'DIVERGENCE' : 'intermittent'} [${f.requirement}] ${f.what} — target ${JSON.stringify(f.target)}, oracle ${JSON.stringify(f.oracle)} | ${f.steps.map((x) => x.label).join(' ; ')}` : out.crash ? `CRASH ${out.crash.split('\n')[0]}` : out.stopped ? `stopped (${out.stopped.kind}): ${out.stopped.why}` : 'no divergence'} (${out.judged.length} requirements judged, ${out.sequences} sequences, ${out.steps} steps, ${out.spent} requests, ${wall.toFixed(1)} s; plan ≥ ${bound.toFixed(1)} s)`,
    );
  } finally {
    await oracle.close();
    await target.close();
  }
}
console.log(
  `${world}: ${divergences} divergences and ${flaky} intermittent over ${seeds} seeds; wall ${wallSum.toFixed(1)} s against the plans' ${boundSum.toFixed(1)} s (${(wallSum / Math.max(0.001, boundSum)).toFixed(2)}×)`,
);
process.exit(0);
