// The conformance run against the embedded target (rate limits on), beside
// its lower bound — the time the documented Gate windows force for the
// requests each key had to send, or the longest documented wait inside one
// check, whichever is larger — and the requests it spent per requirement
// asserted. With --one-key, on the profile a partner really holds (one Gate
// key, one pools partner) at the declared rateWindowScale (default 0.1).
// Run: npx tsx bench/conformance-budget.ts [--one-key [scale]]
import { loadProfile } from '../src/profile/load.js';
import { oneKeyProfile } from '../src/plan/oneKey.js';
import { planRun } from '../src/plan/plan.js';
import { spentLowerBound } from '../src/plan/lowerBound.js';
import { startReference } from '../src/reference/server.js';
import { requirementResults } from '../src/report/verdict.js';
import { createProgress } from '../src/runner/progress.js';
import { loadConformanceSuites, runChecks } from '../src/runner/run.js';

const i = process.argv.indexOf('--one-key');
const base = loadProfile('fixtures/profiles/embedded.json');
const profile = i >= 0 ? oneKeyProfile(base, { rateWindowScale: Number(process.argv[i + 1] ?? 0.1) || 0.1 }) : base;
const ref = await startReference({ profile, ephemeralPorts: true });
try {
  const plan = await planRun(ref.profile, { kinds: ['conformance'], depth: 'quick' });
  const suites = await loadConformanceSuites();
  const started = Date.now();
  const out = await runChecks({ profile: ref.profile, suites, depth: 'quick', progress: createProgress({ live: false, quiet: true }) });
  const ms = Date.now() - started;
  const reqs = requirementResults(out.checks, { kinds: ['conformance'], depth: 'quick' });
  const asserted = reqs.filter((r) => r.status === 'passed' || r.status === 'failed').length;
  const lb = spentLowerBound(out.stats, ref.profile.timing.rateWindowScale);
  const gate = out.stats.requests.filter((r) => r.service === 'gate').length;
  const pools = out.stats.requests.length - gate;
  const by = (s: string) => out.checks.filter((c) => c.status === s).length;
  console.log(`profile ${ref.profile.name}: ${ref.profile.gate.partners.length} gate partners, rate windows ×${ref.profile.timing.rateWindowScale}`);
  console.log(
    `conformance run: ${(ms / 1000).toFixed(1)} s for ${out.checks.length} checks (${by('passed')} passed, ${by('failed')} failed, ${by('skipped')} skipped, ${by('unverified')} unverified)`,
  );
  console.log(
    `planned lower bound: ${plan.lowerBoundSeconds} s; spent lower bound: ${(lb.boundMs / 1000).toFixed(1)} s (rate windows ${(lb.rateMs / 1000).toFixed(1)} s on ${lb.busiestKey || 'no key'}; longest documented wait ${(lb.waitMs / 1000).toFixed(1)} s)`,
  );
  console.log(`ratio run / lower bound: ${(ms / Math.max(1, lb.boundMs)).toFixed(2)}`);
  console.log(
    `requests: ${gate} gate + ${pools} pools = ${gate + pools}; ${((gate + pools) / Math.max(1, asserted)).toFixed(2)} per requirement asserted (${asserted}); gate alone ${(gate / Math.max(1, asserted)).toFixed(2)}`,
  );
} finally {
  await ref.close();
}
