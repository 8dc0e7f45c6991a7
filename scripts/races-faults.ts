// The closing note's race-fault table (issue 44): for every race fault of the embedded target (suite 'races'), how
// often `rampart races` finds it over seeds 1..N (its families only, each seed a fresh embedded world with the fault
// on), and, with --fixed, whether the fixed checks and explore miss it: `rampart conformance --fault` (failed checks)
// and `rampart explore --fault` over a couple of seeds (divergences). One heavy process at a time.
// Run: npx tsx scripts/races-faults.ts [--seeds 5] [--fault NAME …] [--fixed] [--explore-seeds 2]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ALL_FAULTS } from '../src/reference/faults.js';
import type { RunResults } from '../src/report/results.js';
import { RACE_FAMILIES } from '../src/races/families/index.js';
import { startEmbedded } from '../test/support/embedded.js';
import { racesAgainst } from '../test/support/races.js';

const args = process.argv.slice(2);
const opt = (name: string, d?: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : d;
};
const seeds = Number(opt('--seeds', '5'));
const exploreSeeds = Number(opt('--explore-seeds', '2'));
const only = args.flatMap((a, i) => (args[i - 1] === '--fault' ? [a] : []));
const faults = ALL_FAULTS.filter((f) => f.suite === 'races' && (!only.length || only.includes(f.name)));

/** A CLI run's failed checks (results.json), in a scratch reports dir. */
function cli(argv: string[]): { exit: number; failed: string[]; verdict: string } {
  const dir = mkdtempSync(join(tmpdir(), 'rampart-races-faults-'));
  try {
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...argv, '--reports-dir', dir], {
      encoding: 'utf8',
      env: { ...process.env, CI: '1' },
    });
    const results = JSON.parse(readFileSync(join(realpathSync(join(dir, 'latest')), 'results.json'), 'utf8')) as RunResults;
    return {
      exit: r.status ?? 1,
      failed: results.checks.filter((c) => c.status === 'failed').map((c) => `${c.name} [${c.failure?.requirement ?? ''}]`),
      verdict: results.summary.verdict,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

for (const f of faults) {
  const families = RACE_FAMILIES.filter((x) => x.requirements.some((id) => f.requirements.includes(id))).map((x) => x.id);
  let found = 0;
  const what: string[] = [];
  for (let seed = 1; seed <= seeds; seed++) {
    const world = await startEmbedded({ faults: [f.name] });
    try {
      const { races } = await racesAgainst(world.profile, { seed, families, faults: [f.name] });
      if (races.findings.length) found++;
      what.push(races.findings[0]?.requirement ?? '-');
    } finally {
      await world.close();
    }
  }
  let fixed = '';
  if (args.includes('--fixed')) {
    const conf = cli(['conformance', '--fault', f.name]);
    const expl = Array.from({ length: exploreSeeds }, (_, i) => cli(['explore', '--fault', f.name, '--seed', String(i + 1)]));
    fixed = ` | conformance --fault: ${conf.failed.length} failed${conf.failed.length ? ` (${conf.failed.slice(0, 2).join('; ')})` : ''} | explore --fault, ${exploreSeeds} seeds: ${expl.filter((e) => e.failed.length).length} parted`;
  }
  console.log(`${f.name} [${f.requirements.join(', ')}] → races found on ${found} of ${seeds} seeds (${families.join(', ')}; ${what.join(' ')})${fixed}`);
}
