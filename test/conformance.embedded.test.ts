// The conformance suites against the clean embedded target, rate limits on:
// every requirement of the conformance suite passes (none skipped for want of
// a profile field, none uncovered), and no unintended 429 is received — on the
// embedded profile and on embedded-alt (other names, keys, ports, helper paths).
import { describe, expect, it } from 'vitest';
import { CATALOGUE } from '../src/model/catalogue/index.js';
import { requirementResults, summarize } from '../src/report/verdict.js';
import { unknownRequirementIds } from '../src/runner/run.js';
import { loadConformanceSuites, runAgainst, startEmbedded } from './support/embedded.js';

async function cleanRun(profileFile: string) {
  const suites = await loadConformanceSuites();
  expect(unknownRequirementIds(suites)).toEqual([]);
  const ref = await startEmbedded({ profileFile });
  const started = Date.now();
  try {
    const out = await runAgainst(ref, suites);
    const reqs = requirementResults(out.checks, { kinds: ['conformance'], depth: 'quick' });
    const count = (s: string) => reqs.filter((r) => r.status === s).length;
    console.log(
      `conformance (${profileFile}): ${out.checks.length} checks in ${((Date.now() - started) / 1000).toFixed(1)} s; requirements ${count('passed')} passed, ${count('partial')} partial, ${count('skipped')} skipped, ${count('unverified')} unverified, ${count('not_covered')} not covered of ${reqs.length}`,
    );
    for (const c of out.checks.filter((x) => x.status !== 'passed'))
      console.log(
        `${c.status.toUpperCase()} ${c.name}: ${c.failure ? `${c.failure.requirement}: ${c.failure.message} | expected ${c.failure.expected} | actual ${c.failure.actual}` : c.reason}`,
      );
    return { out, reqs };
  } finally {
    await ref.close();
  }
}

// Both profiles at once (each on a target of its own): the runs are mostly waiting on windows and TTLs.
const PROFILES = ['fixtures/profiles/embedded.json', 'fixtures/profiles/embedded-alt.json'];
let runs: Promise<Awaited<ReturnType<typeof cleanRun>>[]> | undefined;
const runOf = (file: string) => (runs ??= Promise.all(PROFILES.map(cleanRun))).then((all) => all[PROFILES.indexOf(file)]!);

describe.concurrent('conformance against the clean embedded target', () => {
  for (const profileFile of PROFILES) {
    it(`${profileFile}: every conformance requirement passes, no unintended 429`, async () => {
      const { out, reqs } = await runOf(profileFile);
      expect(out.checks.filter((c) => c.status !== 'passed').map((c) => `${c.status} ${c.name}`)).toEqual([]);
      expect(reqs.filter((r) => r.status !== 'passed').map((r) => `${r.status} ${r.id}`)).toEqual([]);
      const base = {
        runId: '',
        tool: { name: 'rampart' as const, version: '' },
        command: 'conformance',
        depth: 'quick' as const,
        startedAt: '',
        finishedAt: '',
        profile: { name: '', baseUrls: {} },
        environment: { node: '', platform: '', host: '', specVersion: '' },
        requirements: reqs,
        checks: out.checks,
        observations: [],
      };
      // A conformance run is a partial run: everything in its scope passed, and only certify can be CERTIFIED.
      expect(summarize(base)).toMatchObject({
        verdict: 'PASSED',
        verdictLine: expect.stringMatching(/^partial run \(conformance only\): all \d+ requirements/),
      });
      const retried429 = out.observations.filter((o) => o.topic === 'client-retry' && (o.value as { status?: number }).status === 429);
      expect(retried429).toEqual([]);
    }, 300_000);
  }

  it('every catalogue entry has a spec section, a title and needs that exist', async () => {
    const { NEEDS } = await import('../src/needs/registry.js');
    for (const r of CATALOGUE) {
      expect(r.section.length, r.id).toBeGreaterThan(0);
      expect(r.title.length, r.id).toBeGreaterThan(0);
      for (const n of r.needs) expect(NEEDS.has(n), `${r.id} needs ${n}`).toBe(true);
    }
  });
});
