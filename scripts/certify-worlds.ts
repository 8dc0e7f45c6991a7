// `rampart certify` against correct targets that read the specs their own way, as a partner runs it: the embedded
// reference served as a dialect world (`rampart serve --dialect SEED --write-profile F`, one choice per open point
// drawn from SEED, or "everywhere": every point other than the reference's own), certify reaching it through the
// written profile only. Any failed requirement here is a false failure. Prints per world its verdict, wall, failed
// requirements and explore's divergences.
// Run: WORLDS=everywhere,1,2,3 npx tsx scripts/certify-worlds.ts   (default: everywhere and draws 1..10)
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const worlds = (process.env.WORLDS ?? ['everywhere', ...Array.from({ length: 10 }, (_, i) => String(i + 1))].join(',')).split(',');
const dir = mkdtempSync(join(tmpdir(), 'rampart-certify-worlds-'));
const bin = join(import.meta.dirname, '..', 'bin', 'rampart.js');

/** Serve one world; resolves once its profile is written (the harness's only way in). */
function serve(seed: string): Promise<{ profile: string; stop(): void }> {
  const profile = join(dir, `world-${seed}.json`);
  const child = spawn(process.execPath, [bin, 'serve', '--dialect', seed, '--write-profile', profile], { stdio: ['ignore', 'pipe', 'ignore'] });
  return new Promise((done, fail) => {
    let out = '';
    child.stdout.on('data', (b: Buffer) => {
      out += b.toString();
      if (out.includes('Ctrl-C to stop') && existsSync(profile)) done({ profile, stop: () => child.kill('SIGTERM') });
    });
    child.on('exit', (code) => fail(new Error(`rampart serve --dialect ${seed} exited ${code}: ${out}`)));
  });
}

function certify(profile: string, reports: string): Promise<number> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [bin, 'certify', '--profile', profile, '--reports-dir', reports], { stdio: ['ignore', 'ignore', 'inherit'] });
    child.on('exit', (code) => done(code ?? -1));
  });
}

const lines: string[] = [];
for (const seed of worlds) {
  const world = await serve(seed);
  const reports = join(dir, `reports-${seed}`);
  const t0 = Date.now();
  const code = await certify(world.profile, reports);
  world.stop();
  const results = JSON.parse(readFileSync(join(realpathSync(join(reports, 'latest')), 'results.json'), 'utf8'));
  const failed = (results.requirements as { id: string; status: string }[]).filter((r) => r.status === 'failed').map((r) => r.id);
  const explore = (results.checks as { suite: string; status: string; failure?: { message: string } }[]).filter((c) => c.suite === 'explore');
  const diverged = explore.filter((c) => c.status === 'failed').map((c) => c.failure?.message.split('\n')[0]);
  const line = `dialect ${seed}: exit ${code}, ${results.summary.verdict} ${((Date.now() - t0) / 1000).toFixed(1)} s; requirements ${results.summary.passed} passed, ${failed.length} failed${failed.length ? ` (${failed.join(', ')})` : ''}; explore ${diverged.length ? `diverged: ${diverged.join(' | ')}` : 'no divergence'}`;
  console.log(line);
  lines.push(line);
}
console.log(`\n${lines.join('\n')}\nreports under ${dir}`);
