// The sequence faults of the embedded target: defects only a sequence shows (state kept in two places and updated in
// one, a cache one path forgets, a counter one path moves, an index one transition skips, a status derived with the
// wrong precedence). They prove rampart explore can find what no fixed check names, so the fixed checks' self-tests
// leave them out (each is missed by them by design); whether explore finds them is measured by
// scripts/explore-find-rate.ts.
import { describe, expect, it } from 'vitest';
import { CATALOGUE } from '../src/model/catalogue/index.js';
import { ALL_FAULTS } from '../src/reference/faults.js';
import { conformanceFaultsOf } from './support/selftest.js';

const sequenceFaults = ALL_FAULTS.filter((f) => f.suite === 'explore');

describe('sequence faults (suite explore)', () => {
  it('at least twelve, across both services, each named seq-… and described as a sequence', () => {
    expect(sequenceFaults.length).toBeGreaterThanOrEqual(12);
    expect(new Set(sequenceFaults.map((f) => f.service))).toEqual(new Set(['gate', 'pools']));
    expect(sequenceFaults.filter((f) => !f.name.startsWith('seq-')).map((f) => f.name)).toEqual([]);
    expect(sequenceFaults.filter((f) => !f.description.startsWith('Sequence: ')).map((f) => f.name)).toEqual([]);
    // The name says it: every seq- fault is a sequence fault.
    expect(ALL_FAULTS.filter((f) => f.name.startsWith('seq-') && f.suite !== 'explore').map((f) => f.name)).toEqual([]);
  });

  it('each names the catalogue requirements its divergence breaks', () => {
    const known = new Set<string>(CATALOGUE.map((r) => r.id));
    for (const f of sequenceFaults) {
      expect(f.requirements.length, f.name).toBeGreaterThan(0);
      expect(
        f.requirements.filter((id) => !known.has(id)),
        f.name,
      ).toEqual([]);
    }
  });

  it('the fixed checks’ self-test leaves them out: each is missed by every fixed check by design', () => {
    const everyId = new Set<string>(CATALOGUE.map((r) => r.id));
    const run = conformanceFaultsOf(ALL_FAULTS, everyId).map((f) => f.name);
    expect(sequenceFaults.filter((f) => run.includes(f.name)).map((f) => f.name)).toEqual([]);
  });
});
