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
import type { CheckResult, Observation, RunResults } from '../report/results.js';
import { exitCodeOf, requirementResults, runScope, summarize, timeScaleNote, type DeclaredCheck } from '../report/verdict.js';
import { newRunId, pointLatest, writeRun, writeRunEmergency } from '../report/writeRun.js';
import { appendToJournal, readJournal, readRunRecord, writeRunRecord, type RunRecord } from '../runner/journal.js';
import type { Exchange } from '../client/types.js';
import { clockReport, newTargetClocks, receiverNow } from '../client/targetClock.js';
import { describeTargetClock } from '../wire/targetTime.js';
import { spentLowerBound } from '../plan/lowerBound.js';
import { writeCertificate as writeCertificateImpl } from '../report/certificate.js';
import { createProgress } from '../runner/progress.js';
import type { SuiteKind, SuiteKindName, SuiteOutcome } from '../suites/kind.js';
import { applyHarnessFlags, type HarnessFlags } from './harnessFlags.js';
import { assertSafeForTraffic, preflight, resolveTarget, type ResolvedTarget } from './target.js';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

export interface RunOptions extends HarnessFlags {
  profile?: string;
  service?: 'gate' | 'pools';
  grep?: string;
  depth: 'quick' | 'full';
  fault?: string[];
  reportsDir: string;
  allowLive?: boolean;
  concurrency?: string;
  scenario?: string[];
  case?: string[];
  gates?: string;
  resume?: string;
  failIncomplete?: boolean;
  /** Write every exchange of the run as HAR 1.2 (reports/<run>/run.har). */
  har?: boolean;
  /** certify: sign certificate.json with this Ed25519 key. */
  signKey?: string;
  /** 'github': print ::error annotations per failure. */
  annotations?: string;
  /** rampart load: split into k6 execution segments, pass k6 outputs, seed the traffic mix, emit a k6-operator bundle. */
  segments?: string;
  k6Out?: string[];
  seed?: string;
  emit?: string[];
}

async function kindsOf(names: SuiteKindName[]): Promise<SuiteKind[]> {
  const out: SuiteKind[] = [];
  for (const n of names) {
    if (n === 'conformance') out.push((await import('../suites/conformance.js')).conformance);
    if (n === 'chaos') out.push((await import('../suites/chaos.js')).chaos);
    if (n === 'load') out.push((await import('../suites/load.js')).load);
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
  // --resume: the run directory says what the run was; the journal, what finished.
  let resumed: RunRecord | undefined;
  if (opts.resume) {
    try {
      resumed = readRunRecord(opts.resume);
    } catch (e) {
      process.stderr.write(redact(`rampart: ${(e as Error).message}`) + '\n');
      return EXIT.usage;
    }
    kindNames = resumed.kinds;
    opts = {
      ...opts,
      depth: resumed.depth,
      service: resumed.service,
      grep: resumed.grep,
      profile: opts.profile ?? resumed.profile,
      fault: resumed.faults,
      scenario: resumed.scenarios,
      case: resumed.cases,
    };
  }
  // What the run covers. CERTIFIED and a signed certificate belong to a whole run alone: refuse the key now.
  const scope = runScope(kindNames, { depth: opts.depth, service: opts.service, grep: opts.grep, scenarios: opts.scenario, cases: opts.case });
  if (opts.signKey && !scope.whole) {
    process.stderr.write(
      `rampart: --sign-key is refused: a certificate is signed only for a whole run (rampart certify, nothing narrowed), and this is a partial run (${scope.partial})\n`,
    );
    return EXIT.usage;
  }
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
    ...(opts.fault?.length ? { faults: opts.fault } : {}),
    ...(opts.scenario?.length ? { scenarios: opts.scenario } : {}),
    ...(opts.case?.length ? { cases: opts.case } : {}),
    startedAt: startedAt.toISOString(),
  });
  // From here on `latest` is this run: never an older, passing one.
  pointLatest(reportsDir, runDir);

  const progress = createProgress();
  const stop = new AbortController();
  let interrupted: RunResults['interrupted'];
  const results: Omit<RunResults, 'summary'> & { summary?: RunResults['summary'] } = {
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
  let signals = 0;
  const onSignal = (signal: NodeJS.Signals) => {
    signals++;
    if (signals === 1) {
      interrupted = { signal, at: new Date().toISOString() };
      progress.line(
        `rampart: ${signal} — stopping: no new checks start, running ones end as not run; the report of what finished is being written (press again to exit at once)`,
      );
      stop.abort(`interrupted by ${signal}`);
      return;
    }
    // Second signal: write what is known synchronously and leave; `latest` already points here.
    try {
      writeRunEmergency(runDir, { ...results, interrupted: interrupted ?? { signal, at: new Date().toISOString() } }, [...done.values(), ...results.checks]);
    } finally {
      process.exit(signal === 'SIGTERM' ? EXIT.terminated : EXIT.interrupted);
    }
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  // A bad signing key fails now, not after an hour of traffic.
  if (opts.signKey) {
    const { loadSigningKey } = await import('../report/certificate.js');
    try {
      loadSigningKey(opts.signKey);
    } catch (e) {
      process.stderr.write(redact(`rampart: ${(e as Error).message}`) + '\n');
      return EXIT.usage;
    }
  }
  const har = opts.har ? new (await import('../report/har.js')).HarRecorder({ creatorVersion: pkg.version }) : undefined;
  const { curlFor, reproduceSteps } = await import('../report/reproduce.js');
  let reproSeq = 0;
  const reproduce = (failing: Exchange, before: Exchange[], check: string) => {
    const bodyName = `${String(++reproSeq).padStart(3, '0')}-${check.replace(/[^A-Za-z0-9]+/g, '-').slice(0, 40)}`;
    const one = curlFor(failing, { partner: partnerOf(failing), runDir, bodyName });
    const steps = before.length ? reproduceSteps([...before, failing], { partner: partnerOf(failing), runDir, bodyName }).command : undefined;
    return { command: one.command, env: one.env, notes: one.notes, ...(one.bodyFile ? { bodyFile: one.bodyFile } : {}), ...(steps ? { steps } : {}) };
  };

  let target: ResolvedTarget | undefined;
  let timeScales: { retryScale: number; rateWindowScale: number } | undefined;
  let profileForCertificate: Profile | undefined;
  let receiver: import('../webhooks/types.js').WebhookReceiver | undefined;
  const clocks = newTargetClocks();
  try {
    target = await resolveTarget({ profile: opts.profile, faults: opts.fault });
    const profile = applyHarnessFlags(target.profile, opts);
    profileForCertificate = profile;
    registerProfileSecrets(profile);
    timeScales = { retryScale: profile.timing.retryScale, rateWindowScale: profile.timing.rateWindowScale };
    results.profile = { name: profile.name + (target.faults.length ? ` [faults: ${target.faults.join(', ')}]` : ''), baseUrls: baseUrlsOf(profile) };
    // The plan before traffic: what runs, what is skipped and why, and the time the windows force.
    const { planRun, formatPlan } = await import('../plan/plan.js');
    const plan = await planRun(profile, { kinds: kindNames, depth: opts.depth, service: opts.service, grep: opts.grep });
    // The plan goes to stdout with the verdict; stderr keeps progress and the one line of a run error.
    process.stdout.write(formatPlan(plan).join('\n') + '\n');
    progress.expectAtLeast(plan.lowerBoundSeconds * 1000);
    results.plan = { lowerBoundSeconds: plan.lowerBoundSeconds };
    const services: ('gate' | 'pools')[] = opts.service ? [opts.service] : profile.pools ? ['gate', 'pools'] : ['gate'];
    await preflight(profile, services, clocks);
    if (kindNames.includes('load') || kindNames.includes('chaos'))
      assertSafeForTraffic(profile, !!opts.allowLive, kindNames.includes('load') ? 'load' : 'chaos');
    const kinds = await kindsOf(kindNames);
    for (const k of kinds) await k.validate?.({ profile, service: opts.service, scenarios: opts.scenario, cases: opts.case, gatesFile: opts.gates });
    const note = timeScaleNote({ timeScales } as RunResults['summary']);
    if (note) progress.line(`- target declares ${note}`);

    let outage: string | undefined;
    let rateLimited: string | undefined;
    const spent: number[] = [];
    const runKind = async (kind: SuiteKind): Promise<void> => {
      if (stop.signal.aborted) return;
      const kindDone = new Map([...done].filter(([k]) => k.startsWith(`${kind.name}:`)));
      let out: SuiteOutcome;
      if (kind.name === 'load' && kindDone.size > 0) {
        // The load scenarios finished before the interruption: keep their results.
        out = { checks: [...kindDone.values()], observations: [], metrics: {} };
      } else {
        out = await kind.run({
          profile,
          depth: opts.depth,
          service: opts.service,
          grep: opts.grep,
          concurrency: opts.concurrency ? Number(opts.concurrency) : undefined,
          progress,
          signal: stop.signal,
          runDir,
          done: kindDone,
          onResult: (key, r) => appendToJournal(runDir, key, r),
          onExchange: har ? (ex, check) => har.record(ex, { check, suite: kind.name }) : undefined,
          reproduce,
          onOutage: (m) => {
            outage = m;
            stop.abort(m);
          },
          onRateLimited: (m) => {
            rateLimited = m;
            stop.abort(m);
          },
          scenarios: opts.scenario,
          cases: opts.case,
          gatesFile: opts.gates,
          segments: opts.segments,
          k6Out: opts.k6Out,
          seed: opts.seed,
          receiver,
          clocks,
          log: (l) => progress.line(l),
        });
        if (kind.name === 'load') for (const c of out.checks) appendToJournal(runDir, `load:${c.file}::${c.name}`, c);
      }
      results.checks.push(...out.checks);
      results.observations.push(...out.observations);
      results.metrics = { ...(results.metrics ?? {}), ...out.metrics };
      if (out.stats) kindBounds.set(kind.name, spentLowerBound(out.stats, profile.timing.rateWindowScale).boundMs);
      if (out.metrics && typeof (out.metrics as { loadLowerBoundMs?: number }).loadLowerBoundMs === 'number')
        kindBounds.set(kind.name, (out.metrics as { loadLowerBoundMs: number }).loadLowerBoundMs);
      outage ??= out.outage;
      rateLimited ??= out.rateLimited;
    };
    // Kinds on disjoint partners run at once; the run's bound is the longest chain of what must run in turn.
    const { scheduleKinds } = await import('../runner/partition.js');
    const schedule = scheduleKinds(
      profile,
      kinds.map((k) => k.name),
    );
    if (kinds.length > 1)
      progress.line(schedule.groups.length === 1 ? `- ${kinds.map((k) => k.name).join(', ')} run at once, on disjoint partners` : `- ${schedule.why}`);
    const kindBounds = new Map<string, number>();
    const { startReceiver } = await import('../webhooks/receiver.js');
    receiver = await startReceiver({
      host: profile.webhooks.listenHost,
      port: profile.webhooks.listenPort,
      publicUrl: profile.webhooks.publicUrl,
      now: receiverNow(clocks),
    });
    for (const group of schedule.groups) {
      if (stop.signal.aborted) break;
      await Promise.all(group.map((name) => runKind(kinds.find((k) => k.name === name)!)));
      spent.push(Math.max(0, ...group.map((n) => kindBounds.get(n) ?? 0)));
    }
    if (results.plan && spent.length) results.plan.spentLowerBoundSeconds = Math.round(spent.reduce((a, b) => a + b, 0) / 100) / 10;
    if (outage && !interrupted) throw new RunError(`the target stopped answering mid-run: ${outage}`, EXIT.unreachable);
    if (rateLimited && !interrupted) throw new RunError(rateLimited, EXIT.rateLimited);
  } catch (e) {
    if (e instanceof ProfileError || e instanceof RunError) {
      results.error = { message: e.message, exitCode: e.exitCode };
    } else {
      // A defect of rampart itself: still write the report, with the cause.
      results.error = { message: `internal error: ${(e as Error)?.message ?? String(e)}`, exitCode: EXIT.internal };
      process.stderr.write(redact(`rampart: internal error: ${(e as Error)?.stack ?? String(e)}`) + '\n');
    }
  } finally {
    progress.stop();
    await receiver?.close().catch(() => undefined);
    await target?.close().catch(() => undefined);
  }

  if (interrupted) results.interrupted = interrupted;
  const seen = { gate: clockReport(clocks.gate), pools: clockReport(clocks.pools) };
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
  const full: RunResults = { ...results, summary: summarize(results, timeScales) };
  const exitCode = exitCodeOf(full, { failIncomplete: opts.failIncomplete });
  if (har) har.write(join(runDir, 'run.har'));
  // Only a whole run writes a certificate (a partial one was refused its signing key above).
  const isCertify = scope.whole;
  let certificate: { path: string; signed: boolean } | undefined;
  const { dir } = await writeRun(full, {
    reportsDir,
    // The certificate hashes every other report file: it is written last.
    finalize: isCertify
      ? (d, safe) => {
          certificate = writeCertificateSync(d, safe, opts.signKey, profileForCertificate);
        }
      : undefined,
  });
  if (process.env.GITHUB_STEP_SUMMARY) (await import('../report/github.js')).writeGithubStepSummary(full);
  if (opts.annotations === 'github') for (const l of (await import('../report/github.js')).githubAnnotations(full)) process.stdout.write(l + '\n');
  // An interrupted run keeps its handlers and leaves explicitly below: removing them, or letting Node exit
  // naturally (it closes its signal watchers one by one), opens a window where a second signal ends the
  // process by the signal instead of with 130 / 143.
  if (!interrupted) {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }

  const s = full.summary;
  const secs = ((Date.parse(full.finishedAt) - Date.parse(full.startedAt)) / 1000).toFixed(1);
  if (full.error) process.stderr.write(redact(`rampart: ${full.error.message}`) + '\n');
  const scale = timeScaleNote(s);
  process.stdout.write(
    [
      `${s.verdict}${scale ? ` (${scale})` : ''} — ${s.verdictLine}`,
      ...(scope.whole || s.verdict === 'PASSED' ? [] : [`scope: partial run (${scope.partial}) — only rampart certify, nothing narrowed, can be CERTIFIED`]),
      `requirements: ${s.passed} passed, ${s.failed} failed, ${s.partial} partial, ${s.skipped} skipped, ${s.unverified} unverified, ${s.notRun} not run, ${s.notCovered} not covered, ${s.outOfScope} out of scope at --depth ${opts.depth}`,
      `checks: ${s.checks.passed} passed, ${s.checks.failed} failed, ${s.checks.skipped} skipped, ${s.checks.unverified} unverified, ${s.checks.notRun} not run · ${secs}s${s.requestsPerRequirement !== undefined ? ` · ${s.requestsPerRequirement} requests per requirement asserted` : ''}`,
      ...(full.target ? [describeTargetClock(full.target)] : []),
      ...(full.plan
        ? [
            `time: ${secs} s against a lower bound of ${full.plan.spentLowerBoundSeconds ?? full.plan.lowerBoundSeconds} s${full.plan.spentLowerBoundSeconds !== undefined ? ' (what the windows and documented waits forced for the requests this run sent)' : ' (planned)'}`,
          ]
        : []),
      ...(s.verdict === 'INTERRUPTED' ? [`resume with: rampart ${command} --resume ${dir}`] : []),
      `report: ${dir}/report.html`,
      ...(certificate ? [`certificate: ${certificate.path} (${certificate.signed ? 'signed' : 'unsigned: pass --sign-key to sign it'})`] : []),
      ...(har ? [`HAR: ${dir}/run.har (${har.size} exchanges)`] : []),
    ].join('\n') + '\n',
  );
  if (interrupted) process.exit(exitCode);
  return exitCode;
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

function writeCertificateSync(dir: string, results: RunResults, signKey: string | undefined, profile: Profile | undefined) {
  return writeCertificateImpl(dir, results, { signKeyFile: signKey, profile });
}

export type { Observation };
