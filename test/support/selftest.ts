// The self-test's judge: a seeded fault is caught only when a check fails
// naming one of the fault's own requirement ids (a failure for any other
// reason proves nothing about the rule the fault breaks), and every check is
// proven able to fail when some fault makes it fail that way.
import type { FaultDef } from '../../src/reference/kit/faults.js';
import type { CheckResult } from '../../src/report/results.js';

export interface FaultRun {
  fault: FaultDef;
  checks: CheckResult[];
}

/** Checks that failed naming one of the fault's requirement ids. */
export function caughtBy(run: FaultRun): CheckResult[] {
  const ids = new Set<string>(run.fault.requirements);
  return run.checks.filter((c) => c.status === 'failed' && !!c.failure?.requirement && ids.has(c.failure.requirement));
}

/** Checks that failed for another reason (a different rule, no rule named): shown, never counted. */
export function failedOtherwise(run: FaultRun): CheckResult[] {
  const caught = new Set(caughtBy(run));
  return run.checks.filter((c) => c.status === 'failed' && !caught.has(c));
}

export interface SelfTestTable {
  lines: string[];
  missedFaults: string[];
  /** Check keys (file::name) of checks no fault made fail on one of its own requirements. */
  unprovenChecks: string[];
}

export function selfTestTable(runs: FaultRun[], allChecks: { file: string; name: string }[]): SelfTestTable {
  const lines: string[] = [];
  const missed: string[] = [];
  const proven = new Map<string, string[]>();
  for (const run of [...runs].sort((a, b) => a.fault.name.localeCompare(b.fault.name))) {
    const caught = caughtBy(run);
    const other = failedOtherwise(run);
    if (!caught.length) missed.push(run.fault.name);
    for (const c of caught) proven.set(`${c.file}::${c.name}`, [...(proven.get(`${c.file}::${c.name}`) ?? []), run.fault.name]);
    lines.push(
      `${caught.length ? 'caught' : 'MISSED'} ${run.fault.name} [${run.fault.requirements.join(', ')}] ← ${
        caught.map((c) => `${c.name} (${c.failure?.requirement})`).join(' | ') || `none of ${run.checks.length} checks failed naming its requirements`
      }${other.length ? `; also failed, not counted: ${other.map((c) => `${c.name} (${c.failure?.requirement ?? 'no requirement named'})`).join(' | ')}` : ''}`,
    );
  }
  const unproven = allChecks.map((c) => `${c.file}::${c.name}`).filter((k) => !proven.has(k));
  lines.push('', 'check → faults that made it fail on its own requirement:');
  for (const c of allChecks) {
    const k = `${c.file}::${c.name}`;
    lines.push(`${proven.has(k) ? '✓' : '✗'} ${k}${proven.has(k) ? ` ← ${proven.get(k)!.join(', ')}` : ''}`);
  }
  return { lines, missedFaults: missed, unprovenChecks: unproven };
}
