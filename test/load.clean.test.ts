// The load scenarios against the clean embedded target: rate-limits, quote-ttl and transact-race pass at quick
// depth, every documented boundary measured exactly, every window read by length, every route of the Limits rows
// probed and judged. A file of its own (the fault runs are load.selftest.test.ts), so its windows are measured in a
// process no other world disturbs. The target declares its rate windows ×0.1. Skipped visibly without k6.
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
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'rampart-load-clean-'));
  dirs.push(d);
  return d;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

// Short quote-ttl run for tests: 2 quotes/s for 6 s, each transacted 10–20 s later.
const gates = { ...loadGates(), quoteTtlDurationSeconds: 6, quoteTtlRate: 2, raceVus: 12 };
const start = () => startEmbedded({ tweak: (p) => ({ ...p, timing: { ...p.timing, rateWindowScale: 0.1 } }) });

describe.skipIf(!!noK6)(`load scenarios against the clean embedded target${noK6 ? ` (skipped: ${noK6})` : ''}`, () => {
  it('clean target: rate-limits, quote-ttl and transact-race pass at quick depth', { timeout: 240_000 }, async () => {
    const ref = await start();
    try {
      const out = await runLoad({ profile: ref.profile, scenarios: ['rate-limits', 'quote-ttl', 'transact-race'], depth: 'quick', runDir: tmp(), gates });
      // Only the cases kept for --depth full may skip, and they must say so.
      const failed = out.checks.filter((c) => c.status !== 'passed' && !(c.status === 'skipped' && c.reason?.startsWith('runs only at --depth full')));
      expect(out.checks.filter((c) => c.status === 'skipped').flatMap((c) => c.requirements)).toEqual([
        'GATE-RATE-HOUR-WINDOW',
        'GATE-RATE-HOUR-WINDOW-LENGTH',
      ]);
      console.log(out.checks.map((c) => `${c.status} ${c.name}`).join('\n'));
      console.log('rate-limit boundaries', JSON.stringify(out.metrics.rateLimits));
      expect(failed.map((c) => `${c.name}: ${c.failure?.message ?? c.reason} ${c.failure?.actual ?? ''}`)).toEqual([]);
      // Every documented boundary measured exactly.
      for (const b of out.metrics.rateLimits as { case: string; documented: { firstRejectedRequest: number }; measured: { firstRejectedRequest: number } }[]) {
        expect(b.measured.firstRejectedRequest, b.case).toBe(b.documented.firstRejectedRequest);
      }
      // Every window measured by length, its reading recorded: the embedded target's windows slide.
      const windows = out.metrics.rateWindows as { case: string; readings: string[] }[];
      expect(windows.map((w) => w.case).sort()).toEqual(['burst', 'minute', 'read60', 'write10', 'write30']);
      for (const w of windows) expect(w.readings, w.case).toContain('sliding');
      expect(out.observations.filter((o) => o.topic === 'GATE-RATE-WINDOW-READING')).toHaveLength(windows.length);
      // Every other route of the Limits rows probed in its group, and judged (the embedded target counts every request).
      const routes = out.observations.filter((o) => o.topic === 'GATE-RATE-ROUTE-GROUP').map((o) => o.value as { item: string; judged: boolean; ok: boolean });
      expect(routes).toHaveLength(20);
      expect(routes.filter((r) => !r.judged || !r.ok).map((r) => r.item)).toEqual([]);
      expect(out.observations.filter((o) => o.topic !== 'GATE-RATE-WINDOW-READING' && o.topic !== 'GATE-RATE-ROUTE-GROUP')).toEqual([]);
    } finally {
      await ref.close();
    }
  });
});
