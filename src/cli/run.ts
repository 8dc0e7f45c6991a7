// One run of rampart: resolve the target, check it answers as the API, run the
// suite kinds asked for, and end like every run ends — results.json, junit.xml,
// report.html and the history entry written, `latest` pointing at them, one
// verdict, one exit code — whether it finished, failed, was interrupted
// (SIGINT/SIGTERM) or found the target down.
import { hostname } from 'node:os';
import { join } from 'node:path';
import { mkdirSync, readFileSync } from 'node:fs';
import { registerSecret, redact } from '../secrets/index.js';
import { EXIT, RunError } from '../exitCodes.js';
import { SPEC_VERSION } from '../model/limits.js';
import { ProfileError } from '../profile/load.js';
import type { Profile } from '../profile/schema.js';
import type { CheckResult, Observation, RunResults, RunScope } from '../report/results.js';
import { customGatesNote, exitCodeOf, requirementResults, runScope, summarize, timeScaleNote, type DeclaredCheck } from '../report/verdict.js';
import { newRunId, pointLatest, writeRunEmergency } from '../report/writeRun.js';
import { readJournal, writeRunRecord, type RunRecord } from '../runner/journal.js';
import type { Exchange } from '../client/types.js';
import { clockReport, newTargetClocks, receiverNow } from '../client/targetClock.js';
import { createProgress } from '../runner/progress.js';
import type { SuiteKind, SuiteKindName } from '../suites/kind.js';
import type { WebhookReceiver } from '../webhooks/types.js';
import { applyHarnessFlags } from './harnessFlags.js';
import { gatesOfRun, profileSha256, resumeOptions } from './resume.js';
import { printVerdict, writeReports } from './runReports.js';
import type { Recorders, Run, RunOptions } from './runState.js';
import { runScheduledKinds, scheduleOf } from './runScheduledKinds.js';
import { assertSafeForTraffic, preflight, resolveTarget, type ResolvedTarget } from './target.js';

export type { Run, RunOptions } from './runState.js';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

async function kindsOf(names: SuiteKindName[]): Promise<SuiteKind[]> {
  const out: SuiteKind[] = [];
  for (const n of names) {
    if (n === 'conformance') out.push((await import('../suites/conformance.js')).conformance);
    if (n === 'chaos') out.push((await import('../suites/chaos.js')).chaos);
    if (n === 'load') out.push((await import('../suites/load.js')).load);
    if (n === 'explore') out.push((await import('../suites/explore.js')).exploreKind);
    if (n === 'races') out.push((await import('../suites/races.js')).racesKind);
  }
  return out;
}

/** Every secret a profile holds is masked, in every form, in every output. */
export function registerProfileSecrets(profile: Profile): void {
  const add = (v?: string) => v && registerSecret(v);
  for (const p of profile.gate.partners)
    [
      p.secretKey,
      ...(p.extraSecretKeys ?? []),
      p.publishableKey,
      p.liveSecretKey,
      p.livePublishableKey,
      p.revokedSecretKey,
      p.revokedPublishableKey,
      p.webhookSecret,
    ].forEach(add);
  for (const p of profile.pools?.partners ?? []) [p.secretKey, p.publishableKey, p.liveSecretKey, p.revokedSecretKey, p.webhookSecret].forEach(add);
}

function baseUrlsOf(profile: Profile): Record<string, string | undefined> {
  return {
    gateSandbox: profile.gate.baseUrls.sandbox,
    gateProduction: profile.gate.baseUrls.production,
    poolsSandbox: profile.pools?.baseUrls.sandbox,
    poolsProduction: profile.pools?.baseUrls.production,
  };
}

/** Run the given suite kinds and write the run directory. Returns the exit code. */
export async function runKinds(kindNames: SuiteKindName[], command: string, opts: RunOptions): Promise<number> {
  // A resume of another target, or by other gates, is refused here: nothing is written.
  const asked = resumeOptions(kindNames, opts);
  if (typeof asked === 'number') return asked;
  const scope = runScope(asked.kindNames, {
    depth: asked.opts.depth,
    service: asked.opts.service,
    grep: asked.opts.grep,
    scenarios: asked.opts.scenario,
    cases: asked.opts.case,
    gates: gatesOfRun(asked.kindNames, asked.opts.gates),
  });
  if (refusesSigning(asked.opts, scope)) return EXIT.usage;
  const history = await openHistory(asked, command, scope);
  if (typeof history === 'number') return history;
  const run = openRun({ ...asked, command, scope });
  const onSignal = stopOnSignals(run);
  if (!(await signingKeyLoads(run.opts.signKey))) {
    await history.store?.close();
    return EXIT.usage;
  }
  const recorders = await openRecorders(run);
  await runAgainstTarget(run, recorders);
  if (history.baseline && run.kindNames.includes('load')) await judgeRelativeGates(run, history.baseline);
  const full = await judge(run);
  const exitCode = exitCodeOf(full, { failIncomplete: run.opts.failIncomplete });
  const written = await writeReports(run, full, recorders.har, { ...history, context: { ...history.context, exitCode } });
  await history.store?.close();
  // An interrupted run keeps its handlers and leaves explicitly below: removing them, or letting Node exit
  // naturally (it closes its signal watchers one by one), opens a window where a second signal ends the
  // process by the signal instead of with 130 / 143.
  if (!run.interrupted) {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
  printVerdict(run, full, written, recorders.har);
  if (run.interrupted) process.exit(exitCode);
  return exitCode;
}

/**
 * The run store (src/history), opened before anything is written: a --history store that cannot be opened, or a
 * --baseline it cannot resolve, refuses the run (exit 2). The target's identity leaves the embedded target's faults
 * out: its runs with and without --fault are one target.
 */
async function openHistory(
  asked: { opts: RunOptions; resumed?: RunRecord; profileSha256?: string; kindNames: SuiteKindName[] },
  command: string,
  scope: RunScope,
): Promise<import('../history/runHistory.js').RunHistory | number> {
  const { openRunHistory, RunHistoryError } = await import('../history/runHistory.js');
  const { scopeKeyOf } = await import('../history/identity.js');
  let targetHash: string | undefined;
  try {
    targetHash = profileSha256(asked.opts.profile, undefined);
  } catch {
    // A profile that cannot be loaded ends the run with its own line and report.
  }
  try {
    return await openRunHistory({
      history: asked.opts.history,
      baseline: asked.opts.baseline,
      reportsDir: asked.opts.resume ? join(asked.opts.resume, '..') : asked.opts.reportsDir,
      targetHash,
      profileHash: asked.profileSha256,
      faults: asked.opts.fault,
      scopeKey: scopeKeyOf({ command, depth: asked.opts.depth, scope }),
      runId: asked.resumed?.runId,
    });
  } catch (e) {
    if (!(e instanceof RunHistoryError)) throw e;
    process.stderr.write(redact(`rampart: ${e.message}`) + '\n');
    return EXIT.usage;
  }
}

/** --baseline: this run's p95 per scenario and route group against the baseline's (src/load/verdict.ts relativeGateChecks). */
async function judgeRelativeGates(run: Run, baseline: import('../history/baseline.js').ResolvedBaseline): Promise<void> {
  const { relativeGatesOfRun } = await import('../history/runHistory.js');
  try {
    const { checks, observations } = relativeGatesOfRun(run.results, run.runDir, baseline, run.opts.gates);
    run.results.checks.push(...checks);
    run.results.observations.push(...observations);
  } catch (e) {
    recordRunError(run, e);
  }
}

/** CERTIFIED and a signed certificate belong to a whole run by rampart's gates (or stricter) alone: any other run is refused the key now. */
function refusesSigning(opts: RunOptions, scope: RunScope): boolean {
  if (!opts.signKey) return false;
  if (!scope.whole) {
    process.stderr.write(
      `rampart: --sign-key is refused: a certificate is signed only for a whole run (rampart certify, nothing narrowed), and this is a partial run (${scope.partial})\n`,
    );
    return true;
  }
  const custom = customGatesNote(scope);
  if (!custom) return false;
  process.stderr.write(
    redact(
      `rampart: --sign-key is refused: a certificate is signed only for rampart's default gates or stricter, and ${opts.gates ?? 'the gates'} are ${custom}\n`,
    ),
  );
  return true;
}

/** The run's directory made (or reopened), its record written, `latest` pointed at it, and its results begun. */
function openRun(asked: { kindNames: SuiteKindName[]; opts: RunOptions; resumed?: RunRecord; profileSha256?: string; command: string; scope: RunScope }): Run {
  const { kindNames, opts, resumed, command, scope } = asked;
  const startedAt = resumed ? new Date(resumed.startedAt) : new Date();
  const runId = resumed?.runId ?? newRunId(startedAt);
  const reportsDir = opts.resume ? join(opts.resume, '..') : opts.reportsDir;
  const runDir = join(reportsDir, runId);
  mkdirSync(runDir, { recursive: true });
  const done = opts.resume ? readJournal(runDir) : new Map<string, CheckResult>();
  writeRunRecord(runDir, {
    runId,
    command,
    kinds: kindNames,
    depth: opts.depth,
    ...(opts.service ? { service: opts.service } : {}),
    ...(opts.grep ? { grep: opts.grep } : {}),
    ...(opts.profile ? { profile: opts.profile } : {}),
    ...(asked.profileSha256 ? { profileSha256: asked.profileSha256 } : {}),
    ...(opts.gates ? { gates: opts.gates } : {}),
    ...(scope.gates ? { gatesSha256: scope.gates.sha256 } : {}),
    ...(opts.fault?.length ? { faults: opts.fault } : {}),
    ...(opts.scenario?.length ? { scenarios: opts.scenario } : {}),
    ...(opts.case?.length ? { cases: opts.case } : {}),
    startedAt: startedAt.toISOString(),
  });
  // From here on `latest` is this run: never an older, passing one.
  pointLatest(reportsDir, runDir);
  const results: Run['results'] = {
    runId,
    tool: { name: 'rampart', version: pkg.version },
    command,
    depth: opts.depth,
    scope,
    startedAt: startedAt.toISOString(),
    finishedAt: startedAt.toISOString(),
    profile: { name: opts.profile ?? 'embedded', baseUrls: {} },
    environment: { node: process.version, platform: `${process.platform}-${process.arch}`, host: hostname(), specVersion: SPEC_VERSION },
    requirements: [],
    checks: [],
    observations: [],
    ...(resumed ? { resumedFrom: runDir } : {}),
  };
  const run = { kindNames, command, opts, scope, runId, startedAt, reportsDir, runDir, resumed, done, results };
  return { ...run, progress: createProgress(), stop: new AbortController(), clocks: newTargetClocks() };
}

/**
 * SIGINT or SIGTERM stops the run: no new checks start, running ones end as not run, the report of what finished
 * is written. A second signal writes what is known at once and leaves. Returns the handler (to remove it).
 */
function stopOnSignals(run: Run): (signal: NodeJS.Signals) => void {
  let signals = 0;
  const onSignal = (signal: NodeJS.Signals) => {
    signals++;
    if (signals === 1) {
      run.interrupted = { signal, at: new Date().toISOString() };
      run.progress.line(
        `rampart: ${signal} — stopping: no new checks start, running ones end as not run; the report of what finished is being written (press again to exit at once)`,
      );
      run.stop.abort(`interrupted by ${signal}`);
      return;
    }
    // Second signal: write what is known synchronously and leave; `latest` already points here.
    try {
      writeRunEmergency(run.runDir, { ...run.results, interrupted: run.interrupted ?? { signal, at: new Date().toISOString() } }, [
        ...run.done.values(),
        ...run.results.checks,
      ]);
    } finally {
      process.exit(signal === 'SIGTERM' ? EXIT.terminated : EXIT.interrupted);
    }
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return onSignal;
}

/** A bad signing key fails now, not after an hour of traffic. */
async function signingKeyLoads(signKey: string | undefined): Promise<boolean> {
  if (!signKey) return true;
  const { loadSigningKey } = await import('../report/certificate.js');
  try {
    loadSigningKey(signKey);
    return true;
  } catch (e) {
    process.stderr.write(redact(`rampart: ${(e as Error).message}`) + '\n');
    return false;
  }
}

async function openRecorders(run: Run): Promise<Recorders> {
  const har = run.opts.har ? new (await import('../report/har.js')).HarRecorder({ creatorVersion: pkg.version }) : undefined;
  const { curlFor, reproduceSteps } = await import('../report/reproduce.js');
  let reproSeq = 0;
  const reproduce = (failing: Exchange, before: Exchange[], check: string) => {
    const bodyName = `${String(++reproSeq).padStart(3, '0')}-${check.replace(/[^A-Za-z0-9]+/g, '-').slice(0, 40)}`;
    const one = curlFor(failing, { partner: partnerOf(failing), runDir: run.runDir, bodyName });
    const steps = before.length ? reproduceSteps([...before, failing], { partner: partnerOf(failing), runDir: run.runDir, bodyName }).command : undefined;
    return { command: one.command, env: one.env, notes: one.notes, ...(one.bodyFile ? { bodyFile: one.bodyFile } : {}), ...(steps ? { steps } : {}) };
  };
  return { har, reproduce };
}

/**
 * Everything that talks to the target: resolve it, announce the plan, check it answers as the API, start the
 * receiver and run the kinds. A run error or a defect of rampart ends here in the results, never above.
 */
async function runAgainstTarget(run: Run, recorders: Recorders): Promise<void> {
  let target: ResolvedTarget | undefined;
  let receiver: WebhookReceiver | undefined;
  let oracle: import('./oracle.js').RunningOracle | undefined;
  try {
    target = await resolveTarget({ profile: run.opts.profile, faults: run.opts.fault });
    const profile = adoptProfile(run, target);
    await announcePlan(run, profile);
    const kinds = await readyKinds(run, profile);
    const schedule = await scheduleOf(run, profile, kinds);
    const { startReceiver } = await import('../webhooks/receiver.js');
    receiver = await startReceiver({
      host: profile.webhooks.listenHost,
      port: profile.webhooks.listenPort,
      publicUrl: profile.webhooks.publicUrl,
      now: receiverNow(run.clocks),
    });
    // explore's oracle: the embedded reference, from this profile's partners, on loopback (src/cli/oracle.ts).
    if (kinds.some((k) => k.name === 'explore')) {
      const { startOracle } = await import('./oracle.js');
      oracle = await startOracle(profile);
    }
    // races' oracle: fresh worlds of the embedded reference, one per serial order it tries (src/cli/oracle.ts).
    const raceWorlds = kinds.some((k) => k.name === 'races') ? (await import('./oracle.js')).oracleWorlds(profile) : undefined;
    const stopped = await runScheduledKinds(run, profile, kinds, schedule, { ...recorders, receiver, oracle: oracle?.profile, raceWorlds });
    if (stopped.outage && !run.interrupted) throw new RunError(`the target stopped answering mid-run: ${stopped.outage}`, EXIT.unreachable);
    if (stopped.rateLimited && !run.interrupted) throw new RunError(stopped.rateLimited, EXIT.rateLimited);
  } catch (e) {
    recordRunError(run, e);
  } finally {
    run.progress.stop();
    await receiver?.close().catch(() => undefined);
    await oracle?.close().catch(() => undefined);
    await target?.close().catch(() => undefined);
  }
}

/** The profile as the harness flags shape it: its secrets masked from here on, its time scales and name recorded. */
function adoptProfile(run: Run, target: ResolvedTarget): Profile {
  const profile = applyHarnessFlags(target.profile, run.opts);
  run.profile = profile;
  registerProfileSecrets(profile);
  run.timeScales = { retryScale: profile.timing.retryScale, rateWindowScale: profile.timing.rateWindowScale };
  run.results.profile = { name: profile.name + (target.faults.length ? ` [faults: ${target.faults.join(', ')}]` : ''), baseUrls: baseUrlsOf(profile) };
  return profile;
}

/** The plan before traffic: what runs, what is skipped and why, and the time the windows force. */
async function announcePlan(run: Run, profile: Profile): Promise<void> {
  const { planRun, formatPlan } = await import('../plan/plan.js');
  const { planRoundTrip } = await import('../plan/roundTrip.js');
  const plan = await planRun(profile, {
    kinds: run.kindNames,
    depth: run.opts.depth,
    service: run.opts.service,
    grep: run.opts.grep,
    roundTrip: planRoundTrip(profile),
    ...(run.command === 'races' && run.opts.budget !== undefined ? { raceBudget: Number(run.opts.budget) } : {}),
    ...(run.command === 'certify' ? { raceInCertify: true } : {}),
  });
  // The plan goes to stdout with the verdict; stderr keeps progress and the one line of a run error.
  process.stdout.write(formatPlan(plan).join('\n') + '\n');
  run.progress.expectAtLeast(plan.lowerBoundSeconds * 1000);
  const secs = (ms: number) => Math.round(ms / 100) / 10;
  run.results.plan = {
    lowerBoundSeconds: plan.lowerBoundSeconds,
    roundTrip: { ms: plan.roundTrip.ms, source: plan.roundTrip.source },
    kinds: Object.fromEntries(Object.entries(plan.byKind).map(([k, ms]) => [k, { plannedSeconds: secs(ms) }])),
    ...(Object.keys(plan.scenarios).length
      ? { scenarios: Object.fromEntries(Object.entries(plan.scenarios).map(([n, ms]) => [n, { plannedSeconds: secs(ms) }])) }
      : {}),
  };
}

/** The target answers as the API, it is safe for the traffic asked for, and each kind accepts the run's options. */
async function readyKinds(run: Run, profile: Profile): Promise<SuiteKind[]> {
  const { kindNames, opts } = run;
  const services: ('gate' | 'pools')[] = opts.service ? [opts.service] : profile.pools ? ['gate', 'pools'] : ['gate'];
  await preflight(profile, services, run.clocks);
  if (kindNames.includes('load') || kindNames.includes('chaos')) assertSafeForTraffic(profile, !!opts.allowLive, kindNames.includes('load') ? 'load' : 'chaos');
  const kinds = await kindsOf(kindNames);
  for (const k of kinds)
    await k.validate?.({ profile, service: opts.service, scenarios: opts.scenario, cases: opts.case, gatesFile: opts.gates, raceFamilies: opts.family });
  const note = timeScaleNote({ timeScales: run.timeScales } as RunResults['summary']);
  if (note) run.progress.line(`- target declares ${note}`);
  return kinds;
}

/** A run error (bad profile, target down) or a defect of rampart itself: the report is still written, with the cause. */
function recordRunError(run: Run, e: unknown): void {
  if (e instanceof ProfileError || e instanceof RunError) {
    run.results.error = { message: e.message, exitCode: e.exitCode };
  } else {
    run.results.error = { message: `internal error: ${(e as Error)?.message ?? String(e)}`, exitCode: EXIT.internal };
    process.stderr.write(redact(`rampart: internal error: ${(e as Error)?.stack ?? String(e)}`) + '\n');
  }
}

/** The run judged: its target's clock, every requirement in scope, the summary and its verdict. */
async function judge(run: Run): Promise<RunResults> {
  const { results, opts, kindNames, scope } = run;
  if (run.interrupted) results.interrupted = run.interrupted;
  const seen = { gate: clockReport(run.clocks.gate), pools: clockReport(run.clocks.pools) };
  if (seen.gate.clock || seen.gate.roundTrip || seen.pools.clock || seen.pools.roundTrip) results.target = seen;
  // Narrowed by a filter, the run's scope is what its selected checks name; every declared check of those counts.
  const declared = await declaredChecks(kindNames, opts.service);
  const narrowed = !!(opts.grep || opts.scenario?.length || opts.case?.length);
  results.requirements = requirementResults(results.checks, {
    kinds: kindNames,
    service: opts.service,
    depth: opts.depth,
    onlyNamed: narrowed,
    declared,
    unrunWhy: narrowed ? `not selected by this run (${scope.partial})` : 'not run: the run stopped before them',
  });
  results.finishedAt = new Date().toISOString();
  return { ...results, summary: summarize(results, run.timeScales) };
}

/** Every check the kinds declare for the service, before any filter (the judge's measure of "all its checks ran"). */
async function declaredChecks(names: SuiteKindName[], service: 'gate' | 'pools' | undefined): Promise<DeclaredCheck[] | undefined> {
  try {
    const out: DeclaredCheck[] = [];
    for (const k of await kindsOf(names)) out.push(...(await k.declared({ service })));
    return out;
  } catch {
    // The suites could not be loaded (the run already records why it stopped): judge by the results alone.
    return undefined;
  }
}

/** The partner label a client put in its user-agent ("rampart (<label>)"): names the placeholder variable of a reproduction. */
function partnerOf(ex: Exchange): string | undefined {
  return /rampart \((.+)\)/.exec(ex.request.headers['user-agent'] ?? '')?.[1];
}

export type { Observation };
