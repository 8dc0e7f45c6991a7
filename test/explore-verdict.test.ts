// explore's verdict holds: the confirming re-run's requests are held back before shrinking; a divergence whose re-run
// could not reach its step stands (failed, "not re-run"); one whose re-run reached the step and did not part is
// intermittent (its requirement unverified, the run INCOMPLETE); a timeout ends explore as every kind (exit 3), a
// rate-limit stop likewise (exit 5), the report written; a family the profile cannot act on is reported, and at
// --depth full one the profile supports that applied no step leaves the run INCOMPLETE.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOracle, type RunningOracle } from '../src/cli/oracle.js';
import { Pacer } from '../src/client/pacer.js';
import { explore, explorationTag } from '../src/explore/explore.js';
import { Budget, MAX_STEP_REQUESTS } from '../src/explore/real.js';
import { rerun, unpartedRerun } from '../src/explore/rerun.js';
import { GetBranding, PatchBranding } from '../src/explore/commands/gate/branding.js';
import { capabilitiesOf, contextOf, explorePartners, sideOf } from '../src/explore/sides.js';
import type { Profile } from '../src/profile/schema.js';
import type { RunningReference } from '../src/reference/server.js';
import { requirementResults, runScope, summarize } from '../src/report/verdict.js';
import type { RunResults } from '../src/report/results.js';
import { createProgress } from '../src/runner/progress.js';
import { viewFor } from '../src/runner/partition.js';
import { EXPLORE_CHECK, exploreKind } from '../src/suites/explore.js';
import type { SuiteOutcome } from '../src/suites/kind.js';
import { cliIn, latestRun } from './support/cli.js';
import { startEmbedded } from './support/embedded.js';
import { misbehaving, type MisbehavingTarget } from './support/exploreProxy.js';

const tmp = mkdtempSync(join(tmpdir(), 'rampart-explore-verdict-'));
let clean: RunningReference;
let oracle: RunningOracle;
beforeAll(async () => {
  clean = await startEmbedded();
  oracle = await startOracle(clean.profile);
});
afterAll(async () => {
  await Promise.all([clean?.close(), oracle?.close()]);
  rmSync(tmp, { recursive: true, force: true });
});

describe('the confirming re-run’s budget', () => {
  it('is held back before shrinking: shrinking never spends it', () => {
    const b = new Budget(100);
    b.charge(60);
    b.holdRerun(20);
    expect(b.shrinking).toBe(true);
    expect(b.affords(100 - 60 - (20 + MAX_STEP_REQUESTS))).toBe(true);
    expect(b.affords(100 - 60 - (20 + MAX_STEP_REQUESTS) + 1)).toBe(false);
    b.charge(100 - 60 - (20 + MAX_STEP_REQUESTS));
    expect(b.canStart()).toBe(false);
    expect(b.rerunBudget().total).toBe(20 + MAX_STEP_REQUESTS);
    expect(b.rerunBudget().affords(20 + MAX_STEP_REQUESTS)).toBe(true);
  });

  it('holds what is left when the budget has less: shrinking then gets nothing', () => {
    const b = new Budget(100);
    b.charge(90);
    b.holdRerun(30);
    expect(b.canStart()).toBe(false);
    expect(b.rerunBudget().total).toBe(10);
  });

  it('a re-run that did not part: intermittent only where it reached the step', () => {
    expect(unpartedRerun(5, 5, false, 30)).toEqual({ outcome: 'did not part' });
    expect(unpartedRerun(3, 5, true, 30)).toMatchObject({
      outcome: 'not re-run',
      why: expect.stringMatching(/^budget: the re-run had 30 requests and stopped at step 3 of 5/),
    });
    expect(unpartedRerun(3, 5, false, 30)).toMatchObject({ outcome: 'not re-run', why: expect.stringMatching(/went another way/) });
  });
});

describe('the confirming re-run itself', () => {
  const with_ = () => {
    const partners = explorePartners(viewFor(clean.profile, 'explore'), 'gate');
    return {
      sides: {
        target: sideOf(clean.profile, 'target', partners, { pacer: new Pacer({ windowScale: 1 }) }),
        oracle: sideOf(oracle.profile, 'oracle', partners),
      },
      can: capabilitiesOf(clean.profile, partners, 'gate'),
      context: contextOf(clean.profile, explorationTag()),
    };
  };
  // Five steps: a PATCH read back, then four reads (the divergence, say, at the fifth).
  const steps = () => [new PatchBranding(0, 'get'), new GetBranding(), new GetBranding(), new GetBranding(), new GetBranding()];

  it('one the budget cannot carry to the divergence’s step is "not re-run: budget" — the finding stands', async () => {
    const b = new Budget(100);
    b.charge(95);
    const got = await rerun(with_(), b, steps(), 5);
    expect(got).toMatchObject({ outcome: 'not re-run', why: expect.stringMatching(/^budget: the re-run had 5 requests and stopped at step 1 of 5/) });
    expect(b.spent).toBeLessThanOrEqual(100);
  }, 60_000);

  it('one that reaches the step and does not part is "did not part" (intermittent)', async () => {
    const got = await rerun(with_(), new Budget(100), steps(), 5);
    expect(got).toEqual({ outcome: 'did not part' });
  }, 60_000);
});

/** The explore kind in this process against `target` (the clean reference its oracle), as the CLI runs it. */
async function runExplore(
  target: Profile,
  opts: { depth?: 'quick' | 'full'; budget: number; seed: number; service?: 'gate' | 'pools'; onLog?: (line: string) => void },
) {
  const out = await exploreKind.run({
    profile: target,
    depth: opts.depth ?? 'quick',
    service: opts.service,
    progress: createProgress({ live: false, quiet: true }),
    signal: new AbortController().signal,
    runDir: tmp,
    oracle: oracle.profile,
    exploreBudget: opts.budget,
    seed: String(opts.seed),
    pacer: new Pacer({ windowScale: target.timing.rateWindowScale }),
    log: (line) => opts.onLog?.(line),
  });
  return { out, judged: judge(out, opts.depth ?? 'quick') };
}

/** The run's verdict over the kind's checks, as `rampart explore` judges it. */
function judge(out: SuiteOutcome, depth: 'quick' | 'full'): RunResults['summary'] {
  const scope = runScope(['explore'], { depth });
  const requirements = requirementResults(out.checks, { kinds: scope.kinds, depth });
  return summarize({
    runId: 'r',
    tool: { name: 'rampart', version: '0' },
    command: 'explore',
    depth,
    scope,
    startedAt: '',
    finishedAt: '',
    profile: { name: 'p', baseUrls: {} },
    environment: { node: '', platform: '', host: '', specVersion: '' },
    requirements,
    checks: out.checks,
    observations: [],
    ...(out.exploration ? { exploration: out.exploration } : {}),
  } as Omit<RunResults, 'summary'>);
}

/** GET /branding answers a colour no PATCH set: a divergence on the branding family's first read-back. */
const repaintBranding = {
  kind: 'rewrite' as const,
  when: (m: string, p: string) => m === 'GET' && p === '/branding',
  body: (j: Record<string, unknown>) => ({ ...j, accent_color: '#0a0b0c' }),
};

describe('a divergence and its re-run', () => {
  let proxy: MisbehavingTarget;
  beforeAll(async () => {
    proxy = await misbehaving(clean.profile);
  });
  afterAll(() => proxy?.close());

  it('one whose re-run reached the step and did not part is intermittent: its requirement unverified, the run INCOMPLETE', async () => {
    proxy.mode = repaintBranding;
    // The target mends itself as the re-run starts: the divergence does not come again.
    const { out, judged } = await runExplore(proxy.profile, {
      service: 'gate',
      budget: 300,
      seed: 3,
      onLog: (l) => {
        if (/running it again/.test(l)) proxy.mode = { kind: 'pass' };
      },
    });
    const rec = out.exploration!;
    expect(rec.findings).toEqual([]);
    expect(rec.flaky?.rerun?.outcome).toBe('did not part');
    const intermittent = out.checks.find((c) => c.status === 'unverified');
    expect(intermittent?.requirements).toEqual(['GATE-BRAND-PATCH-MERGE']);
    expect(out.checks.find((c) => c.name === EXPLORE_CHECK)?.requirements).not.toContain('GATE-BRAND-PATCH-MERGE');
    expect(judged.verdict).toBe('INCOMPLETE');
    expect(judged.unverified).toBe(1);
  }, 120_000);

  it('one whose re-run could not reach the step (a 429 on its way) stands: failed, "not re-run"', async () => {
    proxy.mode = repaintBranding;
    const { out, judged } = await runExplore(proxy.profile, {
      service: 'gate',
      budget: 300,
      seed: 3,
      onLog: (l) => {
        if (/running it again/.test(l)) proxy.mode = { kind: '429', retryAfterSeconds: 3600 };
      },
    });
    const f = out.exploration!.findings[0];
    expect(f?.requirement).toBe('GATE-BRAND-PATCH-MERGE');
    expect(f?.rerun).toMatchObject({ outcome: 'not re-run', why: expect.stringMatching(/rate limited/) });
    const main = out.checks.find((c) => c.name === EXPLORE_CHECK)!;
    expect([main.status, main.requirements]).toEqual(['failed', ['GATE-BRAND-PATCH-MERGE']]);
    expect(main.failure?.message).toMatch(/not re-run .*: the divergence in hand stands/);
    expect(judged.verdict).toBe('NOT CERTIFIED');
  }, 120_000);
});

describe('the families', () => {
  it('one the profile cannot act on is reported with why, never dropped', async () => {
    const noHooks: Profile = {
      ...clean.profile,
      gate: { ...clean.profile.gate, triggers: { ...clean.profile.gate.triggers, configureWebhook: undefined } },
    };
    const partners = explorePartners(viewFor(noHooks, 'explore'));
    const pacer = new Pacer({ windowScale: 1 });
    const out = await explore({
      sides: { target: sideOf(noHooks, 'target', partners, { pacer }), oracle: sideOf(oracle.profile, 'oracle', partners) },
      can: capabilitiesOf(noHooks, partners),
      context: contextOf(noHooks, explorationTag()),
      budget: 40,
      seed: 1,
    });
    expect(out.families['webhook deliveries']).toMatchObject({ sequences: 0, steps: 0, leftOut: expect.stringMatching(/configureWebhook/) });
    expect(Object.keys(out.families)).toContain('pools trades');
  }, 60_000);

  it('at --depth full, one the profile supports that applied no step leaves the run INCOMPLETE; at quick it is only reported', async () => {
    const full = await runExplore(clean.profile, { service: 'gate', depth: 'full', budget: 24, seed: 9 });
    const unwalked = Object.entries(full.out.exploration!.byFamily!).filter(([, f]) => !f.leftOut && f.steps === 0);
    expect(unwalked.length).toBeGreaterThan(0);
    expect(full.out.checks.filter((c) => c.status === 'not_run').map((c) => c.name)).toEqual(unwalked.map(([n]) => `explore: the ${n} family`));
    expect(full.judged.verdict).toBe('INCOMPLETE');
    expect(full.judged.verdictLine).toMatch(/^explore: the profile supports .*, but no sequence of it applied a step/);
    const quick = await runExplore(clean.profile, { service: 'gate', depth: 'quick', budget: 24, seed: 9 });
    expect(quick.judged.verdict).toBe('PASSED');
  }, 120_000);
});

describe('a stop ends explore as it ends every kind', () => {
  const cli = cliIn(tmp);
  let proxy: MisbehavingTarget;
  beforeAll(async () => {
    proxy = await misbehaving(clean.profile);
  });
  afterAll(() => proxy?.close());
  const profileFile = () => {
    const file = join(tmp, `misbehaving-${proxy.seen}.json`);
    writeFileSync(file, JSON.stringify(proxy.profile));
    return file;
  };

  for (const [what, mode, code] of [
    ['a target that stops answering (a timeout)', { kind: 'hang' }, 3],
    ['a target that rate-limits past the budget', { kind: '429', retryAfterSeconds: 3600 }, 5],
  ] as const)
    it(`${what}: exit ${code}, the report written, the explore check not run`, async () => {
      proxy.mode = { kind: 'pass' };
      proxy.after = { requests: proxy.seen + 40, mode };
      const run = await cli(['explore', '--profile', profileFile(), '--service', 'gate', '--seed', '5', '--budget', '120', '--request-timeout', '1'], 120_000);
      expect(run.code, run.stderr).toBe(code);
      const { results } = latestRun(run.reports);
      expect(results.error?.exitCode).toBe(code);
      expect(results.summary.verdict).toBe('INCOMPLETE');
      const c = results.checks.find((x) => x.name === EXPLORE_CHECK);
      expect(c?.status).toBe('not_run');
      expect(c?.reason).toMatch(/^explore stopped after \d+ sequences?: /);
      expect(results.exploration?.stopped?.kind).toBe(code === 3 ? 'outage' : 'rate-limited');
    }, 150_000);
});
