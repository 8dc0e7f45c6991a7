// The self-test's judge: a seeded fault is caught only when a check's
// assertion fails naming one of the fault's own requirement ids. A failure for
// another rule proves nothing about the rule the fault breaks; a timeout (the
// check's budget or a request's), a request that got no answer, or a crash (a
// thrown non-assertion error, a k6 run that died) proves nothing either: they
// are shown, never counted. Every check is proven able to fail when some fault
// makes one of its assertions fail that way.
import type { FaultDef } from '../../src/reference/kit/faults.js';
import type { CheckResult, FailureKind } from '../../src/report/results.js';

export interface FaultRun {
  fault: FaultDef;
  checks: CheckResult[];
}

const namesOwn = (run: FaultRun, c: CheckResult) => !!c.failure?.requirement && (run.fault.requirements as readonly string[]).includes(c.failure.requirement);

/** Checks whose assertion failed naming one of the fault's requirement ids: the one way a fault is caught. */
export function caughtBy(run: FaultRun): CheckResult[] {
  return run.checks.filter((c) => c.status === 'failed' && c.failure?.kind === 'assertion' && namesOwn(run, c));
}

/** Checks that failed on one of the fault's requirements without an assertion (timeout, no answer, crash): never counted. */
export function failedUnasserted(run: FaultRun): CheckResult[] {
  return run.checks.filter((c) => c.status === 'failed' && c.failure?.kind !== 'assertion' && namesOwn(run, c));
}

/** Checks that failed for another reason (a different rule, no rule named): shown, never counted. */
export function failedOtherwise(run: FaultRun): CheckResult[] {
  const own = new Set([...caughtBy(run), ...failedUnasserted(run)]);
  return run.checks.filter((c) => c.status === 'failed' && !own.has(c));
}

export interface SelfTestTable {
  lines: string[];
  missedFaults: string[];
  /** Check keys (file::name) of checks no fault made fail by an assertion on one of its own requirements. */
  unprovenChecks: string[];
  /** Failures on a fault's own requirement that are not assertions, by kind: shown, never counted as a catch. */
  notCounted: Record<Exclude<FailureKind, 'assertion'>, number>;
  /** Faults a failure of any kind naming their requirement would have "caught" (the judge before kinds were told apart). */
  caughtByAnyFailure: number;
  /** Checks that judge would have counted proven. */
  provenByAnyFailure: number;
}

const key = (c: { file?: string; name: string }) => `${c.file}::${c.name}`;

function outcome(run: FaultRun, c: CheckResult): string {
  if (c.status !== 'failed') return `${run.fault.name}: ${c.status.replace('_', ' ')}${c.reason ? ` (${c.reason.slice(0, 120)})` : ''}`;
  const on = c.failure?.requirement ?? 'no requirement named';
  if (!namesOwn(run, c)) return `${run.fault.name}: failed on another rule (${on})`;
  return `${run.fault.name}: failed by ${c.failure?.kind ?? 'an unknown kind'} (${on}), not an assertion`;
}

export function selfTestTable(runs: FaultRun[], allChecks: { file: string; name: string }[]): SelfTestTable {
  const lines: string[] = [];
  const missed: string[] = [];
  const proven = new Map<string, string[]>();
  const laxProven = new Set<string>();
  const seen = new Map<string, string[]>();
  const notCounted = { timeout: 0, transport: 0, crash: 0 };
  let caughtByAnyFailure = 0;
  for (const run of [...runs].sort((a, b) => a.fault.name.localeCompare(b.fault.name))) {
    const caught = caughtBy(run);
    const unasserted = failedUnasserted(run);
    const other = failedOtherwise(run);
    if (!caught.length) missed.push(run.fault.name);
    if (caught.length || unasserted.length) caughtByAnyFailure++;
    for (const c of unasserted) notCounted[(c.failure?.kind ?? 'crash') as keyof typeof notCounted]++;
    for (const c of [...caught, ...unasserted]) laxProven.add(key(c));
    for (const c of caught) proven.set(key(c), [...(proven.get(key(c)) ?? []), run.fault.name]);
    for (const c of run.checks) if (!caught.includes(c)) seen.set(key(c), [...(seen.get(key(c)) ?? []), outcome(run, c)]);
    lines.push(
      `${caught.length ? 'caught' : 'MISSED'} ${run.fault.name} [${run.fault.requirements.join(', ')}] ← ${
        caught.map((c) => `${c.name} (assertion on ${c.failure?.requirement})`).join(' | ') ||
        `no assertion of ${run.checks.length} checks failed naming its requirements`
      }${unasserted.length ? `; failed without an assertion, not counted: ${unasserted.map((c) => `${c.name} (${c.failure?.kind}: ${c.failure?.message.slice(0, 100)})`).join(' | ')}` : ''}${
        other.length ? `; also failed, not counted: ${other.map((c) => `${c.name} (${c.failure?.requirement ?? 'no requirement named'})`).join(' | ')}` : ''
      }`,
    );
  }
  const unproven = allChecks.map(key).filter((k) => !proven.has(k));
  lines.push('', 'check → proven by an assertion failing on its own requirement under a seeded fault, or not proven and why:');
  for (const c of allChecks) {
    const k = key(c);
    const why = seen.get(k);
    lines.push(
      proven.has(k)
        ? `✓ ${k} — proven by assertion (${proven.get(k)!.join(', ')})`
        : `✗ ${k} — not proven: ${why?.length ? why.slice(0, 4).join('; ') + (why.length > 4 ? '; …' : '') : 'no seeded fault breaks any of its requirements'}`,
    );
  }
  lines.push(
    '',
    `${runs.length - missed.length}/${runs.length} faults caught by assertion; ${allChecks.length - unproven.length}/${allChecks.length} checks proven; ` +
      `failures on a fault's own requirement not counted: ${notCounted.timeout} timeout, ${notCounted.transport} transport, ${notCounted.crash} crash (0 counted by timeout)`,
  );
  const provenByAnyFailure = allChecks.filter((c) => laxProven.has(key(c))).length;
  lines.push(
    `a judge counting any failure on a fault's requirement would say: ${caughtByAnyFailure}/${runs.length} faults caught, ${provenByAnyFailure}/${allChecks.length} checks proven`,
  );
  return { lines, missedFaults: missed, unprovenChecks: unproven, notCounted, caughtByAnyFailure, provenByAnyFailure };
}

/**
 * The conformance self-test under one profile of the embedded target: conformance faults, and faults of
 * another suite that also break a conformance requirement (a double trade under a transact race), each on
 * a target of its own running only the checks naming the fault's requirements. Every conformance check is
 * in the table, whatever its depth.
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
  const all = suites.flatMap((s) => s.checks.map((c) => ({ file: s.file, name: c.name })));
  return { runs, table: selfTestTable(runs, all), total: all.length };
}

/** Faults the conformance self-test runs: its own, and other suites' that break a conformance requirement. */
export function conformanceFaultsOf(all: readonly FaultDef[], conformanceIds: ReadonlySet<string>): FaultDef[] {
  return all.filter((f) => (f.suite ?? 'conformance') === 'conformance' || f.requirements.some((id) => conformanceIds.has(id)));
}
