// Load scenarios, proven both ways against the embedded target: clean, every
// quick case passes; with each seeded load fault (an off-by-one limit, a
// window of the wrong length, a wrong route group, TTL 30 s, TTL not
// enforced, a double trade) a check's assertion (its k6 threshold) fails
// naming one of the fault's own requirements — a failure elsewhere does not
// count as catching it, and neither does a crashed k6 run, which fails every
// requirement of its scenario without asserting any.
// The target declares its rate windows ×0.1 (timing.rateWindowScale) so the
// window lengths are measured in seconds. Skipped visibly without k6.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SCENARIOS, type ScenarioName } from '../scenarios/lib/requirements.js';
import { loadGates } from '../src/load/gates.js';
import { findK6 } from '../src/load/k6.js';
import { runLoad } from '../src/load/run.js';
import { ALL_FAULTS } from '../src/reference/faults.js';
import { CATALOGUE } from '../src/model/catalogue/index.js';
import { requirementCheckOf } from '../src/load/verdict.js';
import type { CheckResult } from '../src/report/results.js';
import { startEmbedded } from './support/embedded.js';
import { selfTestTable, type FaultRun } from './support/selftest.js';

const k6 = findK6();
const noK6 = 'missing' in k6 ? k6.missing : undefined;
const dirs: string[] = [];
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'rampart-load-'));
  dirs.push(d);
  return d;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

// Short quote-ttl run for tests: 2 quotes/s for 6 s, each transacted 10–20 s later.
const gates = { ...loadGates(), quoteTtlDurationSeconds: 6, quoteTtlRate: 2, raceVus: 12 };
// The embedded target with its rate windows compressed ×0.1 (limits unchanged), declared in its profile.
const start = (faults: string[] = []) => startEmbedded({ faults, tweak: (p) => ({ ...p, timing: { ...p.timing, rateWindowScale: 0.1 } }) });

/** The scenario cases whose requirement ids meet the fault's. */
function casesFor(requirements: string[]): { scenario: ScenarioName; cases: string[] }[] {
  const out: { scenario: ScenarioName; cases: string[] }[] = [];
  for (const [name, spec] of Object.entries(SCENARIOS) as [ScenarioName, { cases: Record<string, readonly string[]>; fullOnly?: readonly string[] }][]) {
    const cases = Object.entries(spec.cases)
      .filter(([c, ids]) => !spec.fullOnly?.includes(c) && ids.some((id) => requirements.includes(id)))
      .map(([c]) => c);
    if (cases.length) out.push({ scenario: name, cases });
  }
  return out;
}

const loadIds = new Set<string>(CATALOGUE.filter((r) => r.suite === 'load').map((r) => r.id));
// Faults only a --depth full case can see (the hour window) are proven in load-hour.selftest.test.ts.
const quickIds = new Set(
  Object.values(SCENARIOS).flatMap((s) =>
    Object.entries(s.cases as Record<string, readonly string[]>)
      .filter(([c]) => !(s as { fullOnly?: readonly string[] }).fullOnly?.includes(c))
      .flatMap(([, ids]) => ids),
  ),
);
// Load faults, and every other fault breaking a rule a quick case asserts (TTL 30 s, TTL not enforced, a quote
// expiring early, a reserve of the wrong amount): the scenarios' check of that rule must catch it too.
const loadFaults = ALL_FAULTS.filter((f) => f.suite !== 'explore' && f.suite !== 'races' && f.requirements.some((id) => quickIds.has(id)));
/** Load faults no quick case can see: the hour window's, proven in load-hour.selftest.test.ts. */
const hourOnly = ALL_FAULTS.filter(
  (f) => f.suite !== 'races' && (f.suite === 'load' || f.requirements.some((id) => loadIds.has(id))) && !loadFaults.includes(f),
);

// The clean run is load.clean.test.ts: a process of its own, its windows measured undisturbed by the fault runs here.
describe.skipIf(!!noK6)(`load scenarios against the embedded target${noK6 ? ` (skipped: ${noK6})` : ''}`, () => {
  it(
    `every load fault (${loadFaults.length}) fails an assertion naming one of its own requirements; every quick load check is proven`,
    { timeout: 600_000 },
    async () => {
      expect(loadFaults.length).toBeGreaterThanOrEqual(6);
      const hourIds: readonly string[] = SCENARIOS['rate-limits'].cases.hour;
      expect(hourOnly.filter((f) => !f.requirements.every((id) => hourIds.includes(id))).map((f) => f.name)).toEqual([]);
      const runs: FaultRun[] = [];
      const unreachable: string[] = [];
      const queue = [...loadFaults];
      await Promise.all(
        Array.from({ length: 3 }, async () => {
          for (let f = queue.shift(); f; f = queue.shift()) {
            const targets = casesFor(f.requirements);
            if (!targets.length) {
              unreachable.push(`${f.name} (no scenario case names ${f.requirements.join(', ')})`);
              continue;
            }
            const ref = await start([f.name]);
            try {
              const checks: CheckResult[] = [];
              for (const t of targets)
                checks.push(...(await runLoad({ profile: ref.profile, scenarios: [t.scenario], depth: 'quick', cases: t.cases, runDir: tmp(), gates })).checks);
              runs.push({ fault: f, checks });
            } finally {
              await ref.close();
            }
          }
        }),
      );
      // Every requirement check of a quick case (the hour case is proven in load-hour.selftest.test.ts).
      const all = Object.entries(SCENARIOS).flatMap(([name, spec]) =>
        Object.entries(spec.cases as Record<string, readonly string[]>)
          .filter(([c]) => !(spec as { fullOnly?: readonly string[] }).fullOnly?.includes(c))
          .flatMap(([, ids]) => ids)
          .filter((id, i, ids) => ids.indexOf(id) === i)
          .map((id) => requirementCheckOf(name as ScenarioName, id)),
      );
      const table = selfTestTable(runs, all);
      console.log(
        `${table.lines.join('\n')}\nload: ${runs.length - table.missedFaults.length}/${runs.length} faults caught by assertion; ${all.length - table.unprovenChecks.length}/${all.length} load checks proven`,
      );
      expect(unreachable).toEqual([]);
      expect(table.missedFaults).toEqual([]);
      expect(table.unprovenChecks).toEqual([]);
    },
  );
});
