// Developer aid: the self-test under another profile of the embedded target
// (the second world, embedded-alt.json): every seeded fault runs the checks
// naming its requirements and is judged as test/selftest.test.ts and
// test/chaos.selftest.test.ts judge it — caught only when a check fails naming
// one of the fault's own requirement ids.
// npx tsx scripts/selftest-profile.ts fixtures/profiles/embedded-alt.json [--kind conformance|chaos] [--fault NAME…]
import { installChaos } from '../src/chaos/kit.js';
import { startToxiproxy, type ToxiproxyHandle } from '../src/chaos/toxiproxy.js';
import { ALL_FAULTS } from '../src/reference/faults.js';
import { createProgress } from '../src/runner/progress.js';
import { loadSuites, runChecks } from '../src/runner/run.js';
import { onlyChecksFor, startEmbedded } from '../test/support/embedded.js';
import { conformanceFaultsOf, selfTestTable, type FaultRun } from '../test/support/selftest.js';

const args = process.argv.slice(2);
const opt = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args.splice(i, 2)[1] : undefined;
};
const kind = (opt('--kind') ?? 'conformance') as 'conformance' | 'chaos';
const only: string[] = [];
for (let f = opt('--fault'); f; f = opt('--fault')) only.push(f);
const profileFile = args[0] ?? 'fixtures/profiles/embedded-alt.json';
/** Faults at once: each starts its own target (and the machine is shared). */
const PARALLEL = 3;

const suites = await loadSuites(kind);
const covered = new Set<string>(suites.flatMap((s) => s.checks.flatMap((c) => c.requirements)));
// Conformance: the same faults as test/selftest.test.ts (other suites' faults that break a conformance rule too).
const faults = only.length
  ? ALL_FAULTS.filter((f) => only.includes(f.name))
  : kind === 'chaos'
    ? ALL_FAULTS.filter((f) => f.requirements.some((id) => covered.has(id)))
    : conformanceFaultsOf(ALL_FAULTS, covered);
let tp: ToxiproxyHandle | undefined;
if (kind === 'chaos') {
  const started = await startToxiproxy();
  if ('missing' in started) throw new Error(started.missing);
  tp = started;
}
const runs: FaultRun[] = [];
const queue = [...faults];
const startedAt = Date.now();
try {
  await Promise.all(
    Array.from({ length: PARALLEL }, async () => {
      for (let f = queue.shift(); f; f = queue.shift()) {
        const ref = await startEmbedded({ profileFile, faults: [f.name] });
        try {
          const out = await runChecks({
            profile: ref.profile,
            suites: onlyChecksFor(suites, f.requirements),
            depth: 'quick',
            kind,
            concurrency: kind === 'chaos' ? 8 : 12,
            progress: createProgress({ live: false, quiet: true }),
            ...(tp ? { prepare: (run: Parameters<typeof installChaos>[0]) => installChaos(run, tp!) } : {}),
          });
          runs.push({ fault: f, checks: out.checks });
        } finally {
          await ref.close();
        }
      }
    }),
  );
} finally {
  await tp?.close();
}
const all = suites.flatMap((s) => s.checks.filter((c) => c.depth !== 'full').map((c) => ({ file: s.file, name: c.name })));
const table = selfTestTable(runs, all);
for (const l of table.lines.filter((x) => x.startsWith('MISSED'))) console.log(l);
console.log(
  `${profileFile} (${kind}): ${runs.length - table.missedFaults.length}/${runs.length} faults caught; ${only.length ? '' : `${all.length - table.unprovenChecks.length}/${all.length} checks proven; `}${((Date.now() - startedAt) / 1000).toFixed(0)} s`,
);
if (!only.length) for (const c of table.unprovenChecks) console.log(`unproven: ${c}`);
process.exitCode = table.missedFaults.length ? 1 : 0;
