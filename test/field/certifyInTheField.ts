// `rampart certify` against the correct embedded target presented as a partner's remote sandbox: 100 ± 30 ms
// each way on every API base and on the webhook path, webhooks only through the public URL, a history of 200
// sessions, 60 customers, 80 deliveries per Gate partner and 120 trades per funded pools partner, and the
// target's clock 2 s ahead with the profile's partners reversed, then 2 s behind with them shuffled. Each run
// must have 0 failed and end CERTIFIED under rampart's default gates (the embedded profile holds every role; the
// defaults are sized for a sandbox up to ~300 ms a round trip away, and this world's is 200 ± 60 ms), and the
// report must show the target's clock as it is.
// Each condition is a file of its own (certify.ahead.test.ts, certify.behind.test.ts), so the two whole runs go at once
// in processes of their own, each world's target and proxies answering undisturbed by the other's.
import { describe, expect, it } from 'vitest';
import { findK6, findToxiproxyServer } from '../../src/tools/pinned.js';
import { startFieldWorld, type FieldWorldOptions } from '../support/fieldWorld.js';
import { notPassed, runCli } from './runs.js';

const HISTORY = { sessions: 200, customers: 60, trades: 120, deliveries: 80 };
/**
 * The retry schedule a remote sandbox would declare: at ×0.01 (gaps of 0.6 s, 3 s, 18 s, 72 s) the network's
 * jitter stays well inside every gap's tolerance; at the embedded ×0.002 the first gap (120 ms) drowns in it and
 * the schedule checks rightly end unverified.
 */
const RETRY_SCALE = 0.01;
const toxiproxy = findToxiproxyServer();
const k6 = findK6();
const missing = 'missing' in toxiproxy ? toxiproxy.missing : 'missing' in k6 ? k6.missing : undefined;

// Two whole runs (each ~3 min, on worlds of their own): every condition is met by one of them, the clock on both sides.
export const CONDITIONS: { name: string; opts: FieldWorldOptions }[] = [
  { name: 'the clock 2 s ahead, partners in reverse order', opts: { clockOffsetSeconds: 2, history: HISTORY, retryScale: RETRY_SCALE, order: 'reverse' } },
  {
    name: 'the clock 2 s behind, partners in a seeded shuffle',
    opts: { clockOffsetSeconds: -2, history: HISTORY, retryScale: RETRY_SCALE, order: { seed: 7 } },
  },
];

export function certifyInTheField(c: { name: string; opts: FieldWorldOptions }): void {
  describe.skipIf(!!missing)(`certify in the field world${missing ? ` (skipped: ${missing})` : ''}`, () => {
    it(`remote (latency, public URL, history), ${c.name}: CERTIFIED with 0 failed under the default gates`, async () => {
      const world = await startFieldWorld(c.opts);
      try {
        // The plan, told the world's round trip (100 ms each way), beside the run's wall: logged, never asserted.
        const plan = await runCli(world, ['plan', '--json', '--rtt', '200'], 120_000);
        const planned = (JSON.parse(plan.stdout) as { lowerBoundSeconds: number }).lowerBoundSeconds;
        // 100 ± 30 ms each way: up to 260 ms more per request than on loopback, inside the default gates' allowance.
        const run = await runCli(world, ['certify'], 900_000);
        const r = run.results;
        console.log(
          `field certify (${c.name}): exit ${run.exitCode}, ${r?.summary.verdict}, ${r?.summary.passed} passed, ${r?.summary.failed} failed, ${r?.summary.checks.passed} checks in ${(run.wallMs / 1000).toFixed(1)} s against a plan of ${planned} s (told --rtt 200: ${(run.wallMs / 1000 / planned).toFixed(2)}×); ${run.stdout.split('\n').find((l) => l.startsWith('target:')) ?? ''}`,
        );
        expect(notPassed(r)).toEqual([]);
        expect(r?.summary.failed).toBe(0);
        expect(r?.summary.verdict).toBe('CERTIFIED');
        expect(r?.scope?.gates?.looser).toEqual([]);
        expect(run.exitCode).toBe(0);
        // The report says the target's clock as the world keeps it.
        const offset = r?.target?.gate?.clock;
        expect(offset).toBeDefined();
        expect(Math.abs(offset!.offsetMs - c.opts.clockOffsetSeconds! * 1000)).toBeLessThanOrEqual(offset!.uncertaintyMs + 50);
        expect(r?.target?.gate?.roundTrip?.medianMs).toBeGreaterThanOrEqual(150);
      } finally {
        await world.close();
      }
    });
  });
}
