// Flakiness is a false failure: the clean conformance suite, N times against
// the embedded target and N times against embedded-alt, several runs at once
// (each on a target of its own), must find 0 failures. Prints every run and the
// totals. Run: npx tsx bench/repeat-conformance.ts [runs per profile, default 20] [at once, default 4]
import { loadProfile } from '../src/profile/load.js';
import { startReference } from '../src/reference/server.js';
import { requirementResults } from '../src/report/verdict.js';
import { createProgress } from '../src/runner/progress.js';
import { loadConformanceSuites, runChecks } from '../src/runner/run.js';

const runs = Number(process.argv[2] ?? 20);
const atOnce = Number(process.argv[3] ?? 4);
const profiles = ['fixtures/profiles/embedded.json', 'fixtures/profiles/embedded-alt.json'];
const suites = await loadConformanceSuites();
const queue = profiles.flatMap((file) => Array.from({ length: runs }, (_, i) => ({ file, i: i + 1 })));
const outcomes: { file: string; i: number; seconds: number; failed: string[]; notPassed: number; checks: number }[] = [];
const t0 = Date.now();

await Promise.all(
  Array.from({ length: atOnce }, async () => {
    for (let job = queue.shift(); job; job = queue.shift()) {
      const ref = await startReference({ profile: loadProfile(job.file), ephemeralPorts: true });
      const started = Date.now();
      try {
        const out = await runChecks({ profile: ref.profile, suites, depth: 'quick', progress: createProgress({ live: false, quiet: true }) });
        const reqs = requirementResults(out.checks, { kinds: ['conformance'], depth: 'quick' });
        const failed = out.checks.filter((c) => c.status === 'failed').map((c) => `${c.name}: ${c.failure?.requirement ?? ''} ${c.failure?.message ?? ''}`);
        const o = {
          file: job.file,
          i: job.i,
          seconds: (Date.now() - started) / 1000,
          failed,
          notPassed: reqs.filter((r) => r.status !== 'passed').length,
          checks: out.checks.length,
        };
        outcomes.push(o);
        console.log(
          `${job.file.replace(/^.*\//, '')} #${o.i}: ${o.checks} checks in ${o.seconds.toFixed(1)} s, ${o.failed.length} failed, ${o.notPassed} requirements not passed`,
        );
        for (const f of failed) console.log(`  FAILED ${f}`);
      } finally {
        await ref.close();
      }
    }
  }),
);

for (const file of profiles) {
  const os = outcomes.filter((o) => o.file === file);
  const secs = os.map((o) => o.seconds).sort((a, b) => a - b);
  console.log(
    `${file}: ${os.length} runs, ${os.reduce((a, o) => a + o.failed.length, 0)} failed checks, ${os.filter((o) => o.notPassed > 0).length} runs with a requirement not passed; run time ${secs[0]?.toFixed(1)}–${secs.at(-1)?.toFixed(1)} s (median ${secs[Math.floor(secs.length / 2)]?.toFixed(1)} s)`,
  );
}
console.log(
  `${outcomes.length} runs, ${atOnce} at once, in ${((Date.now() - t0) / 1000).toFixed(0)} s; failures in total: ${outcomes.reduce((a, o) => a + o.failed.length, 0)}`,
);
process.exitCode = outcomes.some((o) => o.failed.length) ? 1 : 0;
