// The full conformance run against the embedded target (rate limits on),
// beside its lower bound: the time the documented Gate rate windows force
// for the requests each key had to send, and the longest mandatory wait (the
// 15 s quote TTL and the like) — whichever is larger. Also the requests spent
// per requirement covered. Run: npx tsx bench/conformance-budget.ts
import { loadProfile } from '../src/profile/load.js';
import { startReference } from '../src/reference/server.js';
import { createProgress } from '../src/runner/progress.js';
import { loadConformanceSuites, requirementResults, runChecks } from '../src/runner/run.js';
import type { RunStats } from '../src/runner/context.js';
import { gateRouteGroup, gateWindowsFor, type RateWindow } from '../src/model/limits.js';

/** Minimal span one key needs to send its requests under every window: (n − 1) / limit whole windows. */
export function keyLowerBoundMs(requests: { method: string; path: string }[]): number {
  const counts = new Map<string, { w: RateWindow; n: number }>();
  for (const r of requests) {
    const [first, minute, hour] = gateWindowsFor(r.method, r.path);
    const group = gateRouteGroup(r.method, r.path);
    for (const [k, w] of [[`first:${group}`, first], ['minute', minute], ['hour', hour]] as const) {
      const c = counts.get(k) ?? { w, n: 0 };
      c.n++;
      counts.set(k, c);
    }
  }
  let bound = 0;
  for (const { w, n } of counts.values()) bound = Math.max(bound, Math.floor((n - 1) / w.limit) * w.windowMs);
  return bound;
}

export function lowerBound(stats: RunStats): { rateMs: number; waitMs: number; boundMs: number; busiestKey: string } {
  const byKey = new Map<string, { method: string; path: string }[]>();
  for (const r of stats.requests) if (r.service === 'gate') byKey.set(r.label, [...(byKey.get(r.label) ?? []), r]);
  let rateMs = 0;
  let busiestKey = '';
  for (const [k, reqs] of byKey) {
    const b = keyLowerBoundMs(reqs);
    if (b > rateMs) [rateMs, busiestKey] = [b, k];
  }
  const perCheck = new Map<string, number>();
  for (const s of stats.sleeps) perCheck.set(s.check, (perCheck.get(s.check) ?? 0) + s.ms);
  const waitMs = Math.max(0, ...perCheck.values());
  return { rateMs, waitMs, boundMs: Math.max(rateMs, waitMs), busiestKey };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const profile = loadProfile('fixtures/profiles/embedded.json');
  const ref = await startReference({ profile, ephemeralPorts: true });
  try {
    const suites = await loadConformanceSuites();
    const started = Date.now();
    const out = await runChecks({ profile: ref.profile, suites, depth: 'quick', progress: createProgress({ live: false, quiet: true }) });
    const ms = Date.now() - started;
    const reqs = requirementResults(out.checks, (r) => r.suite === 'conformance');
    const covered = reqs.filter((r) => r.status === 'passed' || r.status === 'failed').length;
    const lb = lowerBound(out.stats);
    const keys = new Set(out.stats.requests.map((r) => r.label)).size;
    console.log(`conformance run: ${(ms / 1000).toFixed(1)} s for ${out.checks.length} checks (${out.checks.filter((c) => c.status === 'failed').length} failed)`);
    console.log(`lower bound: ${(lb.boundMs / 1000).toFixed(1)} s (rate windows ${(lb.rateMs / 1000).toFixed(1)} s on the busiest key ${lb.busiestKey}; longest mandatory wait ${(lb.waitMs / 1000).toFixed(1)} s)`);
    console.log(`ratio run / lower bound: ${(ms / Math.max(1, lb.boundMs)).toFixed(2)}`);
    console.log(`requests: ${out.stats.requests.length} over ${keys} client labels; ${(out.stats.requests.length / Math.max(1, covered)).toFixed(1)} per requirement covered (${covered} covered)`);
  } finally {
    await ref.close();
  }
}
