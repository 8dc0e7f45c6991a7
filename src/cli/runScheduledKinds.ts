// The suite kinds of one run, scheduled: groups on disjoint partners at once, groups sharing partners in turn, one
// Gate pacer for all; each kind's results, bounds and times added to the run's (run.ts opens and ends the run).
import type { Profile } from '../profile/schema.js';
import type { CheckResult } from '../report/results.js';
import { appendToJournal } from '../runner/journal.js';
import { spentLowerBound } from '../plan/lowerBound.js';
import type { Schedule } from '../runner/partition.js';
import type { SuiteKind, SuiteKindName, SuiteOutcome } from '../suites/kind.js';
import type { WebhookReceiver } from '../webhooks/types.js';
import type { Recorders, Run } from './runState.js';

/** What the run hands every kind: its recorders, its receiver, explore's oracle and races' oracle worlds. */
type KindShared = Recorders & { receiver: WebhookReceiver; oracle?: Profile; raceWorlds?: import('../races/worlds.js').RaceWorlds };

/** How the kinds went: why the run stopped early, if it did, and each kind's lower bound. */
interface KindsOutcome {
  outage?: string;
  rateLimited?: string;
  bounds: Map<string, number>;
  /** Gate requests on secret keys the kinds run so far sent, by partner: load's traffic shares their hour window. */
  gateSent: { partner: string; at: number }[];
  /** How long the minute stream held conformance's key before its first attempt (the windows emptied), when it ran. */
  keyHeldMs?: number;
}

/** Kinds on disjoint partners run at once, groups sharing partners one after another: said when there are several. */
export async function scheduleOf(run: Run, profile: Profile, kinds: SuiteKind[]): Promise<Schedule> {
  const { scheduleKinds } = await import('../runner/partition.js');
  const schedule = scheduleKinds(
    profile,
    kinds.map((k) => k.name),
  );
  if (kinds.length > 1)
    run.progress.line(schedule.groups.length === 1 ? `- ${kinds.map((k) => k.name).join(', ')} run at once, on disjoint partners` : `- ${schedule.why}`);
  return schedule;
}

/** The kinds, group by group; the run's bound is the longest chain of what must run in turn. */
export async function runScheduledKinds(run: Run, profile: Profile, kinds: SuiteKind[], schedule: Schedule, shared: KindShared): Promise<KindsOutcome> {
  const outcome: KindsOutcome = { bounds: new Map(), gateSent: [] };
  const spent: number[] = [];
  // One Gate pacer for every kind: kinds that take turns on one key see each other's requests in its windows.
  const { Pacer } = await import('../client/pacer.js');
  const pacer = new Pacer({ windowScale: profile.timing.rateWindowScale, refuseHourWait: run.opts.depth === 'quick' });
  const minute = await minuteStreamOf(run, profile, kinds, pacer);
  if (minute) outcome.keyHeldMs = minute.holdMs;
  for (const group of schedule.groups) {
    if (run.stop.signal.aborted) break;
    await Promise.all(
      group.map((name) =>
        runKind(
          run,
          profile,
          kinds.find((k) => k.name === name)!,
          { ...shared, pacer },
          outcome,
        ),
      ),
    );
    spent.push(Math.max(0, ...group.map((n) => outcome.bounds.get(n) ?? 0)));
    if (minute && group.includes('conformance')) await judgedMinuteStream(run, minute);
  }
  if (run.results.plan && spent.length) run.results.plan.spentLowerBoundSeconds = Math.round(spent.reduce((a, b) => a + b, 0) / 100) / 10;
  if (run.results.plan) run.results.plan.wallSeconds = Math.round((Date.now() - run.startedAt.getTime()) / 100) / 10;
  return outcome;
}

/** The minute window judged on conformance's own stream, when the profile cannot run the rate-limit scenario (src/load/minuteWindowStream.ts). */
async function minuteStreamOf(run: Run, profile: Profile, kinds: SuiteKind[], pacer: import('../client/pacer.js').Pacer) {
  const { minuteStreamFor } = await import('../load/minuteWindowStream.js');
  const names = kinds.map((k) => k.name);
  const stream = minuteStreamFor(profile, { kinds: names, scenarios: run.opts.scenario, service: run.opts.service }, pacer, run.clocks.gate);
  if (!stream) return undefined;
  run.progress.line('- load rate-limits: the 60-per-minute window is judged on the conformance stream (the profile reserves no keys for the rate-limit cases)');
  stream.start();
  return stream;
}

/** Its verdict stands for the rate-limit scenario's minute-window check (kept with the run's checks once load has run). */
async function judgedMinuteStream(run: Run, stream: import('../load/minuteWindowStream.js').MinuteWindowStream): Promise<void> {
  const { checks, observations } = await stream.finish();
  if (run.stop.signal.aborted) return;
  run.minuteStream = checks;
  run.results.observations.push(...observations);
  for (const c of checks)
    run.progress.line(
      `${c.status === 'passed' ? '✓' : c.status === 'failed' ? '✗' : '-'} ${c.name} (on the conformance stream)${c.reason ? ` — ${c.reason}` : ''}`,
    );
}

/** One kind: run (or, for load scenarios finished before an interruption, kept), its results added to the run's. */
async function runKind(run: Run, profile: Profile, kind: SuiteKind, shared: KindShared, outcome: KindsOutcome): Promise<void> {
  const { opts, runDir, stop, progress, results } = run;
  if (stop.signal.aborted) return;
  const kindDone = new Map([...run.done].filter(([k]) => k.startsWith(`${kind.name}:`)));
  const startedAt = Date.now();
  let out: SuiteOutcome;
  if (kind.name === 'load' && kindDone.size > 0) {
    // The load scenarios finished before the interruption: keep their results.
    out = { checks: [...kindDone.values()], observations: [], metrics: {} };
  } else {
    const { har } = shared;
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
      reproduce: shared.reproduce,
      onOutage: (m) => {
        outcome.outage = m;
        stop.abort(m);
      },
      onRateLimited: (m) => {
        outcome.rateLimited = m;
        stop.abort(m);
      },
      scenarios: opts.scenario,
      cases: opts.case,
      gatesFile: opts.gates,
      segments: opts.segments,
      k6Out: opts.k6Out,
      seed: opts.seed,
      receiver: shared.receiver,
      ...(shared.oracle ? { oracle: shared.oracle } : {}),
      ...(opts.budget !== undefined ? { exploreBudget: Number(opts.budget), raceBudget: Number(opts.budget) } : {}),
      ...(shared.raceWorlds ? { raceWorlds: shared.raceWorlds, raceInCertify: run.command === 'certify' } : {}),
      ...(opts.family?.length ? { raceFamilies: opts.family } : {}),
      ...(opts.times !== undefined ? { raceTimes: Number(opts.times) } : {}),
      ...(opts.profile ? { profileFile: opts.profile } : {}),
      ...(opts.fault?.length ? { faults: opts.fault } : {}),
      clocks: run.clocks,
      pacer: shared.pacer,
      gateSent: outcome.gateSent,
      log: (l) => progress.line(l),
    });
    if (kind.name === 'load') for (const c of out.checks) appendToJournal(runDir, `load:${c.file}::${c.name}`, c);
  }
  const stream = kind.name === 'load' ? (run.minuteStream ?? []) : [];
  // The stream's verdicts stand in for the scenario's skipped checks of the same name (same checks, judged on other traffic).
  const replaced = (c: CheckResult) => stream.some((s) => c.file === s.file && c.name === s.name);
  results.checks.push(...out.checks.filter((c) => !replaced(c)), ...stream);
  results.observations.push(...out.observations);
  if (out.exploration) results.exploration = out.exploration;
  if (out.races) results.races = out.races;
  results.metrics = { ...(results.metrics ?? {}), ...out.metrics };
  if (out.stats) {
    const b = spentLowerBound(out.stats, profile.timing.rateWindowScale);
    // The minute stream's hold (no Gate request on the key for one window) comes before the windows' own time.
    outcome.bounds.set(kind.name, kind.name === 'conformance' && outcome.keyHeldMs ? Math.max(b.rateMs + outcome.keyHeldMs, b.waitMs) : b.boundMs);
  }
  for (const r of out.stats?.requests ?? []) if (r.service === 'gate' && r.credential === 'secret') outcome.gateSent.push({ partner: r.label, at: r.at });
  if (out.metrics && typeof (out.metrics as { loadLowerBoundMs?: number }).loadLowerBoundMs === 'number')
    outcome.bounds.set(kind.name, (out.metrics as { loadLowerBoundMs: number }).loadLowerBoundMs);
  outcome.outage ??= out.outage;
  outcome.rateLimited ??= out.rateLimited;
  recordKindTimes(run, kind.name, Date.now() - startedAt, outcome.bounds.get(kind.name), out.metrics);
}

/** Beside the kind's planned bound: the bound its own traffic forced and its wall time; a load kind's per scenario too. */
function recordKindTimes(run: Run, kind: SuiteKindName, wallMs: number, spentMs: number | undefined, metrics: Record<string, unknown>): void {
  const plan = run.results.plan;
  if (!plan) return;
  const secs = (ms: number) => Math.round(ms / 100) / 10;
  plan.kinds = {
    ...plan.kinds,
    [kind]: { ...plan.kinds?.[kind], wallSeconds: secs(wallMs), ...(spentMs !== undefined ? { spentSeconds: secs(spentMs) } : {}) },
  };
  for (const [key, m] of Object.entries(metrics)) {
    const name = /^k6:(.+)$/.exec(key)?.[1];
    const ms = (m as { durationMs?: number }).durationMs;
    if (name && typeof ms === 'number') plan.scenarios = { ...plan.scenarios, [name]: { ...plan.scenarios?.[name], wallSeconds: secs(ms) } };
  }
}
