// The hour window (300 per hour) runs only at --depth full: at the declared
// scale of 1 it takes about two hours. Here the embedded target declares its
// rate windows ×0.02 (the hour is 72 s, limits unchanged), so the full-depth
// hour case runs in about 2½ minutes: a clean target passes both rules, and
// each hour fault fails an assertion (its k6 threshold) naming its own
// requirement — a crashed run is never counted. This scaled-time profile is
// how the --depth full hour checks are proven. Skipped visibly without k6.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SCENARIOS } from '../scenarios/lib/requirements.js';
import { loadGates } from '../src/load/gates.js';
import { findK6 } from '../src/load/k6.js';
import { runLoad } from '../src/load/run.js';
import { ALL_FAULTS } from '../src/reference/faults.js';
import { startEmbedded } from './support/embedded.js';
import { requirementCheckOf } from '../src/load/verdict.js';
import { selfTestTable } from './support/selftest.js';

const k6 = findK6();
const noK6 = 'missing' in k6 ? k6.missing : undefined;
const dirs: string[] = [];
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'rampart-load-hour-'));
  dirs.push(d);
  return d;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const hourIds: readonly string[] = SCENARIOS['rate-limits'].cases.hour;
const hourFaults = ALL_FAULTS.filter((f) => f.requirements.some((id) => hourIds.includes(id)));

async function runHour(faults: string[]) {
  const ref = await startEmbedded({ faults, tweak: (p) => ({ ...p, timing: { ...p.timing, rateWindowScale: 0.02 } }) });
  try {
    return await runLoad({ profile: ref.profile, scenarios: ['rate-limits'], depth: 'full', cases: ['hour'], runDir: tmp(), gates: loadGates() });
  } finally {
    await ref.close();
  }
}

describe.skipIf(!!noK6)(`the hour window at --depth full, windows ×0.02${noK6 ? ` (skipped: ${noK6})` : ''}`, () => {
  it(
    `clean target passes; each hour fault (${hourFaults.length}) fails an assertion naming its own requirement; both hour checks proven`,
    { timeout: 420_000 },
    async () => {
      expect(hourFaults.length).toBeGreaterThanOrEqual(2);
      const [clean, ...faulty] = await Promise.all([runHour([]), ...hourFaults.map((f) => runHour([f.name]))]);
      expect(clean!.checks.map((c) => `${c.status} ${c.requirements.join(',')} ${c.failure?.message ?? ''}`.trim())).toEqual(
        hourIds.map((id) => `passed ${id}`),
      );
      // The full-depth hour checks are proven here: each by an assertion under one of the hour faults.
      const table = selfTestTable(
        hourFaults.map((fault, i) => ({ fault, checks: faulty[i]!.checks })),
        hourIds.map((id) => requirementCheckOf('rate-limits', id)),
      );
      console.log(table.lines.join('\n'));
      expect(table.missedFaults).toEqual([]);
      expect(table.unprovenChecks).toEqual([]);
    },
  );
});
