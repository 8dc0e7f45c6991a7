// The fault self-tests in the field world: every seeded conformance and chaos fault is still caught, by an
// assertion naming one of its requirements, when the target is remote (latency each way, its own clock,
// webhooks only through the public URL) and lived-in (a history per partner). Each fault gets a world of its
// own on one Toxiproxy per file; the conformance and chaos self-tests are files of their own
// (selftest.conformance.test.ts, selftest.chaos.test.ts), so they run at once in processes of their own.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startToxiproxy, type ToxiproxyHandle } from '../../src/chaos/toxiproxy.js';
import { findToxiproxyServer } from '../../src/tools/pinned.js';
import { startFieldWorld } from '../support/fieldWorld.js';
import type { SelfTestTable, StartWorld } from '../support/selftest.js';

/** A lived-in history small enough to fill in a moment for each of hundreds of worlds (the certify runs hold the full one). */
const HISTORY = { sessions: 30, customers: 15, trades: 60, deliveries: 20 };

/** One self-test in field worlds with their clock `clockOffsetSeconds` off, all on this file's one Toxiproxy. */
export function selfTestInTheField(
  kind: 'conformance' | 'chaos',
  clockOffsetSeconds: number,
  name: string,
  run: (start: StartWorld, tp: ToxiproxyHandle) => Promise<{ runs: unknown[]; table: SelfTestTable; total: number }>,
): void {
  const toxiproxy = findToxiproxyServer();
  const missing = 'missing' in toxiproxy ? toxiproxy.missing : undefined;
  let tp: ToxiproxyHandle;
  const start: StartWorld = (faults, opts) =>
    startFieldWorld({ faults, clockOffsetSeconds, history: HISTORY, retryScale: 0.01, toxiproxy: tp, realTime: opts?.realTime });
  describe.skipIf(!!missing)(`${kind} fault self-test in the field world${missing ? ` (skipped: ${missing})` : ''}`, () => {
    beforeAll(async () => {
      const started = await startToxiproxy('local');
      if ('missing' in started) throw new Error(started.missing);
      tp = started;
    });
    afterAll(async () => {
      await tp?.close();
    });
    it(name, async () => {
      const { runs, table, total } = await run(start, tp);
      console.log(
        `field world ${kind}: ${runs.length - table.missedFaults.length}/${runs.length} faults caught; ${total - table.unprovenChecks.length}/${total} checks proven`,
      );
      if (table.missedFaults.length || table.unprovenChecks.length) console.log(table.lines.join('\n'));
      expect(table.missedFaults).toEqual([]);
      expect(table.unprovenChecks).toEqual([]);
    });
  });
}
