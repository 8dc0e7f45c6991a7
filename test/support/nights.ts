// Test support: runs made up for the run store's tests — a conformance run of pools whose checks pass or fail as
// told, judged by the one judge (src/report/verdict.ts), with latency and a target clock when asked.
import type { CheckResult, RunResults } from '../../src/report/results.js';
import { runScope } from '../../src/report/verdict.js';
import { judged, runOf } from './results.js';

/** Requirements of the catalogue the made-up checks name (one check each). */
export const NIGHT_IDS = ['POOLS-QUOTE-NETWORK-DEFAULT-TRON', 'POOLS-CAP-TIER', 'POOLS-OMITTED-INTERNALS', 'POOLS-DISC-ENTITLED'] as const;

export function nightRun(opts: {
  runId: string;
  startedAt: string;
  /** Each named requirement's check status (the others pass). */
  statuses?: Partial<Record<(typeof NIGHT_IDS)[number], CheckResult['status']>>;
  version?: string;
  profileName?: string;
  command?: string;
  latency?: Record<string, { p50: number; p90: number; p95: number; p99: number; max: number; samples: number }>;
}): RunResults {
  const checks: CheckResult[] = NIGHT_IDS.map((id) => {
    const status = opts.statuses?.[id] ?? 'passed';
    return {
      name: `check of ${id}`,
      suite: 'conformance',
      file: 'conformance/pools/made-up.ts',
      requirements: [id],
      status,
      durationMs: 10 + id.length,
      ...(status === 'failed' ? { failure: { message: `${id} broken`, kind: 'assertion' as const, requirement: id, expected: 'x', actual: 'y' } } : {}),
      ...(status === 'skipped' || status === 'unverified' ? { reason: 'made up' } : {}),
    };
  });
  const finished = new Date(Date.parse(opts.startedAt) + 60_000).toISOString();
  return judged({
    ...runOf({
      runId: opts.runId,
      startedAt: opts.startedAt,
      finishedAt: finished,
      command: opts.command ?? 'conformance',
      profile: { name: opts.profileName ?? 'embedded', baseUrls: { poolsSandbox: 'http://127.0.0.1:1/v1' } },
      checks,
      ...(opts.latency ? { metrics: { latency: opts.latency } } : {}),
      target: {
        pools: {
          clock: { offsetMs: 12, uncertaintyMs: 40, samples: 9 },
          basis: 'stamps+date',
          roundTrip: { minMs: 1, medianMs: 2, p95Ms: 5, p99Ms: 5, jitterMs: 4, samples: 30 },
        },
      },
    }),
    ...(opts.version ? { tool: { name: 'rampart', version: opts.version } } : {}),
    scope: runScope(['conformance'], { depth: 'quick', service: 'pools' }),
  });
}

/** The n-th night of a series: run ids sort by time, a day apart, the 30th night 1 day ago. */
export const nightAt = (n: number) => {
  const day = 86_400_000;
  const startedAt = new Date(Math.floor(Date.now() / day) * day - (31 - n) * day + 3 * 3_600_000).toISOString();
  return { runId: `${startedAt.replace(/\.\d{3}Z$/, 'Z').replace(/[-:]/g, '')}-${String(n).padStart(4, '0')}`, startedAt };
};
