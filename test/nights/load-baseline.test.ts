// A CI performance gate against a baseline, through the real CLI: a clean `rampart load --scenario smoke` run is the
// baseline; the target with a route group slowed (slow-route-group-read60, 250 ms) against it with --baseline is NOT
// CERTIFIED (exit 1), the verdict naming the route group and the baseline run, while the absolute gates alone still
// pass it; the clean target against it passes, and so does --baseline last-certified. Each run directory holds a valid
// ctrf.json naming its baseline.
import { mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validate } from 'ctrf';
import { afterAll, describe, expect, it } from 'vitest';
import { findK6 } from '../../src/load/k6.js';
import { reportIdOf } from '../../src/report/ctrf.js';
import type { RunResults } from '../../src/report/results.js';
import { cliIn } from '../support/cli.js';

const tmp = mkdtempSync(join(tmpdir(), 'rampart-baseline-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const cli = cliIn(tmp);
const noK6 = (() => {
  const k = findK6();
  return 'missing' in k ? k.missing : undefined;
})();
const D = join(tmp, 'reports');
const smoke = ['load', '--scenario', 'smoke', '--reports-dir', D];
const latest = () => {
  const dir = realpathSync(join(D, 'latest'));
  return { results: JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as RunResults, ctrf: JSON.parse(readFileSync(join(dir, 'ctrf.json'), 'utf8')) };
};
const verdictLine = (stdout: string) => stdout.split('\n').find((l) => /^(CERTIFIED|PASSED|NOT CERTIFIED|INCOMPLETE)\b/.test(l));
const timed = async (args: string[]) => {
  const t0 = Date.now();
  const r = await cli(args, 300_000);
  return { ...r, seconds: Math.round((Date.now() - t0) / 100) / 10 };
};

describe.skipIf(!!noK6)(`load --scenario smoke --baseline${noK6 ? ` (skipped: ${noK6})` : ''}`, () => {
  it('the slowed target is NOT CERTIFIED naming the route group and the baseline; the clean one passes', async () => {
    const clean = await timed(smoke);
    expect(clean.code, clean.stderr).toBe(0);
    const baseline = latest().results.runId;

    process.env.RAMPART_FAULT_SLOW_MS = '250';
    let slowed;
    try {
      slowed = await timed([...smoke, '--fault', 'slow-route-group-read60', '--baseline', baseline]);
    } finally {
      delete process.env.RAMPART_FAULT_SLOW_MS;
    }
    expect(slowed.code, slowed.stderr).toBe(1);
    expect(verdictLine(slowed.stdout)).toMatch(new RegExp(`^NOT CERTIFIED .*smoke: relative gate p95 of route group read60 against baseline ${baseline}`));
    const s = latest();
    const failed = s.results.checks.filter((c) => c.status === 'failed');
    expect(failed.map((c) => c.name)).toEqual([`smoke: relative gate p95 of route group read60 against baseline ${baseline}`]);
    expect(failed[0]!.failure!.message).toMatch(new RegExp(`regression against baseline run ${baseline}: route group read60 p95 2\\d\\d(\\.\\d)? ms > `));
    // The absolute gates alone pass it: only the baseline sees 250 ms on loopback.
    expect(s.results.checks.find((c) => c.name.startsWith('smoke: performance gates'))?.status).toBe('passed');
    expect(validate(s.ctrf).errors).toEqual([]);
    expect(s.ctrf.baseline).toMatchObject({ reportId: reportIdOf(baseline), extra: { runId: baseline, named: true } });

    const again = await timed([...smoke, '--baseline', baseline]);
    expect(again.code, again.stderr).toBe(0);
    expect(verdictLine(again.stdout)).toMatch(/^PASSED .*2 performance gate checks passed/);
    const a = latest();
    expect(a.results.checks.find((c) => c.name.startsWith('smoke: relative gates'))?.status).toBe('passed');
    expect(validate(a.ctrf).errors).toEqual([]);

    const last = await timed([...smoke, '--baseline', 'last-certified']);
    expect(last.code, last.stderr).toBe(0);
    expect(last.stdout).toMatch(new RegExp(`; baseline ${a.results.runId} \\(rampart history`));
    console.log(`smoke runs: clean ${clean.seconds} s, slowed ${slowed.seconds} s, clean against it ${again.seconds} s, last-certified ${last.seconds} s`);
  });
});
