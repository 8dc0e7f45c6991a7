// Smoke traffic counts only 2xx as expected: every request of the mix is
// well-formed, authorised and within the limits, so a target refusing every
// key (401) breaches the unexpected-status gate instead of passing it. Both
// ways against the embedded target, 10 s of traffic: enough samples for a p95
// (src/load/verdict.ts percentileMinSamples); skipped visibly without k6.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadGates } from '../src/load/gates.js';
import { findK6 } from '../src/load/k6.js';
import { runLoad } from '../src/load/run.js';
import { startEmbedded } from './support/embedded.js';

const k6 = findK6();
const noK6 = 'missing' in k6 ? k6.missing : undefined;
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

async function smoke(unknownTrafficKeys: boolean) {
  const ref = await startEmbedded({ tweak: (p) => ({ ...p, timing: { ...p.timing, rateWindowScale: 0.1 } }) });
  try {
    const profile = structuredClone(ref.profile);
    // Keys of the right form the target never issued, for the traffic partners only: every request of theirs gets 401.
    if (unknownTrafficKeys) for (const p of profile.gate.partners) if (p.reservedFor === 'load' && !p.publishableKey) p.secretKey = `sk_test_${'x'.repeat(32)}`;
    const runDir = mkdtempSync(join(tmpdir(), 'rampart-traffic-'));
    dirs.push(runDir);
    return await runLoad({ profile, scenarios: ['smoke'], depth: 'quick', runDir, gates: { ...loadGates(), smokeDurationSeconds: 10 } });
  } finally {
    await ref.close();
  }
}

describe.skipIf(!!noK6)(`smoke traffic gate${noK6 ? ` (skipped: ${noK6})` : ''}`, () => {
  it('passes on a healthy target and fails when every traffic request is answered 401', { timeout: 120_000 }, async () => {
    const clean = await smoke(false);
    expect(clean.checks.map((c) => `${c.status} ${c.name}`)).toEqual([expect.stringMatching(/^passed smoke: performance gates/)]);
    const refused = await smoke(true);
    const failed = refused.checks.filter((c) => c.status === 'failed').map((c) => c.name);
    expect(failed).toContainEqual(expect.stringContaining('rampart_unexpected'));
  });
});
