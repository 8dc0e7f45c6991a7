// The chaos suites against the embedded target through a real Toxiproxy: every fault naming a requirement a chaos check covers makes an
// assertion of one of those checks fail naming one of the fault's own
// requirements (a timeout, no answer or a crash is never counted); every
// chaos check is proven that way by some fault. A --depth full check is
// proven by the fast variant of its fault: a fault of a full-depth rule runs
// at --depth full on a target that declares and keeps real time, and breaks
// the rule within seconds. Skipped, with the reason, where there is neither
// the built toxiproxy-server nor a Docker engine for its container.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveToxiproxy, startToxiproxy, type ToxiproxyHandle } from '../src/chaos/toxiproxy.js';
import { chaosSelfTest, embeddedWorld } from './support/selftest.js';

// Fault runs mostly wait through the scaled retry schedule: eight at once (the clean run is chaos.clean.test.ts, a
// process of its own: in this one the fault worlds' traffic would widen its measured round trip).
const PARALLEL = 8;
const choice = await resolveToxiproxy();
const missing = 'missing' in choice ? choice.missing : undefined;
if (missing) console.warn(`chaos self-test skipped: ${missing}`);

let tp: ToxiproxyHandle;

describe.skipIf(!!missing)(`chaos suites through Toxiproxy${missing ? ` (skipped: ${missing})` : ''}`, () => {
  beforeAll(async () => {
    const started = await startToxiproxy();
    if ('missing' in started) throw new Error(started.missing);
    tp = started;
  });
  afterAll(async () => {
    await tp?.close();
  });

  it('every fault breaking a chaos requirement makes a chaos assertion fail naming it, and every chaos check is proven that way', async () => {
    const { runs, table, total } = await chaosSelfTest(embeddedWorld(), tp, PARALLEL);
    console.log(
      `${table.lines.join('\n')}\nchaos: ${runs.length - table.missedFaults.length}/${runs.length} faults caught by assertion; ${total - table.unprovenChecks.length}/${total} chaos checks proven`,
    );
    expect(table.missedFaults).toEqual([]);
    expect(table.unprovenChecks).toEqual([]);
    // Every fault a run of its own, several waiting through a scaled retry schedule (the pools dead-letter one too).
  }, 900_000);
});
