// `rampart certify` against the embedded target, as `npm start` runs it, beside
// its lower bound: the longest chain of what must run in turn — for each suite
// kind the time the documented rate windows and waits force for what it sent
// (conformance, chaos) or its scenarios' mandatory durations (load), kinds on
// disjoint partners running at once. Measured side by side in one run.
// Run: npx tsx bench/certify-budget.ts [extra certify args]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunResults } from '../src/report/results.js';

const reports = mkdtempSync(join(tmpdir(), 'rampart-certify-budget-'));
const t0 = Date.now();
const run = spawnSync(process.execPath, ['bin/rampart.js', 'certify', '--reports-dir', reports, ...process.argv.slice(2)], {
  encoding: 'utf8',
  env: { ...process.env, CI: '1' },
});
const wall = (Date.now() - t0) / 1000;
try {
  const results = JSON.parse(readFileSync(join(realpathSync(join(reports, 'latest')), 'results.json'), 'utf8')) as RunResults;
  const s = results.summary;
  const bound = results.plan?.spentLowerBoundSeconds ?? results.plan?.lowerBoundSeconds ?? NaN;
  const byKind = (k: string) => results.checks.filter((c) => c.suite === k).reduce((a, c) => Math.max(a, c.durationMs), 0) / 1000;
  console.log(`certify exit ${run.status}: ${s.verdict} — ${s.verdictLine}`);
  console.log(
    `checks: ${s.checks.passed} passed, ${s.checks.failed} failed, ${s.checks.skipped} skipped, ${s.checks.unverified} unverified, ${s.checks.notRun} not run`,
  );
  console.log(
    `longest check per kind: conformance ${byKind('conformance').toFixed(1)} s, chaos ${byKind('chaos').toFixed(1)} s, load ${byKind('load').toFixed(1)} s`,
  );
  console.log(`planned lower bound ${results.plan?.lowerBoundSeconds} s; spent lower bound ${bound} s; requests per requirement ${s.requestsPerRequirement}`);
  console.log(`certify ratio ${(wall / bound).toFixed(2)} wall ${wall.toFixed(1)} s bound ${bound} s`);
} finally {
  rmSync(reports, { recursive: true, force: true });
}
process.exitCode = run.status ?? 1;
