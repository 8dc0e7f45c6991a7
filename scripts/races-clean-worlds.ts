// rampart races against correct targets, for the closing note (issue 44): the embedded world, the second world
// (embedded-alt.json), the dialect world (every open point its second choice: startDialect('everywhere')) and the
// field world (the embedded target as a remote sandbox: 100 ± 30 ms each way, its own clock, a lived-in history),
// SEEDS seeds each, every seed a fresh world. Any burst no serial order explains here is a false failure; a family
// skipped or unverified is said with its reason.
// Run: npx tsx scripts/races-clean-worlds.ts [--seeds 20] [--world embedded|alt|dialect|field …]
import type { Profile } from '../src/profile/schema.js';
import { startDialect, startEmbedded } from '../test/support/embedded.js';
import { startFieldWorld } from '../test/support/fieldWorld.js';
import { racesAgainst } from '../test/support/races.js';

const args = process.argv.slice(2);
const seedsAt = args.indexOf('--seeds');
const seeds = seedsAt >= 0 ? Number(args[seedsAt + 1]) : 20;
const asked = args.flatMap((a, i) => (args[i - 1] === '--world' ? [a] : []));
const WORLDS = ['embedded', 'alt', 'dialect', 'field'] as const;
type World = (typeof WORLDS)[number];

async function start(world: World): Promise<{ profile: Profile; close(): Promise<void> }> {
  if (world === 'field') return startFieldWorld({ clockOffsetSeconds: 2, history: { sessions: 30, customers: 15, trades: 60, deliveries: 20 } });
  if (world === 'alt') return startEmbedded({ profileFile: 'fixtures/profiles/embedded-alt.json' });
  if (world === 'dialect') return startDialect('everywhere');
  return startEmbedded();
}

const totals: string[] = [];
for (const world of asked.length ? (asked as World[]) : WORLDS) {
  let findings = 0;
  let bursts = 0;
  let orders = 0;
  const notJudged = new Map<string, number>();
  const t0 = Date.now();
  for (let seed = 1; seed <= seeds; seed++) {
    const w = await start(world);
    try {
      const { races, outcome } = await racesAgainst(w.profile, { seed });
      bursts += races.bursts;
      orders += races.ordersTried;
      findings += races.findings.length;
      for (const f of races.findings) console.log(`${world} seed ${seed}: FINDING ${f.family} [${f.requirement}] ${f.what}`);
      for (const c of outcome.checks.filter((x) => x.status !== 'passed' && x.status !== 'failed'))
        notJudged.set(`${c.status}: ${c.name} — ${c.reason}`, (notJudged.get(`${c.status}: ${c.name} — ${c.reason}`) ?? 0) + 1);
    } finally {
      await w.close();
    }
  }
  const line = `${world}: ${findings} findings over ${seeds} seeds (${bursts} bursts, ${orders} serial orders replayed; ${((Date.now() - t0) / 1000 / seeds).toFixed(1)} s a seed)`;
  console.log(line);
  for (const [why, n] of notJudged) console.log(`  ${n}× ${why}`);
  totals.push(line);
}
console.log(`\n${totals.join('\n')}`);
