// The hour window (300 per hour) runs only at --depth full: at the declared
// scale of 1 it takes about two hours. Here the embedded target declares its
// rate windows ×0.02 (the hour is 72 s, limits unchanged), so the full-depth
// hour case runs in about 2½ minutes: a clean target passes both rules, and
// each hour fault fails a check naming its own requirement. Skipped visibly
// without k6.
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
  it(`clean target passes; each hour fault (${hourFaults.length}) fails a check naming its own requirement`, { timeout: 420_000 }, async () => {
    expect(hourFaults.length).toBeGreaterThanOrEqual(2);
    const [clean, ...faulty] = await Promise.all([runHour([]), ...hourFaults.map((f) => runHour([f.name]))]);
    expect(clean!.checks.map((c) => `${c.status} ${c.requirements.join(',')} ${c.failure?.message ?? ''}`.trim())).toEqual(hourIds.map((id) => `passed ${id}`));
    const missed = hourFaults.filter(
      (f, i) => !faulty[i]!.checks.some((c) => c.status === 'failed' && c.requirements.some((id) => f.requirements.includes(id))),
    );
    console.log(hourFaults.map((f, i) => `${f.name} → ${faulty[i]!.checks.map((c) => `${c.status} ${c.requirements.join(',')}`).join(' | ')}`).join('\n'));
    expect(missed.map((f) => f.name)).toEqual([]);
  });
});
