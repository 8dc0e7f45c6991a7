// t.shared: one check makes a value others read. A maker's failed assertion
// on a rule a reader names (the shared object's creation rule) fails that
// reader with the same evidence, so the rule reads failed; a reader whose own
// rules the maker's failure left unjudged is not run, naming the maker and its
// failure (never unverified: that is for what the specs leave open); a maker
// stopped by the target's rate limit leaves its readers not run under that
// cause, never judged and never printed again (the run prints its cause once).
import { describe, expect, it } from 'vitest';
import { TransportError } from '../src/client/types.js';
import { loadProfile } from '../src/profile/load.js';
import { check, defineSuite, type CheckTools, type RequirementId } from '../src/runner/check.js';
import { CheckFailed, CheckUnverified } from '../src/runner/expect.js';
import type { CheckResult } from '../src/report/results.js';
import { requirementResults } from '../src/report/verdict.js';
import { createProgress } from '../src/runner/progress.js';
import { runChecks } from '../src/runner/run.js';

const R = 'GATE-CUST-GET-404' as const;
const CREATE = 'GATE-CUST-CREATE' as const;

async function run(makerThrows: () => Error, readerNames: RequirementId[] = [R]) {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const suite = defineSuite({
    service: 'gate',
    section: 'test',
    checks: [
      check({
        name: 'makes',
        requirements: [R],
        async run(_n, t: CheckTools) {
          await t.shared('customer', async () => {
            await gate;
            throw makerThrows();
          });
        },
      }),
      check({
        name: 'reads',
        requirements: readerNames,
        async run(_n, t: CheckTools) {
          release();
          await t.shared('customer', async () => 'never made here');
          t.expect.that(true, 'read', { requirement: R });
        },
      }),
    ],
  });
  const out = await runChecks({
    profile: loadProfile('fixtures/profiles/embedded.json'),
    suites: [{ ...suite, file: 'test/shared-fixture.ts' }],
    depth: 'quick',
    outageAfter: 100,
    concurrency: 2,
    progress: createProgress({ live: false, quiet: true }),
  });
  const checks: Record<string, CheckResult | undefined> = Object.fromEntries(out.checks.map((c) => [c.name, c]));
  const requirements = Object.fromEntries(requirementResults(out.checks, { kinds: ['conformance'], depth: 'quick', onlyNamed: true }).map((q) => [q.id, q]));
  return { makes: checks.makes, reads: checks.reads, requirements };
}

describe('t.shared', () => {
  it("a maker's failed assertion on the creation rule a reader names fails that reader with the same evidence: the rule reads failed", async () => {
    const c = await run(() => new CheckFailed('POST /customers answered 500, expected 2xx', { requirement: CREATE, expected: '2xx', actual: '500' }), [CREATE]);
    expect(c.makes!.status).toBe('failed');
    expect(c.reads!.status).toBe('failed');
    expect(c.reads!.failure).toMatchObject({
      kind: 'assertion',
      requirement: CREATE,
      message: 'POST /customers answered 500, expected 2xx (judged while making the shared customer, in the check "makes")',
      expected: '2xx',
      actual: '500',
    });
    // Before: the maker's ids failed while the creation rule its failure was about read unverified.
    expect(c.requirements[CREATE]).toMatchObject({ status: 'failed' });
  });

  it("a reader whose own rules the maker's failure left unjudged is not run, naming the maker and its failure", async () => {
    for (const thrown of [
      () => new CheckFailed('POST /customers answered 500, expected 2xx', { requirement: CREATE }),
      () => new Error('the customer answered 500'),
      () => new TransportError('reset', 'POST /customers: connection reset', 'http://127.0.0.1:9/v1/customers'),
    ]) {
      const c = await run(thrown);
      expect(c.makes!.status).toBe('failed');
      expect(c.reads!.status).toBe('not_run');
      expect(c.reads!.reason).toMatch(/^not run: the shared customer it reads could not be made — the check that made it, "makes", failed: .*(500|reset)/);
    }
  });

  it('a maker that ended unverified passes its reason on: the reader is unverified too', async () => {
    const c = await run(() => new CheckUnverified('the customer list never showed it'));
    expect(c.makes!.status).toBe('unverified');
    expect(c.reads!.status).toBe('unverified');
    expect(c.reads!.reason).toMatch(/the shared customer this check reads could not be made .*never showed it/);
  });

  it('a maker paused by the rate limit leaves the reader not run, not unverified', async () => {
    const c = await run(() => new TransportError('rate-limited', 'rate limited by the target for 3600 s: wait or add keys', 'http://127.0.0.1:9/v1/customers'));
    expect(c.makes!.status).toBe('not_run');
    expect(c.reads!.status).toBe('not_run');
  });
});
