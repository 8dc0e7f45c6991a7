// The self-test's judge: a seeded fault is caught only when a check's
// assertion fails naming one of the fault's own requirement ids. A failure for
// another rule proves nothing about the rule the fault breaks; a timeout (the
// check's budget or a request's), a request that got no answer, or a crash (a
// thrown non-assertion error, a k6 run that died) proves nothing either: they
// are shown, never counted. Every check is proven able to fail when some fault
// makes one of its assertions fail that way.
import type { FaultDef } from '../../src/reference/kit/faults.js';
import type { ToxiproxyHandle } from '../../src/chaos/toxiproxy.js';
import type { Profile } from '../../src/profile/schema.js';
import type { CheckResult, FailureKind } from '../../src/report/results.js';
import type { ChecksOutcome, LoadedSuite } from '../../src/runner/run.js';

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

/** A target with some seeded faults on, reached only through its profile. */
export interface SelfTestWorld {
  profile: Profile;
  close(): Promise<void>;
}
/** Start a world with these faults on (and, for a fast variant, the target in real time). */
export type StartWorld = (faults: string[], opts?: { realTime?: boolean }) => Promise<SelfTestWorld>;

/** The embedded target of a profile file, on ephemeral ports. */
export function embeddedWorld(profileFile = 'fixtures/profiles/embedded.json'): StartWorld {
  return async (faults, opts) => {
    const { startEmbedded } = await import('./embedded.js');
    return startEmbedded({ profileFile, faults, ...(opts?.realTime ? { tweak: realTime } : {}) });
  };
}

/** The embedded target in real time (declared and applied): the real-time checks run on it at --depth full. */
export const realTime = (p: Profile): Profile => ({
  ...p,
  timing: { ...p.timing, retryScale: 1 },
  ...(p.reference ? { reference: { ...p.reference, timeScale: 1 } } : {}),
});

/** Run each fault on a world of its own, `parallel` at once, with the checks naming its requirements. */
async function faultRuns(faults: FaultDef[], parallel: number, run: (f: FaultDef) => Promise<CheckResult[]>): Promise<FaultRun[]> {
  const runs: FaultRun[] = [];
  const queue = [...faults];
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      for (let f = queue.shift(); f; f = queue.shift()) runs.push({ fault: f, checks: await run(f) });
    }),
  );
  return runs;
}

/**
 * The conformance self-test in one world (the embedded target under a profile, or the field world):
 * conformance faults, and faults of another suite that also break a conformance requirement (a double trade
 * under a transact race), each on a target of its own running only the checks naming the fault's
 * requirements. Every conformance check is in the table, whatever its depth.
 */
export async function conformanceSelfTest(world: string | StartWorld, parallel: number): Promise<{ runs: FaultRun[]; table: SelfTestTable; total: number }> {
  const start = typeof world === 'string' ? embeddedWorld(world) : world;
  const { CATALOGUE } = await import('../../src/model/catalogue/index.js');
  const { ALL_FAULTS } = await import('../../src/reference/faults.js');
  const { loadConformanceSuites, onlyChecksFor, runAgainst } = await import('./embedded.js');
  const conformanceIds = new Set<string>(CATALOGUE.filter((r) => (r.suite ?? 'conformance') === 'conformance').map((r) => r.id));
  const faults = conformanceFaultsOf(ALL_FAULTS, conformanceIds);
  const suites = await loadConformanceSuites();
  const runs = await faultRuns(faults, parallel, async (f) => {
    const w = await start([f.name]);
    try {
      return (await runAgainst(w, onlyChecksFor(suites, f.requirements), { concurrency: 12 })).checks;
    } finally {
      await w.close();
    }
  });
  const all = suites.flatMap((s) => s.checks.map((c) => ({ file: s.file, name: c.name })));
  return { runs, table: selfTestTable(runs, all), total: all.length };
}

/** Run the chaos checks of `suites` against a world through Toxiproxy. */
export async function runChaosAgainst(
  w: { profile: Profile },
  suites: LoadedSuite[],
  tp: ToxiproxyHandle,
  depth: 'quick' | 'full' = 'quick',
): Promise<ChecksOutcome> {
  const { installChaos } = await import('../../src/chaos/kit.js');
  const { createProgress } = await import('../../src/runner/progress.js');
  const { runChecks } = await import('../../src/runner/run.js');
  return runChecks({
    profile: w.profile,
    suites,
    depth,
    concurrency: 8,
    kind: 'chaos',
    progress: createProgress({ live: false, quiet: true }),
    prepare: (run) => installChaos(run, tp),
  });
}

/**
 * The chaos self-test in one world: every fault naming a requirement a chaos check covers, each on a world of
 * its own running the chaos checks of its requirements. A fault of a --depth full rule is the fast variant of
 * a real-time fault: its world keeps real time and its run is at --depth full.
 */
export async function chaosSelfTest(
  start: StartWorld,
  tp: ToxiproxyHandle,
  parallel: number,
): Promise<{ runs: FaultRun[]; table: SelfTestTable; total: number }> {
  const { CATALOGUE } = await import('../../src/model/catalogue/index.js');
  const { ALL_FAULTS } = await import('../../src/reference/faults.js');
  const { loadSuites } = await import('../../src/runner/run.js');
  const { onlyChecksFor } = await import('./embedded.js');
  const suites = await loadSuites('chaos');
  const fullDepth = new Set<string>(CATALOGUE.filter((r) => r.depth === 'full').map((r) => r.id));
  const covered = new Set<string>(suites.flatMap((s) => s.checks.flatMap((c) => c.requirements)));
  // Sequence faults (suite explore) and race faults (suite races) are missed by every fixed check by design: only explore, or races, finds them.
  const faults = ALL_FAULTS.filter((f) => !onlyFoundApart(f) && f.requirements.some((id) => covered.has(id)));
  const runs = await faultRuns(faults, parallel, async (f) => {
    const fast = f.requirements.some((id) => fullDepth.has(id));
    const w = await start([f.name], { realTime: fast });
    try {
      return (await runChaosAgainst(w, onlyChecksFor(suites, f.requirements), tp, fast ? 'full' : 'quick')).checks;
    } finally {
      await w.close();
    }
  });
  // Every chaos check, the --depth full ones too (proven by their fast variants).
  const all = suites.flatMap((s) => s.checks.map((c) => ({ file: s.file, name: c.name })));
  return { runs, table: selfTestTable(runs, all), total: all.length };
}

/**
 * A fault made to be missed by every fixed check: a sequence fault (suite explore, only explore finds it) or a race
 * fault (suite races, a check-then-act gap only requests arriving together meet: only races finds it).
 */
export const onlyFoundApart = (f: FaultDef): boolean => f.suite === 'explore' || f.suite === 'races';

/**
 * Faults the conformance self-test runs: its own, and other suites' that break a conformance requirement. Sequence
 * and race faults (onlyFoundApart) are left out: each is made to be missed by every fixed check.
 */
export function conformanceFaultsOf(all: readonly FaultDef[], conformanceIds: ReadonlySet<string>): FaultDef[] {
  return all.filter((f) => !onlyFoundApart(f) && ((f.suite ?? 'conformance') === 'conformance' || f.requirements.some((id) => conformanceIds.has(id))));
}
