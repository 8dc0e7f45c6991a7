// Proven able to fail: for every seeded fault of the embedded target, the
// conformance checks naming the fault's requirements run against the target
// with that fault on, and at least one of them must fail.
import { describe, expect, it } from 'vitest';
import { ALL_FAULTS } from '../src/reference/faults.js';
import { loadConformanceSuites, onlyChecksFor, runAgainst, startEmbedded } from './support/embedded.js';

const conformanceFaults = ALL_FAULTS.filter((f: { suite?: string }) => (f.suite ?? 'conformance') === 'conformance');
const PARALLEL = 4;

describe('seeded faults are caught by the conformance checks', () => {
  it('every fault names requirement ids of the catalogue, and every catalogue area has a fault', async () => {
    const { CATALOGUE } = await import('../src/model/catalogue/index.js');
    const known = new Set(CATALOGUE.map((r) => r.id));
    const unknown = ALL_FAULTS.flatMap((f) => f.requirements.filter((id) => !known.has(id)).map((id) => `${f.name} → ${id}`));
    expect(unknown).toEqual([]);
    expect(ALL_FAULTS.length).toBeGreaterThanOrEqual(60);
    const names = ALL_FAULTS.map((f) => f.name);
    expect(names.length).toBe(new Set(names).size);
    // An area is the id up to its second dash (GATE-SESS, POOLS-TRADES, …).
    const area = (id: string) => id.split('-').slice(0, 2).join('-');
    const broken = new Set(ALL_FAULTS.flatMap((f) => f.requirements.map(area)));
    const areas = [...new Set(CATALOGUE.map((r) => area(r.id)))];
    expect(areas.filter((a) => !broken.has(a))).toEqual([]);
  });

  it(
    `every conformance fault (${conformanceFaults.length}) makes a check naming its requirements fail`,
    async () => {
      const suites = await loadConformanceSuites();
      const matrix: { fault: string; caughtBy: string[]; ran: number }[] = [];
      const queue = [...conformanceFaults];
      await Promise.all(
        Array.from({ length: PARALLEL }, async () => {
          for (let f = queue.shift(); f; f = queue.shift()) {
            const selected = onlyChecksFor(suites, f.requirements);
            const ref = await startEmbedded({ faults: [f.name] });
            try {
              const out = await runAgainst(ref, selected, { concurrency: 12 });
              matrix.push({ fault: f.name, caughtBy: out.checks.filter((c) => c.status === 'failed').map((c) => c.name), ran: out.checks.length });
            } finally {
              await ref.close();
            }
          }
        }),
      );
      matrix.sort((a, b) => a.fault.localeCompare(b.fault));
      const lines = matrix.map((m) => `${m.caughtBy.length ? 'caught ' : 'MISSED '} ${m.fault} ← ${m.caughtBy.length ? m.caughtBy.join(' | ') : `none of ${m.ran} checks failed`}`);
      console.log(`fault → checks that caught it\n${lines.join('\n')}\n${matrix.filter((m) => m.caughtBy.length).length}/${matrix.length} faults caught`);
      expect(matrix.filter((m) => m.caughtBy.length === 0).map((m) => m.fault)).toEqual([]);
    },
    900_000,
  );
});
