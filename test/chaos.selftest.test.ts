// The chaos suites against the embedded target through a real Toxiproxy: a
// clean run passes (only the real-time schedule check skips, at quick depth),
// and every fault naming a requirement a chaos check covers makes an
// assertion of one of those checks fail naming one of the fault's own
// requirements (a timeout, no answer or a crash is never counted); every
// chaos check is proven that way by some fault. A --depth full check is
// proven by the fast variant of its fault: a fault of a full-depth rule runs
// at --depth full on a target that declares and keeps real time, and breaks
// the rule within seconds. Skipped, with the reason, where there is neither
// the built toxiproxy-server nor a Docker engine for its container.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installChaos } from '../src/chaos/kit.js';
import { CATALOGUE } from '../src/model/catalogue/index.js';
import type { Profile } from '../src/profile/schema.js';
import { resolveToxiproxy, startToxiproxy, type ToxiproxyHandle } from '../src/chaos/toxiproxy.js';
import { ALL_FAULTS } from '../src/reference/faults.js';
import type { RunningReference } from '../src/reference/server.js';
import { createProgress } from '../src/runner/progress.js';
import { loadSuites, runChecks, type ChecksOutcome, type LoadedSuite } from '../src/runner/run.js';
import { onlyChecksFor, startEmbedded } from './support/embedded.js';
import { selfTestTable, type FaultRun } from './support/selftest.js';

const PARALLEL = 4;
const choice = await resolveToxiproxy();
const missing = 'missing' in choice ? choice.missing : undefined;
if (missing) console.warn(`chaos self-test skipped: ${missing}`);

let tp: ToxiproxyHandle;
let suites: LoadedSuite[];

function runChaos(ref: RunningReference, selected: LoadedSuite[], depth: 'quick' | 'full' = 'quick'): Promise<ChecksOutcome> {
  return runChecks({
    profile: ref.profile,
    suites: selected,
    depth,
    concurrency: 8,
    kind: 'chaos',
    progress: createProgress({ live: false, quiet: true }),
    prepare: (run) => installChaos(run, tp),
  });
}

/** Requirements only --depth full asserts (the real-time schedule). */
const FULL_DEPTH_IDS = new Set<string>(CATALOGUE.filter((r) => r.depth === 'full').map((r) => r.id));
/** A fault of a full-depth rule is the fast variant of a real-time fault: its run is at --depth full. */
const isFastVariant = (f: { requirements: readonly string[] }) => f.requirements.some((id) => FULL_DEPTH_IDS.has(id));
/** The embedded target in real time (declared and applied): the real-time checks run on it at --depth full. */
const realTime = (p: Profile): Profile => ({
  ...p,
  timing: { ...p.timing, retryScale: 1 },
  ...(p.reference ? { reference: { ...p.reference, timeScale: 1 } } : {}),
});

describe.skipIf(!!missing)(`chaos suites through Toxiproxy${missing ? ` (skipped: ${missing})` : ''}`, () => {
  beforeAll(async () => {
    const started = await startToxiproxy();
    if ('missing' in started) throw new Error(started.missing);
    tp = started;
    suites = await loadSuites('chaos');
  });
  afterAll(async () => {
    await tp?.close();
  });

  it('a clean run of every chaos suite passes; only the real-time schedule check skips at quick depth', async () => {
    const ref = await startEmbedded();
    try {
      const out = await runChaos(ref, suites);
      const failed = out.checks
        .filter((c) => c.status !== 'passed' && c.status !== 'skipped')
        .map((c) => `${c.name}: ${c.status} ${c.failure?.message ?? c.reason ?? ''}`);
      expect(failed).toEqual([]);
      const skipped = out.checks.filter((c) => c.status === 'skipped');
      expect(skipped.map((c) => c.requirements)).toEqual([['GATE-DLV-SCHEDULE-REALTIME']]);
      expect(out.checks.filter((c) => c.status === 'passed').length).toBeGreaterThanOrEqual(15);
      const gaps = out.observations.filter((o) => o.topic === 'retry-gap').map((o) => o.value as { attempt: number; expectedMs: number; observedMs: number });
      console.log(`retry gaps (expected → observed ms): ${gaps.map((g) => `#${g.attempt} ${g.expectedMs}→${g.observedMs}`).join(', ')}`);
      expect(gaps.length).toBeGreaterThanOrEqual(4);
    } finally {
      await ref.close();
    }
  }, 240_000);

  it('every fault breaking a chaos requirement makes a chaos assertion fail naming it, and every chaos check is proven that way', async () => {
    const covered = new Set<string>(suites.flatMap((s) => s.checks.flatMap((c) => c.requirements)));
    const faults = ALL_FAULTS.filter((f) => f.requirements.some((id) => covered.has(id)));
    const runs: FaultRun[] = [];
    const queue = [...faults];
    await Promise.all(
      Array.from({ length: PARALLEL }, async () => {
        for (let f = queue.shift(); f; f = queue.shift()) {
          const fast = isFastVariant(f);
          const ref = await startEmbedded({ faults: [f.name], ...(fast ? { tweak: realTime } : {}) });
          try {
            const out = await runChaos(ref, onlyChecksFor(suites, f.requirements), fast ? 'full' : 'quick');
            runs.push({ fault: f, checks: out.checks });
          } finally {
            await ref.close();
          }
        }
      }),
    );
    // Every chaos check, the --depth full ones too (proven by their fast variants).
    const all = suites.flatMap((s) => s.checks.map((c) => ({ file: s.file, name: c.name })));
    const table = selfTestTable(runs, all);
    console.log(
      `${table.lines.join('\n')}\nchaos: ${runs.length - table.missedFaults.length}/${runs.length} faults caught by assertion; ${all.length - table.unprovenChecks.length}/${all.length} chaos checks proven`,
    );
    expect(table.missedFaults).toEqual([]);
    expect(table.unprovenChecks).toEqual([]);
  }, 600_000);
});
