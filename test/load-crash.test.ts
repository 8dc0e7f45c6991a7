// A k6 run that throws fails every requirement of its scenario, with the
// reason — through the real pipeline (k6, records, summary, verdict) with
// run configs made to throw: at init (k6 exits 107, no summary) and inside a
// case after some of its checks passed (k6 exits 0). Skipped visibly without k6.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningReference } from '../src/reference/server.js';
import { configFor } from '../src/load/config.js';
import { loadGates } from '../src/load/gates.js';
import { findK6 } from '../src/load/k6.js';
import { runScenario, scriptOf } from '../src/load/scenarioRun.js';
import { scenarioChecks } from '../src/load/verdict.js';
import { startEmbedded } from './support/embedded.js';

const k6 = findK6();
const noK6 = 'missing' in k6 ? k6.missing : undefined;
const dir = mkdtempSync(join(tmpdir(), 'rampart-load-crash-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.skipIf(!!noK6)(`a k6 crash fails its scenario's requirements${noK6 ? ` (skipped: ${noK6})` : ''}`, () => {
  let ref: RunningReference;
  beforeAll(async () => {
    ref = await startEmbedded({ tweak: (p) => ({ ...p, timing: { ...p.timing, rateWindowScale: 0.1 } }) });
  });
  afterAll(async () => ref?.close());

  const run = (config: Record<string, unknown>, sub: string) =>
    runScenario({
      script: scriptOf('rate-limits'),
      config,
      k6: (k6 as { path: string }).path,
      outDir: join(dir, sub),
      relDir: `k6/${sub}`,
      segments: 1,
      timeoutMs: 60_000,
    });

  it('a throw in a case after some of its checks passed: k6 exits 0, yet every requirement fails with the reason', { timeout: 90_000 }, async () => {
    const built = configFor(ref.profile, 'rate-limits', ['burst', 'perClient'], 'quick', loadGates(), 1).config!;
    const gate = built.gate as { keys: string[] };
    // One reserved key: burst walks and checks its 429, then perClient looks for the 7th key and throws.
    const config = { ...built, gate: { ...gate, keys: gate.keys.slice(0, 1) } };
    const r = await run(config, 'throw-in-case');
    expect(r.segments[0]!.exitCode).toBe(0);
    expect(r.summary?.metrics?.['checks{req:GATE-RATE-429-ENVELOPE}']?.values?.passes).toBeGreaterThan(0);
    const checks = scenarioChecks('rate-limits', built.requirements as string[], r);
    expect(checks.length).toBe((built.requirements as string[]).length);
    for (const c of checks) {
      expect(c.status, c.name).toBe('failed');
      expect(c.failure?.message).toContain('the scenario threw in rate-limits: case perClient needs reserved load key #7');
    }
  });

  it('a throw at init: k6 exits non-zero without a summary, and every requirement fails with the exit code', { timeout: 90_000 }, async () => {
    const built = configFor(ref.profile, 'rate-limits', ['burst'], 'quick', loadGates(), 1).config!;
    const { gate: _g, ...config } = built;
    const r = await run(config, 'throw-at-init');
    expect([0, 99]).not.toContain(r.segments[0]!.exitCode);
    expect(r.summary).toBeUndefined();
    const checks = scenarioChecks('rate-limits', built.requirements as string[], r);
    expect(checks.map((c) => c.status)).toEqual((built.requirements as string[]).map(() => 'failed'));
    expect(checks[0]!.failure?.message).toContain(`k6 ended with exit code ${r.segments[0]!.exitCode}`);
  });
});
