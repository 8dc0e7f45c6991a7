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

/**
 * The conformance self-test under one profile of the embedded target: conformance faults, and faults of
 * another suite that also break a conformance requirement (a double trade under a transact race), each on
 * a target of its own running only the checks naming the fault's requirements.
 */
export async function conformanceSelfTest(profileFile: string, parallel: number): Promise<{ runs: FaultRun[]; table: SelfTestTable; total: number }> {
  const { CATALOGUE } = await import('../../src/model/catalogue/index.js');
  const { ALL_FAULTS } = await import('../../src/reference/faults.js');
  const { loadConformanceSuites, onlyChecksFor, runAgainst, startEmbedded } = await import('./embedded.js');
  const conformanceIds = new Set<string>(CATALOGUE.filter((r) => (r.suite ?? 'conformance') === 'conformance').map((r) => r.id));
  const faults = conformanceFaultsOf(ALL_FAULTS, conformanceIds);
  const suites = await loadConformanceSuites();
  const runs: FaultRun[] = [];
  const queue = [...faults];
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      for (let f = queue.shift(); f; f = queue.shift()) {
        const ref = await startEmbedded({ profileFile, faults: [f.name] });
        try {
          const out = await runAgainst(ref, onlyChecksFor(suites, f.requirements), { concurrency: 12 });
          runs.push({ fault: f, checks: out.checks });
        } finally {
          await ref.close();
        }
      }
    }),
  );
  const all = suites.flatMap((s) => s.checks.filter((c) => c.depth !== 'full').map((c) => ({ file: s.file, name: c.name })));
  return { runs, table: selfTestTable(runs, all), total: all.length };
}

/** Faults the conformance self-test runs: its own, and other suites' that break a conformance requirement. */
export function conformanceFaultsOf(all: readonly FaultDef[], conformanceIds: ReadonlySet<string>): FaultDef[] {
  return all.filter((f) => (f.suite ?? 'conformance') === 'conformance' || f.requirements.some((id) => conformanceIds.has(id)));
}
