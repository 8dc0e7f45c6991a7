// Load scenarios, proven both ways against the embedded target: clean, every
// quick case passes; with each seeded load fault (an off-by-one limit, a wrong
// window, a wrong route group, TTL 30 s, TTL not enforced, a double trade) the
// cases covering the fault's requirements fail. Skipped visibly without k6.
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
import { startEmbedded } from './support/embedded.js';

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

// Load faults, and conformance faults that also break a load requirement (TTL 30 s, TTL not enforced): both suites must catch those.
const loadIds = new Set(CATALOGUE.filter((r) => r.suite === 'load').map((r) => r.id));
const loadFaults = ALL_FAULTS.filter((f) => f.suite === 'load' || f.requirements.some((id) => loadIds.has(id)));

describe.skipIf(!!noK6)(`load scenarios against the embedded target${noK6 ? ` (skipped: ${noK6})` : ''}`, () => {
  it('clean target: rate-limits, quote-ttl and transact-race pass at quick depth', { timeout: 240_000 }, async () => {
    const ref = await startEmbedded();
    try {
      const out = await runLoad({ profile: ref.profile, scenarios: ['rate-limits', 'quote-ttl', 'transact-race'], depth: 'quick', runDir: tmp(), gates });
      // Only the cases kept for --depth full may skip, and they must say so.
      const failed = out.checks.filter((c) => c.status !== 'passed' && !(c.status === 'skipped' && c.reason?.startsWith('runs only at --depth full')));
      expect(out.checks.filter((c) => c.status === 'skipped').flatMap((c) => c.requirements)).toEqual(['GATE-RATE-HOUR-WINDOW']);
      console.log(out.checks.map((c) => `${c.status} ${c.name}`).join('\n'));
      console.log('rate-limit boundaries', JSON.stringify(out.metrics.rateLimits));
      expect(failed.map((c) => `${c.name}: ${c.failure?.message ?? c.reason} ${c.failure?.actual ?? ''}`)).toEqual([]);
      // Every documented boundary measured exactly.
      for (const b of out.metrics.rateLimits as { case: string; documented: { firstRejectedRequest: number }; measured: { firstRejectedRequest: number } }[]) {
        expect(b.measured.firstRejectedRequest, b.case).toBe(b.documented.firstRejectedRequest);
      }
    } finally {
      await ref.close();
    }
  });

  it(`every load fault (${loadFaults.length}) makes a scenario covering its requirements fail`, { timeout: 300_000 }, async () => {
    expect(loadFaults.length).toBeGreaterThanOrEqual(6);
    const matrix: string[] = [];
    const missed: string[] = [];
    const queue = [...loadFaults];
    await Promise.all(
      Array.from({ length: 3 }, async () => {
        for (let f = queue.shift(); f; f = queue.shift()) {
          const targets = casesFor(f.requirements);
          if (!targets.length) {
            missed.push(`${f.name} (no scenario case names ${f.requirements.join(', ')})`);
            continue;
          }
          const ref = await startEmbedded({ faults: [f.name] });
          try {
            const failed: string[] = [];
            for (const t of targets) {
              const out = await runLoad({ profile: ref.profile, scenarios: [t.scenario], depth: 'quick', cases: t.cases, runDir: tmp(), gates });
              failed.push(...out.checks.filter((c) => c.status === 'failed').map((c) => c.name));
            }
            if (failed.length) matrix.push(`caught ${f.name} ← ${failed.join(' | ')}`);
            else missed.push(f.name);
          } finally {
            await ref.close();
          }
        }
      }),
    );
    console.log(`load fault → failing checks\n${matrix.sort().join('\n')}`);
    expect(missed).toEqual([]);
  });
});
