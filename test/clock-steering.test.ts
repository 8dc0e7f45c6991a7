// A verdict the target cannot steer through its clock. A correct target whose
// answers now and then carry a Date header far off (one node of a fleet, a
// proxy), carry none at all, or come from a fleet's two clocks in turn keeps
// every time rule passing on its stamps; a target that uses its clock to hide a
// broken rule — Date headers from another clock, a stray Date to widen the
// estimate, no Date header beside a broken lifetime, a clock that jumps — fails
// that rule by an assertion naming it: never unverified, never passed.
import { describe, expect, it } from 'vitest';
import { CLOCK_FAULTS } from '../src/reference/kit/clock.js';
import { ALL_FAULTS } from '../src/reference/faults.js';
import type { Profile } from '../src/profile/schema.js';
import { loadProfile } from '../src/profile/load.js';
import { dialectProfile } from '../src/reference/dialect.js';
import { startReference } from '../src/reference/server.js';
import { loadConformanceSuites, onlyChecksFor, runAgainst, startEmbedded } from './support/embedded.js';
import { caughtBy } from './support/selftest.js';

/** The time rules a widened clock turned (the session expiry ones) or could turn (freshness, lifetimes). */
const TIME_RULES = [
  'GATE-SESS-RETRIEVE-NO-STATUS-CHANGE',
  'GATE-SESS-EXPIRE-ON-BOOTSTRAP',
  'GATE-SESS-CANCEL-TERMINAL-409',
  'GATE-SESS-TERMINAL-STAYS',
  'GATE-EVT-SESSION-EXPIRED',
  'GATE-SIG-TIMESTAMP-FRESH',
  'GATE-EMBED-TOKEN-LIFETIME',
  'POOLS-TTL-EXPIRES-AT',
];

/** One answer in twenty carries a Date header ten minutes behind; the target's objects are right. */
const strayDates = (p: Profile): Profile => ({ ...p, reference: { ...p.reference!, dateHeaderOutliers: { every: 20, offsetSeconds: -600 } } });

describe('the target clock cannot be steered', () => {
  it('one answer in twenty with a Date header ten minutes off: every time rule still passes (the answer is discarded)', async () => {
    const ref = await startEmbedded({ tweak: strayDates });
    try {
      const suites = onlyChecksFor(await loadConformanceSuites(), TIME_RULES);
      const out = await runAgainst(ref, suites, { concurrency: 8 });
      const notPassed = out.checks.filter((c) => c.status !== 'passed').map((c) => `${c.name}: ${c.status} ${c.failure?.message ?? c.reason ?? ''}`);
      expect(notPassed).toEqual([]);
      for (const id of TIME_RULES)
        expect(
          out.checks.some((c) => c.requirements.includes(id as never)),
          id,
        ).toBe(true);
    } finally {
      await ref.close();
    }
  }, 180_000);

  // The worlds of gate.transport.dateHeader other than the reference's own: no Date header (the stamps judge), and a
  // fleet's two clocks in turn (4 s apart; the stamps stay on the target's own).
  it.each(['absent', 'two-clocks'])(
    'Gate Date headers %s: every time rule still passes, judged on the stamps',
    async (choice) => {
      const profile = dialectProfile(loadProfile('fixtures/profiles/embedded.json'), { 'gate.transport.dateHeader': choice }, `dateHeader ${choice}`);
      const ref = await startReference({ profile, ephemeralPorts: true });
      try {
        const suites = onlyChecksFor(await loadConformanceSuites(), TIME_RULES);
        const out = await runAgainst(ref, suites, { concurrency: 8 });
        const notPassed = out.checks.filter((c) => c.status !== 'passed').map((c) => `${c.name}: ${c.status} ${c.failure?.message ?? c.reason ?? ''}`);
        expect(notPassed).toEqual([]);
        const topic = choice === 'absent' ? 'target-no-date-header' : 'target-date-headers-two-clocks';
        expect(out.observations.some((o) => o.topic === topic)).toBe(true);
      } finally {
        await ref.close();
      }
    },
    180_000,
  );

  const steering = ALL_FAULTS.filter((f) => CLOCK_FAULTS.includes(f) || f.name === 'sess-ends-early-no-date');
  const worlds = ['fixtures/profiles/embedded.json', 'fixtures/profiles/embedded-alt.json'];
  it.each(worlds.flatMap((w) => steering.map((f) => [f.name, w, f] as const)))(
    '%s fails its rule by an assertion naming it (%s)',
    async (_name, profileFile, fault) => {
      const ref = await startEmbedded({ profileFile, faults: [fault.name] });
      try {
        const suites = onlyChecksFor(await loadConformanceSuites(), fault.requirements);
        const out = await runAgainst(ref, suites, { concurrency: 8 });
        const caught = caughtBy({ fault, checks: out.checks });
        expect(
          caught.map((c) => c.failure?.requirement),
          out.checks.map((c) => `${c.name}: ${c.status} ${c.failure?.requirement ?? ''} ${c.failure?.message ?? c.reason ?? ''}`).join('\n'),
        ).not.toEqual([]);
      } finally {
        await ref.close();
      }
    },
    180_000,
  );
});
