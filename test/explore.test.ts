// rampart explore against the embedded target, the clean embedded reference as its oracle: no divergence on the
// clean target; a sequence fault found, shrunk to a few steps and confirmed by a re-run; `--seed` replays the same
// exploration through the CLI, which exits 1 with the finding in results.json, junit.xml, report.html (the steps and
// both answers side by side); the finding's replay script reproduces it against the faulty target; and a clean
// CLI run is PASSED — partial run (explore only), exit 0.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOracle, type RunningOracle } from '../src/cli/oracle.js';
import { Pacer } from '../src/client/pacer.js';
import { explore, explorationTag, type ExploreOutcome } from '../src/explore/explore.js';
import { capabilitiesOf, contextOf, explorePartners, sideOf } from '../src/explore/sides.js';
import type { Profile } from '../src/profile/schema.js';
import type { RunningReference } from '../src/reference/server.js';
import { viewFor } from '../src/runner/partition.js';
import { cliIn, latestRun } from './support/cli.js';
import { startEmbedded } from './support/embedded.js';

const tmp = mkdtempSync(join(tmpdir(), 'rampart-explore-'));
const FAULT = 'seq-pools-quote-read-cache-survives-reject';
const BUDGET = 300;

let clean: RunningReference;
let faulty: RunningReference;
let oracle: RunningOracle;
afterAll(async () => {
  await Promise.all([clean?.close(), faulty?.close(), oracle?.close()]);
  rmSync(tmp, { recursive: true, force: true });
});
beforeAll(async () => {
  [clean, faulty] = await Promise.all([startEmbedded(), startEmbedded({ faults: [FAULT] })]);
  oracle = await startOracle(clean.profile);
});

/** One exploration of the pools family against `target`, its oracle the clean reference. */
/** The target's pacer, as the CLI's: the embedded target keeps the documented rate windows. */
const pacer = new Pacer({ windowScale: 1 });

function exploreOnce(target: Profile, seed: number, service?: 'gate' | 'pools', budget = BUDGET): Promise<ExploreOutcome> {
  const partners = explorePartners(viewFor(target, 'explore'), service);
  return explore({
    sides: { target: sideOf(target, 'target', partners, { pacer }), oracle: sideOf(oracle.profile, 'oracle', partners) },
    can: capabilitiesOf(target, partners),
    context: contextOf(target, explorationTag()),
    budget,
    seed,
  });
}

const cli = cliIn(tmp);
const latest = latestRun;
const profileFile = (p: Profile, name: string) => {
  const file = join(tmp, `${name}.json`);
  writeFileSync(file, JSON.stringify(p));
  return file;
};

describe('rampart explore', () => {
  it('the clean target: no divergence, none intermittent, on every family, each walked', async () => {
    for (const seed of [11, 12]) {
      // Two explorations inside the explore partner's minute windows (its five keys' Gate share).
      const out = await exploreOnce(clean.profile, seed, undefined, 200);
      expect({ finding: out.finding?.what, intermittent: out.intermittent?.what, crash: out.crash, stopped: out.stopped?.why }).toEqual({
        finding: undefined,
        intermittent: undefined,
        crash: undefined,
        stopped: undefined,
      });
      for (const [name, f] of Object.entries(out.families))
        expect({ name, leftOut: f.leftOut, walked: f.steps > 0 }).toEqual({ name, leftOut: undefined, walked: true });
      expect(out.judged.length).toBeGreaterThan(20);
      expect(Object.keys(out.families).sort()).toEqual([
        'branding',
        'customers',
        'pay-ins',
        'pay-outs',
        'pools quotes',
        'pools trades',
        'sessions',
        'webhook deliveries',
      ]);
      expect(out.spent).toBeGreaterThan(200 / 3);
    }
  }, 240_000);

  let found: { seed: number; out: ExploreOutcome } | undefined;
  it(`a sequence fault (${FAULT}): found, shrunk to at most 6 steps, confirmed, naming its requirement`, async () => {
    for (let seed = 1; seed <= 15 && !found; seed++) {
      const out = await exploreOnce(faulty.profile, seed * 101, 'pools');
      if (out.finding) found = { seed: seed * 101, out };
    }
    expect(found, 'found within 15 seeds').toBeDefined();
    const f = found!.out.finding!;
    expect(f.confirmed).toBe(true);
    expect(f.rerun.outcome).toBe('parted again');
    expect(f.requirement).toBe('POOLS-SQ-REJECT');
    expect(f.steps.length).toBeLessThanOrEqual(6);
    expect(f.steps.length).toBeLessThanOrEqual(f.firstSeenSteps);
  }, 240_000);

  it('--seed replays it through the CLI: exit 1, NOT CERTIFIED, the finding in results.json, junit.xml and report.html; its replay script reproduces it', async () => {
    expect(found).toBeDefined();
    const run = await cli([
      'explore',
      '--profile',
      profileFile(faulty.profile, 'faulty'),
      '--service',
      'pools',
      '--seed',
      String(found!.seed),
      '--budget',
      String(BUDGET),
    ]);
    expect(run.code).toBe(1);
    const { results, junit, html } = latest(run.reports);
    expect(results.summary.verdict).toBe('NOT CERTIFIED');
    const f = results.exploration!.findings[0]!;
    const mine = found!.out.finding!;
    // The same exploration: the same shrunk steps, the same divergence.
    expect(f.steps.map((s) => s.label)).toEqual(mine.steps.map((s) => s.label));
    expect([f.what, f.requirement, f.target, f.oracle]).toEqual([mine.what, mine.requirement, mine.target, mine.oracle]);
    expect(results.checks.find((c) => c.suite === 'explore')?.failure?.requirement).toBe('POOLS-SQ-REJECT');
    expect(junit).toMatch(/<testcase name="explore: sequences of documented operations[^"]*\[POOLS-SQ-REJECT\]"[^>]*>[\s\S]*?<failure /);
    expect(html).toContain('id="exploration"');
    const diverged = html.split('class="diverged"')[1] ?? '';
    expect(diverged).toContain(JSON.stringify(f.target).replace(/"/g, '&quot;').slice(1, -1));
    // The replay script, against the faulty target: its last answer shows what the target answered at the divergence.
    const script = join(tmp, 'replay.sh');
    writeFileSync(script, f.replay.script);
    const pools = faulty.profile.pools!.partners.find((p) => p.reservedFor === 'explore')!;
    const env = Object.fromEntries(f.replay.env.map((name) => [name, pools.secretKey]));
    // Not execFileSync: the target answers from this very process.
    const out = await new Promise<string>((done, fail) =>
      execFile('bash', [script], { env: { ...process.env, ...env }, encoding: 'utf8', timeout: 60_000 }, (err, stdout) => (err ? fail(err) : done(stdout))),
    );
    const lastBody = out.trim().split('\n').at(-1)!;
    expect(JSON.parse(lastBody).status).toBe(f.target);
  }, 300_000);

  it('a clean CLI run: PASSED — partial run (explore only), exit 0, no finding', async () => {
    const run = await cli(['explore', '--profile', profileFile(clean.profile, 'clean'), '--service', 'pools', '--seed', '7', '--budget', '120'], 240_000);
    expect(run.code).toBe(0);
    const { results } = latest(run.reports);
    expect(results.summary.verdict).toBe('PASSED');
    // The requirements its comparisons judged are the run's scope, each passed by the explore check.
    expect(results.summary.verdictLine).toMatch(
      /^partial run \(explore only, service pools\): all \d+ requirements in scope passed; explore: no divergence in \d+ sequences \(\d+ steps, \d+ requirements judged/,
    );
    expect(results.requirements.length).toBe(results.exploration!.judged!.length);
    expect(results.requirements.every((r) => r.status === 'passed' && r.checks.some((c) => c.name.startsWith('explore:')))).toBe(true);
    expect(results.exploration?.findings).toEqual([]);
  }, 240_000);
});
