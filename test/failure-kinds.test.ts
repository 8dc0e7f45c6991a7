// A failed check says why it failed: an assertion (a CheckFailed the check
// raised: the only kind that judges the rule), a timeout (its budget or a
// request's time ran out), transport (no answer) or crash (anything else
// thrown). The self-test counts a fault as caught by an assertion alone.
import { describe, expect, it } from 'vitest';
import { TransportError } from '../src/client/types.js';
import { loadProfile } from '../src/profile/load.js';
import type { FaultDef } from '../src/reference/kit/faults.js';
import type { CheckResult } from '../src/report/results.js';
import { check, defineSuite, type CheckTools } from '../src/runner/check.js';
import { createProgress } from '../src/runner/progress.js';
import { runChecks } from '../src/runner/run.js';
import { caughtBy, failedOtherwise, failedUnasserted, selfTestTable } from './support/selftest.js';

const R = 'GATE-CUST-GET-404' as const;

describe('failure kinds', () => {
  it('assertion, budget timeout, transport, timeout without an answer, crash', async () => {
    const suite = defineSuite({
      service: 'gate',
      section: 'test',
      checks: [
        check({
          name: 'asserts',
          requirements: [R],
          async run(_n, t: CheckTools) {
            t.expect.that(false, 'the rule holds', { requirement: R });
          },
        }),
        check({
          name: 'waits past its budget',
          requirements: [R],
          budgetMs: 150,
          async run(_n, t) {
            await t.sleep(5_000, 'a webhook that never comes');
          },
        }),
        check({
          name: 'gets no answer',
          requirements: [R],
          async run() {
            throw new TransportError('refused', 'connection refused (ECONNREFUSED)', 'http://127.0.0.1:9/v1/customers');
          },
        }),
        check({
          name: 'gets no answer in time',
          requirements: [R],
          async run() {
            throw new TransportError('timeout', 'no answer within 15 s', 'http://127.0.0.1:9/v1/customers');
          },
        }),
        check({
          name: 'throws',
          requirements: [R],
          async run() {
            throw new TypeError("Cannot read properties of undefined (reading 'id')");
          },
        }),
      ],
    });
    const out = await runChecks({
      profile: loadProfile('fixtures/profiles/embedded.json'),
      suites: [{ ...suite, file: 'test/failure-kinds.ts' }],
      depth: 'quick',
      outageAfter: 100,
      progress: createProgress({ live: false, quiet: true }),
    });
    const kinds = Object.fromEntries(out.checks.map((c) => [c.name, `${c.status} ${c.failure?.kind}`]));
    expect(kinds).toEqual({
      asserts: 'failed assertion',
      'waits past its budget': 'failed timeout',
      'gets no answer': 'failed transport',
      'gets no answer in time': 'failed timeout',
      throws: 'failed crash',
    });
    // All but the crash name the check's sole requirement: a judge by requirement alone would have counted four.
    expect(out.checks.map((c) => c.failure?.requirement)).toEqual([R, R, R, R, undefined]);
    const fault: FaultDef = { name: 'a-fault', service: 'gate', requirements: [R], description: 'test', suite: 'conformance' };
    const run = { fault, checks: out.checks };
    expect(caughtBy(run).map((c) => c.name)).toEqual(['asserts']);
    expect(failedUnasserted(run).map((c) => c.name)).toEqual(['waits past its budget', 'gets no answer', 'gets no answer in time']);
    expect(failedOtherwise(run).map((c) => c.name)).toEqual(['throws']);
  }, 30_000);
});

describe('the self-test table', () => {
  const fault = (name: string): FaultDef => ({ name, service: 'gate', requirements: [R], description: name, suite: 'conformance' });
  const failed = (name: string, kind: 'assertion' | 'timeout' | 'crash', requirement: string = R): CheckResult => ({
    name,
    suite: 'conformance',
    file: 'conformance/gate/x.ts',
    requirements: [R],
    status: 'failed',
    durationMs: 1,
    failure: { message: `${kind} failure`, kind, requirement },
  });

  it('says per check: proven by assertion (fault), or not proven and why; a timeout never counts', () => {
    const table = selfTestTable(
      [
        { fault: fault('f-asserted'), checks: [failed('a', 'assertion')] },
        { fault: fault('f-timed-out'), checks: [failed('b', 'timeout')] },
        { fault: fault('f-other-rule'), checks: [failed('c', 'assertion', 'GATE-CUST-LIST')] },
      ],
      ['a', 'b', 'c', 'd'].map((name) => ({ file: 'conformance/gate/x.ts', name })),
    );
    expect(table.missedFaults).toEqual(['f-other-rule', 'f-timed-out']);
    expect(table.unprovenChecks).toEqual(['conformance/gate/x.ts::b', 'conformance/gate/x.ts::c', 'conformance/gate/x.ts::d']);
    expect(table.notCounted).toEqual({ timeout: 1, transport: 0, crash: 0 });
    expect(table.caughtByAnyFailure).toBe(2);
    expect(table.lines).toContain('✓ conformance/gate/x.ts::a — proven by assertion (f-asserted)');
    expect(table.lines).toContain(`✗ conformance/gate/x.ts::b — not proven: f-timed-out: failed by timeout (${R}), not an assertion`);
    expect(table.lines).toContain('✗ conformance/gate/x.ts::c — not proven: f-other-rule: failed on another rule (GATE-CUST-LIST)');
    expect(table.lines).toContain('✗ conformance/gate/x.ts::d — not proven: no seeded fault breaks any of its requirements');
    expect(table.provenByAnyFailure).toBe(2);
    expect(table.lines.at(-2)).toBe(
      "1/3 faults caught by assertion; 1/4 checks proven; failures on a fault's own requirement not counted: 1 timeout, 0 transport, 0 crash (0 counted by timeout)",
    );
  });
});
