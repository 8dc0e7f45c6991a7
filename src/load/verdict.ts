// A scenario's k6 run turned into check results: one per requirement it
// proves (its `checks{req:ID}` threshold), one per breached performance gate
// (no requirement, still a failed check: src/report/verdict.ts makes it NOT
// CERTIFIED).
// A run that did not finish cleanly proves nothing: a k6 exit other than 0
// (passed) or 99 (a threshold breached), a segment without a summary, a
// scenario function that threw, or a rate-limit case that started and never
// finished fails every requirement of the scenario, with the reason — even
// when some of its checks had passed before.
import type { CheckResult } from '../report/results.js';
import { CATALOGUE } from '../model/catalogue/index.js';
import type { ScenarioName } from '../../scenarios/lib/requirements.js';
import type { ScenarioRun } from './scenarioRun.js';
import { failedChecks } from './summary.js';

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
    if (passes + fails === 0 && unverified) {
      checks.push({ ...base(id), status: 'unverified', reason: String(unverified.reason) });
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
    } else {
      checks.push({ ...base(id), status: 'passed' });
    }
  }
  // Gates thresholds other than the per-requirement ones (latency, error rate).
  let breached = 0;
  for (const [metric, m] of Object.entries(summary.metrics ?? {})) {
    if (metric.startsWith('checks{req:')) continue;
    for (const [expr, t] of Object.entries(m.thresholds ?? {})) {
      if (t.ok) continue;
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
  // A performance-gate scenario (smoke, soak): one check for its gates.
  if (!reqs.length && !breached) checks.push({ ...gateCheck, status: 'passed' });
  return checks;
}
