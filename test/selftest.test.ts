// Proven able to fail: for every seeded fault of the embedded target, the
// conformance checks naming the fault's requirements run against the target
// with that fault on, and an assertion of one of them must fail naming one of
// the fault's own requirement ids (a timeout, a request without an answer or a
// crash is shown and never counted). Every conformance check must be failed that way by some
// fault; every catalogue requirement has a fault or a reviewed reason why no
// fault can break it (src/reference/faultless.ts).
import { describe, expect, it } from 'vitest';
import { CATALOGUE } from '../src/model/catalogue/index.js';
import { ALL_FAULTS } from '../src/reference/faults.js';
import { FAULTLESS } from '../src/reference/faultless.js';
import { conformanceFaultsOf, conformanceSelfTest } from './support/selftest.js';

// Conformance faults, and faults of another suite that also break a conformance requirement (a double trade
// under a transact race): the conformance checks must catch those too.
const conformanceIds = new Set<string>(CATALOGUE.filter((r) => (r.suite ?? 'conformance') === 'conformance').map((r) => r.id));
const conformanceFaults = conformanceFaultsOf(ALL_FAULTS, conformanceIds);
// Fault runs mostly wait on windows and TTLs: eight at once keep two cores busy.
const PARALLEL = 8;

describe('seeded faults', () => {
  it('every fault names catalogue ids; every requirement has a fault or a reviewed reason why none can exist', () => {
    const known = new Set<string>(CATALOGUE.map((r) => r.id));
    expect(ALL_FAULTS.flatMap((f) => f.requirements.filter((id) => !known.has(id)).map((id) => `${f.name} → ${id}`))).toEqual([]);
    const names = ALL_FAULTS.map((f) => f.name);
    expect(names.length).toBe(new Set(names).size);
    const broken = new Set<string>(ALL_FAULTS.flatMap((f) => f.requirements));
    const faultless = new Map(FAULTLESS.map((f) => [f.id as string, f.reason]));
    expect(CATALOGUE.filter((r) => !broken.has(r.id) && !faultless.has(r.id)).map((r) => r.id)).toEqual([]);
    // The reviewed list holds only what no fault breaks, each with its reason, and only catalogue ids.
    expect(FAULTLESS.filter((f) => broken.has(f.id)).map((f) => f.id)).toEqual([]);
    expect(FAULTLESS.filter((f) => !known.has(f.id) || f.reason.length < 20).map((f) => f.id)).toEqual([]);
    console.log(`requirements without a seeded fault (reviewed):\n${FAULTLESS.map((f) => `- ${f.id}: ${f.reason}`).join('\n')}`);
  });

  it(`every conformance fault (${conformanceFaults.length}) makes an assertion fail naming one of its requirements, and every conformance check is proven that way`, async () => {
    const { runs, table, total } = await conformanceSelfTest('fixtures/profiles/embedded.json', PARALLEL);
    console.log(
      `${table.lines.join('\n')}\nconformance: ${runs.length - table.missedFaults.length}/${runs.length} faults caught by assertion; ${total - table.unprovenChecks.length}/${total} checks proven`,
    );
    expect(table.missedFaults).toEqual([]);
    expect(table.unprovenChecks).toEqual([]);
  }, 1_200_000);
});
