// Latency per k6 scenario and route group, as a run's directory holds it: each scenario's k6 summary
// (k6/<scenario>/summary.json, merged over execution segments) tags http_req_duration per route group, and counts
// the share of unexpected statuses of its mixed traffic (rampart_unexpected). A run without summaries on disk (its
// results alone) gives the latency of results.json, under the scenario "*".
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunResults } from '../report/results.js';

export interface ScenarioLatency {
  scenario: string;
  group: string;
  p50?: number;
  p90?: number;
  p95?: number;
  p99?: number;
  max?: number;
  /** Requests the percentiles stand on. */
  samples?: number;
  /** The scenario's share of unexpected statuses (5xx, transport errors, unplanned 429), when it counts them. */
  errorRate?: number;
}

interface K6Summary {
  metrics?: Record<string, { values?: Record<string, number> }>;
}

const finite = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** One scenario's summary as rows: a row per route group its traffic tagged. */
export function latencyOfSummary(scenario: string, summary: K6Summary): ScenarioLatency[] {
  const errorRate = finite(summary.metrics?.['rampart_unexpected']?.values?.['rate']);
  const out: ScenarioLatency[] = [];
  for (const [metric, m] of Object.entries(summary.metrics ?? {})) {
    const group = /^http_req_duration\{group:([^}]+)\}$/.exec(metric)?.[1];
    if (!group || !m.values) continue;
    const v = m.values;
    out.push({
      scenario,
      group,
      p50: finite(v['med']),
      p90: finite(v['p(90)']),
      p95: finite(v['p(95)']),
      p99: finite(v['p(99)']),
      max: finite(v['max']),
      samples: finite(v['count']),
      ...(errorRate !== undefined ? { errorRate } : {}),
    });
  }
  return out.sort((a, b) => a.group.localeCompare(b.group));
}

/** The scenarios a run's metrics name (k6:<scenario>), each with its summary file relative to the run directory. */
function scenarioSummaries(results: Pick<RunResults, 'metrics'>): { scenario: string; file: string }[] {
  return Object.entries(results.metrics ?? {})
    .map(([key, m]) => ({ scenario: /^k6:(.+)$/.exec(key)?.[1], file: (m as { summary?: unknown } | undefined)?.summary }))
    .filter((x): x is { scenario: string; file: string } => !!x.scenario && typeof x.file === 'string' && !x.file.includes('..'));
}

/** Every scenario's rows, read from the run directory; the results' own latency when no summary could be read. */
export function runLatency(results: Pick<RunResults, 'metrics'>, runDir: string | undefined): ScenarioLatency[] {
  const out: ScenarioLatency[] = [];
  if (runDir)
    for (const { scenario, file } of scenarioSummaries(results)) {
      try {
        out.push(...latencyOfSummary(scenario, JSON.parse(readFileSync(join(runDir, file), 'utf8')) as K6Summary));
      } catch {
        // A scenario that wrote no summary (it crashed) has no latency to keep.
      }
    }
  if (out.length) return out;
  const merged = results.metrics?.latency;
  if (!merged || typeof merged !== 'object') return [];
  return Object.entries(merged as Record<string, Record<string, unknown>>)
    .filter(([, v]) => v && typeof v === 'object')
    .map(([group, v]) => ({
      scenario: '*',
      group,
      p50: finite(v.p50),
      p90: finite(v.p90),
      p95: finite(v.p95),
      p99: finite(v.p99),
      max: finite(v.max),
      samples: finite(v.samples ?? v.count),
    }));
}
