// Developer aid: run the checks of some suite files against a fresh embedded
// target (optionally with seeded faults or another profile) and print each
// result. npx tsx scripts/dev-run.ts conformance/gate/sessions.ts [--fault NAME] [--profile FILE] [--dialect SEED|everywhere] [--grep TEXT] [--kind chaos]
// --dialect builds the world on the profile: one choice per open point of the specs (src/reference/dialect.ts).
import { relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { installChaos } from '../src/chaos/kit.js';
import { startToxiproxy } from '../src/chaos/toxiproxy.js';
import { loadProfile } from '../src/profile/load.js';
import { dialectOf, dialectProfile } from '../src/reference/dialect.js';
import { startReference } from '../src/reference/server.js';
import { requirementResults } from '../src/report/verdict.js';
import type { SuiteDef } from '../src/runner/check.js';
import { createProgress } from '../src/runner/progress.js';
import { runChecks, type LoadedSuite } from '../src/runner/run.js';

const args = process.argv.slice(2);
const opt = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args.splice(i, 2)[1] : undefined;
};
const faults: string[] = [];
for (let f = opt('--fault'); f; f = opt('--fault')) faults.push(f);
const profileFile = opt('--profile') ?? 'fixtures/profiles/embedded.json';
const grep = opt('--grep');
const dialect = opt('--dialect');
const kind = (opt('--kind') ?? (args.some((a) => a.startsWith('chaos/')) ? 'chaos' : 'conformance')) as 'conformance' | 'chaos';
const suites: LoadedSuite[] = [];
for (const f of args) {
  const mod = (await import(pathToFileURL(resolve(f)).href)) as { default: SuiteDef };
  suites.push({ ...mod.default, file: relative(process.cwd(), resolve(f)) });
}
const base = loadProfile(profileFile);
const ref = await startReference({ profile: dialect ? dialectProfile(base, dialectOf(dialect)) : base, faults, ephemeralPorts: true });
const tp = kind === 'chaos' ? await startToxiproxy() : undefined;
const started = Date.now();
try {
  const out = await runChecks({
    profile: ref.profile,
    suites,
    kind,
    depth: 'quick',
    grep,
    progress: createProgress({ live: false }),
    ...(tp && !('missing' in tp) ? { prepare: (run: Parameters<typeof installChaos>[0]) => installChaos(run, tp) } : {}),
  });
  for (const c of out.checks.filter((x) => x.status === 'failed'))
    console.log(
      `FAILED ${c.name}\n  ${c.failure?.requirement ?? '(no requirement)'}: ${c.failure?.message}\n  expected ${c.failure?.expected}\n  actual ${c.failure?.actual}`,
    );
  const reqs = requirementResults(out.checks, { kinds: [kind], depth: 'quick', onlyNamed: true });
  const by = (s: string) => reqs.filter((r) => r.status === s).length;
  console.log(
    `${out.checks.length} checks in ${((Date.now() - started) / 1000).toFixed(1)} s; requirements: ${by('passed')} passed, ${by('failed')} failed, ${by('partial')} partial, ${by('skipped')} skipped, ${by('unverified')} unverified`,
  );
  process.exitCode = out.checks.some((c) => c.status === 'failed') ? 1 : 0;
} finally {
  await ref.close();
  if (tp && !('missing' in tp)) await tp.close();
}
