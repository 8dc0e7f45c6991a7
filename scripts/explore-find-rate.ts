// How often rampart explore finds each sequence fault: for each fault (FAULTS=a,b), SEEDS seeds at BUDGET requests
// against the embedded target with that fault, the clean embedded reference as the oracle; FAULTS empty: the clean target.
// DIALECT=everywhere (or a seed) runs the faulty target in that world of the open points (src/reference/dialect.ts).
// NOLIMITS=1: the target's rate limits off and the requests unpaced (a find rate in seconds, not the windows' minutes).
// Run: FAULTS=seq-… SEEDS=5 npx tsx scripts/explore-find-rate.ts (TRACE=rails prints each rails sequence's steps; TRACE=all every family's)
import { loadProfile } from '../src/profile/load.js';
import { startReference } from '../src/reference/server.js';
import { dialectOf, dialectProfile } from '../src/reference/dialect.js';
import { startOracle } from '../src/cli/oracle.js';
import { explorationTag } from '../src/explore/explore.js';
import { exploreLanes } from '../src/explore/lanes.js';
import { defaultBudgetOf, lanesOf, splitBudget } from '../src/explore/budget.js';
import { lanesFrom } from '../src/explore/sides.js';
import { viewFor } from '../src/runner/partition.js';
import { Pacer } from '../src/client/pacer.js';

const faults = (process.env.FAULTS ?? '').split(',').filter(Boolean);
const seedList = process.env.SEED_LIST
  ? process.env.SEED_LIST.split(',').map(Number)
  : Array.from({ length: Number(process.env.SEEDS ?? 5) }, (_, i) => (i + 1) * 1000);
const seeds = seedList.length;
// BUDGET: the whole exploration's (spread over its lanes); unset, the default (src/explore/budget.ts).
const budgetN = Number(process.env.BUDGET ?? 0);
const loaded = loadProfile(process.env.PROFILE ?? 'fixtures/profiles/embedded.json');
const base = process.env.DIALECT ? dialectProfile(loaded, dialectOf(process.env.DIALECT), `dialect ${process.env.DIALECT}`) : loaded;
for (const f of faults.length ? faults : ['']) {
  let found = 0;
  const rows: string[] = [];
  for (const seed of seedList) {
    // A fresh target and oracle per seed: a seed's run fills its keys' hour windows, which the next must not inherit.
    const target = await startReference({
      profile: { ...base, reference: { ...base.reference!, rateLimits: process.env.NOLIMITS ? false : base.reference!.rateLimits } },
      faults: f ? [f] : [],
      ephemeralPorts: true,
    });
    const oracle = await startOracle(target.profile);
    const view = viewFor(target.profile, 'explore');
    const pacer = new Pacer({ windowScale: target.profile.timing.rateWindowScale });
    const t0 = Date.now();
    let sent = 0;
    const perFamily: Record<string, number> = {};
    const plans = lanesOf(view);
    const budgets = splitBudget(plans, process.env.BUDGET ? budgetN : defaultBudgetOf(plans));
    const out = await exploreLanes(
      lanesFrom(target.profile, oracle.profile, plans, budgets, explorationTag(), { target: process.env.NOLIMITS ? {} : { pacer } }),
      {
        seed,
        onExchange: (side) => {
          if (side === 'target') sent++;
        },
        onSequence: (family, steps) => {
          perFamily[family] = (perFamily[family] ?? 0) + sent;
          sent = 0;
          if (process.env.TRACE === 'all' || process.env.TRACE === family) console.log(`    ${family}: ${steps.join(' ; ')}`);
          else if (process.env.TRACE === 'brief') console.log(`    ${family}: ${steps.length} steps`);
        },
      },
    );
    const fd = out.finding ?? out.intermittent;
    if (out.finding) found++;
    rows.push(
      `  seed ${seed}: ${fd ? `${out.finding ? 'FOUND' : 'intermittent'} ${fd.steps.length} steps [${fd.requirement}] ${fd.what} | ${fd.steps.map((x) => x.label).join(' ; ')}` : out.crash ? `CRASH ${out.crash.slice(0, 300)}` : out.stopped ? `stopped ${out.stopped.why}` : 'none'} (spent ${out.spent}${out.foundAfter !== undefined ? `, found after ${out.foundAfter}` : ''}, ${out.sequences} seq, ${((Date.now() - t0) / 1000).toFixed(1)} s)${
        process.env.TRACE
          ? ` requests by family: ${JSON.stringify(perFamily)}; small interactions (walked/tried/total): ${Object.entries(out.families)
              .map(([n, f]) => `${n} ${f.pairs.walked}/${f.pairs.tried}/${f.pairs.total}`)
              .join(', ')}`
          : ''
      }`,
    );
    await oracle.close();
    await target.close();
  }
  console.log(`${f || 'clean'}: ${found}/${seeds}\n${rows.join('\n')}`);
}
