// The conformance self-test in the second world (embedded-alt: other ports,
// names, uuid ids, hex keys, controls under another prefix, a compressed
// clock), reached only through its profile: every seeded fault is caught there
// too, by an assertion failing on one of the fault's own requirements (never a
// timeout, no answer or a crash), and every conformance check is proven that
// way — the same code, another target.
import { describe, expect, it } from 'vitest';
import { conformanceSelfTest } from './support/selftest.js';

describe('seeded faults under embedded-alt', () => {
  it('every conformance fault is caught naming its requirement, and every conformance check is proven, in the second world', async () => {
    const { runs, table, total } = await conformanceSelfTest('fixtures/profiles/embedded-alt.json', 8);
    console.log(
      `embedded-alt: ${runs.length - table.missedFaults.length}/${runs.length} faults caught by assertion; ${total - table.unprovenChecks.length}/${total} checks proven`,
    );
    expect(table.missedFaults).toEqual([]);
    expect(table.unprovenChecks).toEqual([]);
  }, 1_200_000);
});
