// A scenario run on k6-operator, read back from its runner pods' logs
// (`kubectl logs -l k6_cr=rampart-<scenario>,runner=true`): each pod prints
// its end-of-test summary as one stdout line `RAMPART_SUMMARY {…}`
// (scenarios/lib/config.ts) and its records as k6 console lines
// `… msg="RAMPART {…}" …` (scenarios/lib/emit.ts). Put together they are the
// same ScenarioRun `--segments N` produces on one machine, so the same merge
// and the same verdict apply (summary.ts, verdict.ts).
import { SCENARIOS, type ScenarioName } from '../../scenarios/lib/requirements.js';
import { recordsOf, type ScenarioRun, type SegmentRun } from './scenarioRun.js';
import { mergeSummaries, type Summary } from './summary.js';

export interface PodLogs {
  summaries: Summary[];
  records: Record<string, unknown>[];
  /** Lines that start a summary but are not whole JSON (a torn or cut line). */
  torn: number;
}

const SUMMARY_MARK = 'RAMPART_SUMMARY ';

/**
 * The summaries and records in a log text. kubectl may prefix each line (--prefix: `[pod/…/k6] `,
 * --timestamps: an RFC 3339 time); k6 may log as logfmt (its default) or JSON (K6_LOG_FORMAT=json).
 */
export function readPodLogs(text: string): PodLogs {
  const out: PodLogs = { summaries: [], records: [], torn: 0 };
  const plain: string[] = [];
  for (const line of text.split('\n')) {
    const at = line.indexOf(SUMMARY_MARK);
    if (at >= 0) {
      try {
        out.summaries.push(JSON.parse(line.slice(at + SUMMARY_MARK.length)) as Summary);
      } catch {
        out.torn++;
      }
      continue;
    }
    const brace = line.indexOf('{"');
    if (brace >= 0 && line.includes('"msg":"RAMPART ')) {
      // k6's JSON log format: the record is the msg field's text.
      try {
        const msg = (JSON.parse(line.slice(brace)) as { msg?: string }).msg ?? '';
        out.records.push(JSON.parse(msg.slice('RAMPART '.length)) as Record<string, unknown>);
      } catch {
        /* a torn line: skip, as for a local run */
      }
      continue;
    }
    plain.push(line);
  }
  out.records.push(...recordsOf(plain.join('\n')));
  return out;
}

/** The requirement ids a summary proves: its `checks{req:ID}` thresholds. */
export function requirementsOfSummary(s: Summary): string[] {
  return Object.keys(s.metrics ?? {})
    .map((m) => /^checks\{req:([^}]+)\}$/.exec(m)?.[1])
    .filter((id): id is string => !!id);
}

/**
 * Which scenario a set of summaries came from, read from the requirements their thresholds prove;
 * undefined when they prove none (smoke and soak, told apart only by name).
 */
export function scenarioOfRequirements(ids: string[]): ScenarioName | undefined {
  if (!ids.length) return undefined;
  const names = (Object.keys(SCENARIOS) as ScenarioName[]).filter((n) => {
    const all = new Set(Object.values(SCENARIOS[n].cases as Record<string, readonly string[]>).flat());
    return ids.every((id) => all.has(id));
  });
  return names.length === 1 ? names[0] : undefined;
}

/**
 * The pods' logs of one scenario as the ScenarioRun of a local split run. The pods' exit codes are not in
 * their logs: a pod whose summary shows a breached threshold counts as k6's 99, else 0. `expected` is the
 * TestRun's parallelism when known: a pod without a summary line then fails the run, as a segment
 * without summary.json does locally.
 */
export function runOfPodLogs(name: ScenarioName, logs: PodLogs, expected?: number): ScenarioRun {
  const n = Math.max(expected ?? 0, logs.summaries.length + logs.torn);
  const breached = (s: Summary) => Object.values(s.metrics ?? {}).some((m) => Object.values(m.thresholds ?? {}).some((t) => !t.ok));
  const segments: SegmentRun[] = [];
  for (let i = 0; i < n; i++) {
    const summary = logs.summaries[i];
    segments.push({
      // Pods print in the order kubectl lists them, not by segment: they are named by that order.
      segment: n > 1 ? `pod ${i + 1} of ${n}` : null,
      exitCode: summary && breached(summary) ? 99 : 0,
      durationMs: summary?.state?.testRunDurationMs ?? 0,
      stderrTail: summary ? '' : i < logs.summaries.length + logs.torn ? 'its RAMPART_SUMMARY line is not whole JSON' : 'no RAMPART_SUMMARY line in the logs',
      summary,
      summaryFile: n > 1 ? `k6/${name}/segment-${i + 1}/summary.json` : `k6/${name}/summary.json`,
    });
  }
  const parts = segments.map((s) => s.summary);
  return {
    segments,
    summary: parts.every((s): s is Summary => !!s) && parts.length ? mergeSummaries(parts) : undefined,
    records: logs.records,
    durationMs: Math.max(0, ...segments.map((s) => s.durationMs)),
  };
}
