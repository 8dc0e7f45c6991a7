// A scenario's k6 run turned into check results: one per requirement it
// proves (its `checks{req:ID}` threshold), one per breached performance gate
// (no requirement, still a failed check: src/report/verdict.ts makes it NOT
// CERTIFIED).
// A run that did not finish cleanly proves nothing: a k6 exit other than 0
// (passed) or 99 (a threshold breached), a segment without a summary, a
// scenario function that threw, or a rate-limit case that started and never
// finished fails every requirement of the scenario, with the reason — even
// when some of its checks had passed before.
import type { CheckResult, Observation } from '../report/results.js';
import type { ScenarioLatency } from '../history/latency.js';
import type { RelativeGates } from './gates.js';
import { CATALOGUE } from '../model/catalogue/index.js';
import type { ScenarioName } from '../../scenarios/lib/requirements.js';
import { ROUTE_GROUP_IDS, routeProbes } from '../../scenarios/lib/routeProbes.js';
import type { ScenarioRun } from './scenarioRun.js';
import { failedChecks, type Summary } from './summary.js';

const titleOf = (id: string) => CATALOGUE.find((r) => r.id === id)?.title ?? id;

const tailOf = (text: string) => text.split('\n').filter(Boolean).slice(-3).join(' | ');

/** Why the run cannot be trusted (empty when it finished cleanly). */
export function crashReasons(run: ScenarioRun): string[] {
  const reasons: string[] = [];
  for (const s of run.segments) {
    const where = s.segment ? ` (segment ${s.segment})` : '';
    if (s.exitCode !== 0 && s.exitCode !== 99) reasons.push(`k6 ended with exit code ${s.exitCode}${where}`);
    else if (!s.summary) reasons.push(`k6 wrote no summary${where}`);
  }
  for (const r of run.records) if (r.kind === 'aborted') reasons.push(`the scenario threw in ${String(r.case)}: ${String(r.message)}`);
  const started = new Set(run.records.filter((r) => r.kind === 'caseStart').map((r) => String(r.case)));
  const done = new Set(run.records.filter((r) => r.kind === 'caseDone').map((r) => String(r.case)));
  for (const c of started)
    if (!done.has(c) && !run.records.some((r) => r.kind === 'aborted' && r.case === c)) reasons.push(`case ${c} started and never finished`);
  return [...new Set(reasons)];
}

/**
 * The parts of a rule the run left unjudged: the routes of a Limits row whose probe judged nothing (its record says
 * why) or that no probe record names at all. A rule with such a part never passes, whatever its other parts did.
 */
export function unjudgedParts(id: string, records: readonly Record<string, unknown>[]): string[] {
  const parts = records.filter((r) => r.kind === 'unverified' && r.req === id && r.part !== undefined).map((r) => String(r.reason));
  const group = (Object.entries(ROUTE_GROUP_IDS) as [string, string][]).find(([, req]) => req === id)?.[0];
  if (group) {
    const probed = new Set(records.filter((r) => r.kind === 'routeProbe' && r.group === group).map((r) => String(r.item)));
    for (const p of routeProbes({})) if (p.group === group && !probed.has(p.item)) parts.push(`${p.item}: not probed`);
  }
  return parts;
}

/** The check a scenario reports for one requirement it proves. */
export function requirementCheckOf(name: ScenarioName, id: string): { name: string; file: string; requirements: string[] } {
  return { name: `${name}: ${titleOf(id)}`, file: `scenarios/${name}.ts`, requirements: [id] };
}

export function scenarioChecks(name: ScenarioName, reqs: string[], run: ScenarioRun): CheckResult[] {
  const file = `scenarios/${name}.ts`;
  const base = (id: string) => ({ ...requirementCheckOf(name, id), suite: 'load' as const, durationMs: run.durationMs });
  const gateCheck = {
    name: `${name}: performance gates (p95/p99 per route group, unexpected-status rate)`,
    suite: 'load' as const,
    file,
    requirements: [],
    durationMs: run.durationMs,
  };
  const reasons = crashReasons(run);
  if (reasons.length) {
    const actual = run.segments
      .map((s) => tailOf(s.stderrTail))
      .filter(Boolean)
      .join(' || ');
    const message = `${reasons.join('; ')} — the run proves nothing, whatever passed before`;
    // A crash fails every requirement of the scenario, but it asserted none of them: kind crash, never "caught".
    if (!reqs.length) return [{ ...gateCheck, status: 'failed', failure: { message, kind: 'crash', actual } }];
    return reqs.map((id) => ({ ...base(id), status: 'failed' as const, failure: { message, kind: 'crash' as const, actual } }));
  }
  const summary = run.summary!;
  const checks: CheckResult[] = [];
  const failedNames = failedChecks(summary.root_group);
  // The failed checks of one requirement, from the scenarios' records (k6's summary does not group checks by tag).
  const failedFor = (id: string): string | undefined => {
    const mine = run.records.filter((r) => r.kind === 'failedCheck' && r.req === id);
    if (!mine.length) return undefined;
    const byName = new Map<string, { n: number; seen: unknown }>();
    for (const r of mine) {
      const e = byName.get(String(r.name));
      byName.set(String(r.name), { n: (e?.n ?? 0) + 1, seen: e?.seen ?? r.seen });
    }
    return [...byName].map(([name, e]) => `${name} ×${e.n}${e.seen === undefined ? '' : ` — first seen: ${JSON.stringify(e.seen)}`}`).join('; ');
  };
  for (const id of reqs) {
    const m = summary.metrics?.[`checks{req:${id}}`];
    const passes = m?.values?.passes ?? 0;
    const fails = m?.values?.fails ?? 0;
    const unverified = run.records.find((r) => r.kind === 'unverified' && r.req === id);
    const parts = fails > 0 ? [] : unjudgedParts(id, run.records);
    if (passes + fails === 0 && unverified) {
      checks.push({ ...base(id), status: 'unverified', reason: parts.length ? parts.join('; ') : String(unverified.reason) });
    } else if (passes + fails === 0) {
      // Nothing judged the rule: the run did not do what it was for, which is no assertion about the target.
      checks.push({ ...base(id), status: 'failed', failure: { message: 'the scenario never exercised this rule', kind: 'crash' } });
    } else if (fails > 0 || m?.thresholds?.['rate==1']?.ok === false) {
      checks.push({
        ...base(id),
        status: 'failed',
        failure: {
          message: `${fails} of ${passes + fails} checks for this rule failed`,
          kind: 'assertion',
          requirement: id,
          expected: 'every check passes (threshold rate==1)',
          actual: failedFor(id) ?? (failedNames.join('; ') || `${fails} failed`),
        },
      });
    } else if (parts.length) {
      // Its other parts passed, these were not judged: the rule is not shown (a group of routes passes only whole).
      const reason = `${parts.length} part${parts.length === 1 ? '' : 's'} not judged (${parts.join('; ')}); ${passes} check${passes === 1 ? '' : 's'} of its other parts passed`;
      checks.push({ ...base(id), status: 'unverified', reason });
    } else {
      checks.push({ ...base(id), status: 'passed' });
    }
  }
  // Gates thresholds other than the per-requirement ones (latency, error rate). A percentile on too few samples
  // judges nothing, breached or not (latencySamples): reported as an observation, never a pass or a failure.
  let breached = 0;
  const samples = latencySamples(summary);
  const unjudged = new Set(samples.unjudged.map((u) => `${u.metric} ${u.expr}`));
  for (const [metric, m] of Object.entries(summary.metrics ?? {})) {
    if (metric.startsWith('checks{req:')) continue;
    for (const [expr, t] of Object.entries(m.thresholds ?? {})) {
      if (t.ok || unjudged.has(`${metric} ${expr}`)) continue;
      breached++;
      checks.push({
        name: `${name}: gate ${metric} ${expr}`,
        suite: 'load',
        file,
        requirements: [],
        status: 'failed',
        durationMs: run.durationMs,
        failure: { message: `performance gate breached: ${metric} ${expr}`, kind: 'assertion', expected: expr, actual: JSON.stringify(m.values ?? {}) },
      });
    }
  }
  // A performance-gate scenario (smoke, soak): one check for its gates; with latency gates none of which had the
  // samples to judge, it judged nothing.
  if (!reqs.length && !breached) {
    if (samples.judged === 0 && samples.unjudged.length)
      checks.push({
        ...gateCheck,
        status: 'unverified',
        reason: `no latency gate had the samples to judge on (${samples.unjudged.map((u) => `${u.metric} ${u.expr}: ${u.count} of ${u.need}`).join('; ')}): run longer (gates smokeDurationSeconds) or give the traffic more keys`,
      });
    else checks.push({ ...gateCheck, status: 'passed' });
  }
  return checks;
}

/**
 * The fewest samples a percentile threshold ("p(95)<600") judges anything on: one sample at least above the
 * percentile, 1 / (1 − p) — 20 for p(95), 100 for p(99); on fewer it is the samples' maximum. Undefined for any
 * other expression (a rate, a count), which judges whatever it has.
 */
export function percentileMinSamples(expr: string): number | undefined {
  const m = /^\s*p\((\d+(?:\.\d+)?)\)/.exec(expr);
  if (!m) return undefined;
  const q = Number(m[1]) / 100;
  return q >= 1 ? undefined : Math.ceil(1 / (1 - q) - 1e-9);
}

/** The percentile gates of a summary: how many had the samples to judge on, and those that had not (with their counts). */
export function latencySamples(summary: Summary | undefined): {
  judged: number;
  unjudged: { metric: string; expr: string; count: number; need: number }[];
} {
  let judged = 0;
  const unjudged: { metric: string; expr: string; count: number; need: number }[] = [];
  for (const [metric, m] of Object.entries(summary?.metrics ?? {}))
    for (const expr of Object.keys(m.thresholds ?? {})) {
      const need = percentileMinSamples(expr);
      if (need === undefined) continue;
      const count = m.values?.count ?? 0;
      if (count >= need) judged++;
      else unjudged.push({ metric, expr, count, need });
    }
  return { judged, unjudged };
}

/** A baseline run's latency, as the run store kept it (src/history), or why there is none to judge against. */
export type BaselineLatency = { runId: string; latency: readonly ScenarioLatency[] } | { missing: string };

/**
 * The relative gates of a run with --baseline (src/load/gates.ts RelativeGates), per k6 scenario and route group:
 * this run's p95 (and p99 when the gates ask) against the baseline's, a regression past both the ratio and the
 * noise floor a failed check naming the route group and the baseline run. A percentile judges only where both
 * runs have its samples (percentileMinSamples); what could not be judged is an observation, and a scenario where
 * nothing could be a check unverified — never passed on nothing.
 */
export function relativeGateChecks(
  current: readonly ScenarioLatency[],
  baseline: BaselineLatency,
  rules: RelativeGates,
): { checks: CheckResult[]; observations: Observation[] } {
  const checks: CheckResult[] = [];
  const observations: Observation[] = [];
  const scenarios = [...new Set(current.map((l) => l.scenario))].sort();
  const base = (s: string) => ({ suite: 'load' as const, file: `scenarios/${s}.ts`, requirements: [], durationMs: 0 });
  for (const scenario of scenarios) {
    const name = `${scenario}: relative gates (p95${rules.p99Ratio ? '/p99' : ''} per route group against the baseline)`;
    if ('missing' in baseline) {
      checks.push({ ...base(scenario), name, status: 'unverified', reason: baseline.missing });
      continue;
    }
    let judged = 0;
    let breached = 0;
    for (const now of current.filter((l) => l.scenario === scenario)) {
      const then = baseline.latency.find((l) => l.scenario === scenario && l.group === now.group);
      for (const [stat, ratio] of [
        ['p95', rules.p95Ratio],
        ['p99', rules.p99Ratio],
      ] as const) {
        if (ratio === undefined) continue;
        const verdict = relativeVerdict(stat, ratio, rules.minDeltaMs, now, then);
        if ('unjudged' in verdict) {
          observations.push({
            topic: 'load-relative-gate',
            service: now.group === 'pools' ? 'pools' : 'gate',
            check: name,
            value: { scenario, group: now.group, stat, baseline: baseline.runId, why: verdict.unjudged },
            note: `${scenario} ${now.group} ${stat} not judged against baseline ${baseline.runId}: ${verdict.unjudged}`,
          });
          continue;
        }
        judged++;
        if (verdict.ok) continue;
        breached++;
        checks.push({
          ...base(scenario),
          name: `${scenario}: relative gate ${stat} of route group ${now.group} against baseline ${baseline.runId}`,
          status: 'failed',
          failure: {
            message: `performance regression against baseline run ${baseline.runId}: route group ${now.group} ${stat} ${fmtMs(verdict.now)} > ${fmtMs(verdict.limit)} (${ratio} × the baseline's ${fmtMs(verdict.then)}, and more than ${rules.minDeltaMs} ms above it)`,
            kind: 'assertion',
            expected: `${stat} ≤ max(${ratio} × ${fmtMs(verdict.then)}, ${fmtMs(verdict.then)} + ${rules.minDeltaMs} ms) = ${fmtMs(verdict.limit)} (baseline ${baseline.runId})`,
            actual: `${stat} ${fmtMs(verdict.now)} on ${now.samples} samples (baseline: ${then?.samples} samples)`,
          },
        });
      }
    }
    if (breached) continue;
    if (judged) checks.push({ ...base(scenario), name, status: 'passed' });
    else
      checks.push({
        ...base(scenario),
        name,
        status: 'unverified',
        reason: `no route group of ${scenario} had the samples to judge against baseline ${baseline.runId} (a p95 needs ${percentileMinSamples('p(95)')} in both runs)`,
      });
  }
  return { checks, observations };
}

const fmtMs = (v: number) => `${Math.round(v * 10) / 10} ms`;

function relativeVerdict(
  stat: 'p95' | 'p99',
  ratio: number,
  minDeltaMs: number,
  now: ScenarioLatency,
  then: ScenarioLatency | undefined,
): { unjudged: string } | { ok: boolean; now: number; then: number; limit: number } {
  const need = percentileMinSamples(stat === 'p95' ? 'p(95)' : 'p(99)')!;
  if (!then) return { unjudged: 'the baseline has no latency for this route group' };
  const a = now[stat];
  const b = then[stat];
  if (a === undefined || b === undefined) return { unjudged: `${a === undefined ? 'this run' : 'the baseline'} has no ${stat}` };
  if ((now.samples ?? 0) < need) return { unjudged: `this run has ${now.samples ?? 0} samples, a ${stat} needs ${need}` };
  if ((then.samples ?? 0) < need) return { unjudged: `the baseline has ${then.samples ?? 0} samples, a ${stat} needs ${need}` };
  const limit = Math.max(ratio * b, b + minDeltaMs);
  return { ok: a <= limit, now: a, then: b, limit };
}
