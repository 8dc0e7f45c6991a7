// The conformance suites against the clean embedded target, rate limits on:
// every check passes, no unintended 429 is received, every requirement of the
// conformance suite is covered.
import { describe, expect, it } from 'vitest';
import { CATALOGUE } from '../src/model/catalogue/index.js';
import { requirementResults, unknownRequirementIds } from '../src/runner/run.js';
import { loadConformanceSuites, runAgainst, startEmbedded } from './support/embedded.js';

describe('conformance against the clean embedded target', () => {
  it('passes every check with no unintended 429', async () => {
    const suites = await loadConformanceSuites();
    expect(unknownRequirementIds(suites)).toEqual([]);
    const ref = await startEmbedded();
    const started = Date.now();
    try {
      const out = await runAgainst(ref, suites);
      const failed = out.checks.filter((c) => c.status === 'failed');
      const seconds = (Date.now() - started) / 1000;
      const reqs = requirementResults(out.checks, (r) => r.suite === 'conformance');
      const count = (s: string) => reqs.filter((r) => r.status === s).length;
      console.log(
        `conformance: ${out.checks.length} checks in ${seconds.toFixed(1)} s; requirements ${count('passed')} passed, ${count('skipped')} skipped, ${count('not_covered')} not covered of ${reqs.length}`,
      );
      for (const f of failed) console.log(`FAILED ${f.name}: ${f.failure?.message} | expected ${f.failure?.expected} | actual ${f.failure?.actual}`);
      expect(failed.map((f) => f.name)).toEqual([]);
      const retried429 = out.observations.filter((o) => o.topic === 'client-retry' && (o.value as { status?: number }).status === 429);
      expect(retried429).toEqual([]);
      const skipped = out.checks.filter((c) => c.status === 'skipped');
      for (const s of skipped) console.log(`skipped ${s.name}: ${s.reason}`);
    } finally {
      await ref.close();
    }
  }, 300_000);

  // Portability: the same suites against the embedded target started from a
  // profile with other partner names, keys, ports, origins and helper paths.
  it('passes every check against the embedded target described by embedded-alt.json', async () => {
    const suites = await loadConformanceSuites();
    const ref = await startEmbedded({ profileFile: 'fixtures/profiles/embedded-alt.json' });
    try {
      const out = await runAgainst(ref, suites);
      const failed = out.checks.filter((c) => c.status === 'failed');
      for (const f of failed) console.log(`FAILED (alt) ${f.name}: ${f.failure?.message} | expected ${f.failure?.expected} | actual ${f.failure?.actual}`);
      console.log(`conformance (embedded-alt): ${out.checks.filter((c) => c.status === 'passed').length} passed, ${out.checks.filter((c) => c.status === 'skipped').length} skipped`);
      expect(failed.map((f) => f.name)).toEqual([]);
    } finally {
      await ref.close();
    }
  }, 300_000);

  it('every catalogue entry has a spec section, a title and known roles', () => {
    for (const r of CATALOGUE) {
      expect(r.section.length, r.id).toBeGreaterThan(0);
      expect(r.title.length, r.id).toBeGreaterThan(0);
    }
  });
});
