// The chaos suites against the embedded target through a real Toxiproxy: a clean run passes (only the real-time
// schedule check skips, at quick depth), and the retry gaps are measured. A file of its own, so its process times
// the gaps and the round trips it widens them by undisturbed by the fault self-test's worlds (chaos.selftest.test.ts).
// Skipped, with the reason, where there is neither the built toxiproxy-server nor a Docker engine for its container.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveToxiproxy, startToxiproxy, type ToxiproxyHandle } from '../src/chaos/toxiproxy.js';
import { loadSuites, type LoadedSuite } from '../src/runner/run.js';
import { startEmbedded } from './support/embedded.js';
import { runChaosAgainst } from './support/selftest.js';

const choice = await resolveToxiproxy();
const missing = 'missing' in choice ? choice.missing : undefined;
if (missing) console.warn(`chaos clean run skipped: ${missing}`);

let tp: ToxiproxyHandle;
let suites: LoadedSuite[];

describe.skipIf(!!missing)(`chaos suites through Toxiproxy, clean${missing ? ` (skipped: ${missing})` : ''}`, () => {
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
      const out = await runChaosAgainst(ref, suites, tp);
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
});
