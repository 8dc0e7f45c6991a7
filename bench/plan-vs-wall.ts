// The plan's lower bound beside the wall of the run it planned, measured side by side in one run: `rampart plan
// --json` first (told the round trip with --rtt where the world has one), then the same `rampart certify` (or
// `explore`) as a child process, against the embedded target served here — the default profile, or one Gate key and
// one pools partner (--one-key [scale], default ×0.1). Prints the ratio wall / plan for each part the plan names.
// Run: npx tsx bench/plan-vs-wall.ts [--one-key [scale]] [--for certify|explore] [--rtt MS] [--budget N]
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadProfile } from '../src/profile/load.js';
import { oneKeyProfile } from '../src/plan/oneKey.js';
import type { RunResults } from '../src/report/results.js';
import { startReference } from '../src/reference/server.js';

const args = process.argv.slice(2);
const opt = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const oneKey = args.includes('--one-key');
const scale = Number(opt('--one-key') ?? 0.1) || 0.1;
const command = opt('--for') ?? 'certify';
const rtt = opt('--rtt');
const budget = opt('--budget');

const base = loadProfile('fixtures/profiles/embedded.json');
const profile = oneKey ? oneKeyProfile(base, { rateWindowScale: scale }) : base;
const ref = await startReference({ profile, ephemeralPorts: true });
const dir = mkdtempSync(join(tmpdir(), 'rampart-plan-vs-wall-'));
try {
  const file = join(dir, 'profile.json');
  writeFileSync(file, JSON.stringify(ref.profile));
  // Async: the target answers from this very process.
  const cli = (a: string[]) =>
    new Promise<{ status: number | null; stdout: string }>((done) =>
      execFile(process.execPath, ['bin/rampart.js', ...a], { env: { ...process.env, CI: '1' }, maxBuffer: 64 * 1024 * 1024 }, (err, stdout) =>
        done({ status: err ? ((err as { code?: number }).code ?? 1) : 0, stdout: String(stdout) }),
      ),
    );
  const extra = [...(budget ? ['--budget', budget] : [])];
  const plan = JSON.parse((await cli(['plan', '--json', '--for', command, '--profile', file, ...(rtt ? ['--rtt', rtt] : []), ...extra])).stdout) as {
    lowerBoundSeconds: number;
    byKind: Record<string, number>;
    scenarios: Record<string, number>;
  };
  const t0 = Date.now();
  const run = await cli([command, '--profile', file, '--reports-dir', join(dir, 'reports'), ...extra]);
  const wall = (Date.now() - t0) / 1000;
  const r = JSON.parse(readFileSync(join(realpathSync(join(dir, 'reports', 'latest')), 'results.json'), 'utf8')) as RunResults;
  console.log(
    `${command}${oneKey ? ` one key ×${scale}` : ''}: exit ${run.status}, ${r.summary.verdict}; wall ${wall.toFixed(1)} s against a plan of ${plan.lowerBoundSeconds} s: ${(wall / plan.lowerBoundSeconds).toFixed(2)}×`,
  );
  for (const [kind, part] of Object.entries(r.plan?.kinds ?? {}))
    console.log(`  ${kind}: wall ${part.wallSeconds} s, planned ${part.plannedSeconds} s, spent bound ${part.spentSeconds ?? '—'} s`);
  for (const [name, part] of Object.entries(r.plan?.scenarios ?? {}))
    console.log(`  load ${name}: wall ${part.wallSeconds ?? '—'} s, planned ${part.plannedSeconds} s`);
} finally {
  await ref.close();
  rmSync(dir, { recursive: true, force: true });
}
process.exit(0);
