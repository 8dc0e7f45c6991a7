// t.shared: one check makes a value others read. A reader whose maker failed
// ends unverified, naming the maker's reason; a maker stopped by the target's
// rate limit leaves its readers not run under that cause, never judged and
// never printed again (the run prints its cause once).
import { describe, expect, it } from 'vitest';
import { TransportError } from '../src/client/types.js';
import { loadProfile } from '../src/profile/load.js';
import { check, defineSuite, type CheckTools } from '../src/runner/check.js';
import { createProgress } from '../src/runner/progress.js';
import { runChecks } from '../src/runner/run.js';

const R = 'GATE-CUST-GET-404' as const;

async function run(makerThrows: () => Error) {
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
        requirements: [R],
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
  return Object.fromEntries(out.checks.map((c) => [c.name, c]));
}

describe('t.shared', () => {
  it("a reader whose maker failed ends unverified with the maker's reason", async () => {
    const c = await run(() => new Error('the customer answered 500'));
    expect(c.makes!.status).toBe('failed');
    expect(c.reads!.status).toBe('unverified');
    expect(c.reads!.reason).toMatch(/the shared customer this check reads could not be made .*answered 500/);
  });

  it('a maker paused by the rate limit leaves the reader not run, not unverified', async () => {
    const c = await run(() => new TransportError('rate-limited', 'rate limited by the target for 3600 s: wait or add keys', 'http://127.0.0.1:9/v1/customers'));
    expect(c.makes!.status).toBe('not_run');
    expect(c.reads!.status).toBe('not_run');
  });
});
