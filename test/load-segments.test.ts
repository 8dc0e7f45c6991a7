// A scenario split into k6 execution segments (rampart load --segments, the
// split k6-operator makes) against the embedded target, with its rate windows
// declared ×0.1 so the windows pass quickly: the smoke traffic as 2 segments
// and as 1 process with the same seed sends the same number of requests with
// no unintended 429 on any key (k6's json output passed through, one file per
// process), and the rate-limit scenario split in 2 still finds every boundary
// at the documented request. Skipped visibly without k6.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningReference } from '../src/reference/server.js';
import { loadGates } from '../src/load/gates.js';
import { findK6 } from '../src/load/k6.js';
import { runLoad, type LoadOutcome } from '../src/load/run.js';
import { routeKeysForFastest } from '../scenarios/lib/rateCases.js';
import { startEmbedded } from './support/embedded.js';

const k6 = findK6();
const noK6 = 'missing' in k6 ? k6.missing : undefined;
const dir = mkdtempSync(join(tmpdir(), 'rampart-load-segments-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// 10 s: each latency gate judged needs its samples (20 for a p95).
const gates = { ...loadGates(), smokeDurationSeconds: 10 };
const refusalsByKey = (out: LoadOutcome) =>
  Object.fromEntries(
    Object.entries((out.metrics.unexpectedByKey ?? {}) as Record<string, Record<string, number>>).map(([k, byStatus]) => [k, byStatus['429'] ?? 0]),
  );

describe.skipIf(!!noK6)(`load split into execution segments${noK6 ? ` (skipped: ${noK6})` : ''}`, () => {
  let ref: RunningReference;
  beforeAll(async () => {
    ref = await startEmbedded({ tweak: (p) => ({ ...p, timing: { ...p.timing, rateWindowScale: 0.1 } }) });
  });
  afterAll(async () => ref?.close());

  it('smoke as 2 segments and as 1 process, same seed: the same request total, no 429 on any key', { timeout: 120_000 }, async () => {
    // k6's own json output passed through: one file per process.
    const run = (segments: number) =>
      runLoad({
        profile: ref.profile,
        scenarios: ['smoke'],
        depth: 'quick',
        runDir: join(dir, `smoke-${segments}`),
        gates,
        segments,
        seed: 42,
        k6Out: [`json=${join(dir, `points-${segments}.json`)}`],
      });
    const one = await run(1);
    const two = await run(2);
    const total = (o: LoadOutcome) => (o.metrics['k6:smoke'] as { requests: number }).requests;
    console.log(
      `smoke requests: 1 process ${total(one)}, 2 segments ${total(two)}; 429 by key: ${JSON.stringify(refusalsByKey(one))} / ${JSON.stringify(refusalsByKey(two))}`,
    );
    expect(total(one)).toBeGreaterThan(0);
    expect(total(two)).toBe(total(one));
    expect(refusalsByKey(one)).toEqual({});
    expect(refusalsByKey(two)).toEqual({});
    for (const o of [one, two])
      expect(o.checks.map((c) => `${c.status} ${c.name} ${c.failure?.message ?? ''}`)).toEqual([expect.stringMatching(/^passed smoke: performance gates/)]);
    // Both segments ran, each with its own summary and dashboard, merged into one.
    const seg = two.metrics['k6:smoke'] as { segments: { segment: string; exitCode: number }[] };
    expect(seg.segments.map((s) => [s.segment, s.exitCode])).toEqual([
      ['0:1/2', 0],
      ['1/2:1', 0],
    ]);
    expect((two.metrics.k6Dashboards as Record<string, string[]>).smoke).toEqual(['k6/smoke/segment-1/dashboard.html', 'k6/smoke/segment-2/dashboard.html']);
    expect(['points-1.json', 'points-2.seg1.json', 'points-2.seg2.json'].filter((f) => !existsSync(join(dir, f)))).toEqual([]);
    expect(readFileSync(join(dir, 'points-2.seg2.json'), 'utf8')).toContain('"instance_id":"2"');
  });

  it('rate-limits split in 2: every boundary at the documented request, every window passes, both segments run cases', { timeout: 180_000 }, async () => {
    const out = await runLoad({ profile: ref.profile, scenarios: ['rate-limits'], depth: 'quick', runDir: join(dir, 'rate'), gates, segments: 2 });
    const bad = out.checks.filter((c) => c.status !== 'passed' && !(c.status === 'skipped' && c.reason?.startsWith('runs only at --depth full')));
    expect(bad.map((c) => `${c.name}: ${c.failure?.message} ${c.failure?.actual ?? ''}`)).toEqual([]);
    const boundaries = out.metrics.rateLimits as { case: string; documented: { firstRejectedRequest: number }; measured: { firstRejectedRequest: number } }[];
    expect(boundaries.map((b) => b.case).sort()).toEqual(['burst', 'minute', 'read60', 'replacesFirstOnly', 'write10', 'write30']);
    for (const b of boundaries) expect(b.measured.firstRejectedRequest, b.case).toBe(b.documented.firstRejectedRequest);
    const windows = out.metrics.rateWindows as { case: string; readings: string[] }[];
    for (const w of windows) expect(w.readings, w.case).toContain('sliding');
    const segs = out.metrics['k6:rate-limits'] as { segments: { exitCode: number }[]; caseSegments: Record<string, [number, number]> };
    expect(segs.segments.map((s) => s.exitCode)).toEqual([0, 0]);
    // Each case (and its key) ran in exactly one segment, and both segments ran some.
    console.log('rate-limit cases by segment', JSON.stringify(segs.caseSegments));
    // The route probes' lanes are VUs of their own, one per key of their own (the load partners' extra secret keys).
    const lanes = Object.keys(segs.caseSegments).filter((c) => c.startsWith('routes:'));
    expect(
      Object.keys(segs.caseSegments)
        .filter((c) => !lanes.includes(c))
        .sort(),
    ).toEqual(['burst', 'minute', 'read60', 'replacesFirstOnly', 'write10', 'write30']);
    expect(lanes.sort()).toEqual(Array.from({ length: routeKeysForFastest() }, (_, i) => `routes:own:${i}`).sort());
    expect(new Set(Object.values(segs.caseSegments).map((s) => s.join(':')))).toEqual(new Set(['0:0.5', '0.5:1']));
    expect(out.observations.filter((o) => o.topic === 'GATE-RATE-WINDOW-READING')).toHaveLength(windows.length);
  });
});
