// Runs declared checks against a target described by a profile: provides each
// check the needs it and its requirements declare (or skips it with the
// missing need's reason), keeps each check's time budget to the target's own
// waits, records what it sent, and stops cleanly when the run is interrupted
// or the target goes down. Judging the results is src/report/verdict.ts's job.
import { setMaxListeners } from 'node:events';
import { createApiClient } from '../client/http.js';
import { clientLimits } from '../client/limits.js';
import { HourWindowFull, Pacer } from '../client/pacer.js';
import { RouteRefusesEveryRequest } from '../client/routeRefusal.js';
import { newTargetClocks, receiverNow, type TargetClocks } from '../client/targetClock.js';
import { toExchangeRecord } from '../report/exchangeRecord.js';
import { TransportError, type ApiClient, type Exchange } from '../client/types.js';
import type { NeedName } from '../model/needs.js';
import type { NeedEnv, RunResources, Service } from '../needs/define.js';
import { firstMissing, needDef, needProvider, withRequired } from '../needs/registry.js';
import { readCalibration } from './calibration.js';
import type { GatePartner, PoolsPartner, Profile } from '../profile/schema.js';
import type { CheckResult, Observation } from '../report/results.js';
import { startReceiver } from '../webhooks/receiver.js';
import type { WebhookReceiver } from '../webhooks/types.js';
import { Budget } from './budget.js';
import type { CheckDef, CheckTools } from './check.js';
import { CheckFailed, CheckNotRun, CheckSkipped, CheckUnverified, expectations } from './expect.js';
import { Health } from './health.js';
import { viewFor } from './partition.js';
import { PartnerPool } from './partners.js';
import { createProgress, type Progress } from './progress.js';
import { RouteRefusals } from './routeRefusals.js';
import { checkKey, needsOfCheck, type CheckKind, type LoadedSuite } from './suites.js';

// The checks on disk, their keys and needs: where they live (src/runner/suites.ts), re-exported for the suites and scripts.
export { checkKey, loadConformanceSuites, loadSuites, needsOfCheck, unknownRequirementIds, type CheckKind, type LoadedSuite } from './suites.js';

export interface RunStats {
  /** Every request sent, with the rate-limit client it counted against (partner label and credential kind). */
  requests: {
    service: Service;
    label: string;
    credential: 'secret' | 'publishable' | 'none';
    method: string;
    path: string;
    at: number;
    ms: number;
    check: string;
  }[];
  /** Waits inside checks, from `at` (ms since the epoch) for `ms`. */
  sleeps: { check: string; at: number; ms: number; label: string; kind: 'target' | 'harness' }[];
  /** Partners ("gate:name", "pools:name") a check leased from `since`, alone or shared: a partner held alone is held by nothing else. */
  holds: { check: string; partner: string; alone: boolean; since: number }[];
}

export interface RunChecksOptions {
  profile: Profile;
  suites: LoadedSuite[];
  kind?: CheckKind;
  depth: 'quick' | 'full';
  grep?: string;
  concurrency?: number;
  progress?: Progress;
  /** Default per-check budget of target time (ms). */
  budgetMs?: number;
  /** Gate and pools partners this run may use (default: the kind's view of the profile, src/runner/partition.ts). */
  partners?: { gate: GatePartner[]; pools: PoolsPartner[] };
  /** Shares a pacer with other runs of the same process (concurrent certify). */
  pacer?: Pacer;
  /** Shares the targets' clocks with the run's other kinds (default: this run's own). */
  clocks?: TargetClocks;
  /** Shares the run's webhook receiver (kinds at once, one listen port); the caller closes it. */
  receiver?: WebhookReceiver;
  /** Stops the run: checks not started end not_run; running ones are cancelled. */
  signal?: AbortSignal;
  /** Results of checks already finished (resume): they are kept, not run again. */
  done?: ReadonlyMap<string, CheckResult>;
  /** Called as each check ends (the resume journal). */
  onResult?: (key: string, result: CheckResult) => void;
  /** Every exchange of the run (HAR, request logs). */
  onExchange?: (ex: Exchange, check: string) => void;
  /** A reproduction of a failing request (curl with the secret as its ${VAR}), for the report. */
  reproduce?: (failing: Exchange, before: Exchange[], check: string) => NonNullable<CheckResult['failure']>['reproduce'];
  /** Called once the run's resources are up, before any check: chaos runs wire Toxiproxy here. */
  prepare?: (run: RunResources) => Promise<void> | void;
  /** Consecutive transport failures (no answer) that mean the target is down. */
  outageAfter?: number;
  /** Called when the target is judged down (the caller stops the run). */
  onOutage?: (message: string) => void;
  /** Called when every key this run may use is paused by the target's Retry-After beyond the budget. */
  onRateLimited?: (message: string) => void;
}

export interface ChecksOutcome {
  checks: CheckResult[];
  observations: Observation[];
  stats: RunStats;
  /** Set when the target stopped answering and the run stopped. */
  outage?: string;
  /** Set when every key was paused by the target beyond the budget and the run stopped. */
  rateLimited?: string;
}

const CLIENT_RETRY = { maxRetries: 3, baseDelayMs: 300, maxDelayMs: 3_000 };
export const DEFAULT_BUDGET_MS = 60_000;

function pathBelowBase(url: string, baseUrl: string): string {
  try {
    const p = new URL(url).pathname;
    const b = new URL(baseUrl).pathname.replace(/\/$/, '');
    return p.startsWith(b) ? p.slice(b.length) || '/' : p;
  } catch {
    return url;
  }
}

/** A check of a suite, selected to run. */
type Selected = { suite: LoadedSuite; check: CheckDef };

/** What every check of a run shares: the run's options, resources and counters, and how it stops. */
interface ChecksRun {
  opts: RunChecksOptions;
  kind: CheckKind;
  /** The kind's view of the profile: only the partners it may use (reservedFor). */
  profile: Profile;
  progress: Progress;
  pacer: Pacer;
  /** Pools request-rate limits are not shown: no client-side windows, but an announced Retry-After holds that key. */
  poolsPacer: Pacer;
  limits: ReturnType<typeof clientLimits>;
  run: RunResources;
  stats: RunStats;
  /** The run's own stop: the caller's signal, the target going down, or every key rate limited. */
  stop: AbortController;
  health: Health;
  results: CheckResult[];
  /** Gate routes proven to refuse every paced request: one failed rate check each, at the run's end. */
  refusals: RouteRefusals;
  /** Resolves once every check of the run that is not late has ended (late checks take what those left). */
  earlierDone: Promise<void>;
}

export async function runChecks(opts: RunChecksOptions): Promise<ChecksOutcome> {
  const kind = opts.kind ?? 'conformance';
  // The kind sees only the partners it may use (reservedFor): needs are judged and leased within them.
  const profile = viewFor(opts.profile, kind);
  const progress = opts.progress ?? createProgress();
  // A quick run never waits for an hour window: the checks that would need it skip (as the plan says).
  const pacer = opts.pacer ?? new Pacer({ windowScale: profile.timing.rateWindowScale, refuseHourWait: opts.depth === 'quick' });
  const poolsPacer = new Pacer({ paceWindows: false });
  const limits = clientLimits(profile.harness);
  const partners = opts.partners ?? { gate: profile.gate.partners, pools: profile.pools?.partners ?? [] };
  const run = await runResources(opts, profile, { pacer, progress, partners });
  const watch = watchForStops(opts, profile, pacer, limits, partners.gate);
  try {
    await opts.prepare?.(run);
  } catch (e) {
    if (!opts.receiver) await run.receiver.close();
    throw e;
  }
  const selected = selectChecks(opts.suites, opts.grep);
  // Checks holding a partner alone go first (short, and never starved by shared ones); then the checks
  // with the longest documented waits (from the calibration), so waits overlap other work; checks
  // that read state the others build up (a full default page) go last.
  const queue = orderChecks(selected, kind);
  let earlierLeft = selected.filter((x) => !x.check.late).length;
  let earlierEnded = () => {};
  const earlierDone = new Promise<void>((resolve) => (earlierEnded = resolve));
  if (earlierLeft === 0) earlierEnded();
  const r: ChecksRun = {
    opts,
    kind,
    profile,
    progress,
    pacer,
    poolsPacer,
    limits,
    run,
    stats: { requests: [], sleeps: [], holds: [] },
    stop: watch.stop,
    health: watch.health,
    results: [],
    refusals: new RouteRefusals(),
    earlierDone,
  };
  progress.start(selected.length, kind);
  try {
    await drain(queue, Math.max(1, opts.concurrency ?? 24), async (next) => {
      try {
        await runOne(r, next);
      } finally {
        if (!next.check.late && --earlierLeft === 0) earlierEnded();
      }
    });
  } finally {
    watch.release();
    progress.stop();
    if (!opts.receiver) await run.receiver.close();
  }
  forgiveOutage(r.results, watch.health.outageSince);
  sortAsDeclared(r.results, selected);
  r.results.push(...r.refusals.checks(kind));
  const { outage, rateLimited } = watch.why();
  return { checks: r.results, observations: run.observations, stats: r.stats, ...(outage ? { outage } : {}), ...(rateLimited ? { rateLimited } : {}) };
}

/** The run's resources every need draws on: partners to lease, the receiver (the caller's, or the run's own), the clocks. */
async function runResources(
  opts: RunChecksOptions,
  profile: Profile,
  shared: { pacer: Pacer; progress: Progress; partners: { gate: GatePartner[]; pools: PoolsPartner[] } },
): Promise<RunResources> {
  const { pacer, progress, partners } = shared;
  const clocks = opts.clocks ?? newTargetClocks();
  const receiver =
    opts.receiver ??
    (await startReceiver({
      host: profile.webhooks.listenHost,
      port: profile.webhooks.listenPort,
      publicUrl: profile.webhooks.publicUrl,
      now: receiverNow(clocks),
    }));
  return {
    profile,
    depth: opts.depth,
    pacer,
    gatePartners: new PartnerPool(partners.gate, pacer),
    poolsPartners: new PartnerPool(partners.pools),
    receiver,
    progress,
    observations: [],
    clocks,
    cache: new Map(),
    offers: new Map(),
    activity: new Map(),
  };
}

/**
 * The run's own stop, and what pulls it: the caller's signal, the target judged down (a streak of requests with
 * no answer), or every Gate key this run may use paused by the target beyond the budget (the run cannot go on).
 */
function watchForStops(opts: RunChecksOptions, profile: Profile, pacer: Pacer, limits: ReturnType<typeof clientLimits>, gatePartners: GatePartner[]) {
  const stop = new AbortController();
  // Every running check listens for the stop: more than Node's default of ten is expected.
  setMaxListeners(0, stop.signal);
  const onCallerAbort = () => stop.abort(opts.signal?.reason ?? 'interrupted');
  opts.signal?.addEventListener('abort', onCallerAbort, { once: true });
  if (opts.signal?.aborted) onCallerAbort();
  let outage: string | undefined;
  const health = new Health(opts.outageAfter ?? profile.harness?.outageAfter ?? 8, (message) => {
    outage = message;
    opts.onOutage?.(message);
    stop.abort(`the target stopped answering: ${message}`);
  });
  let rateLimited: string | undefined;
  const leasable = gatePartners.flatMap((p) => [p.secretKey, ...(p.extraSecretKeys ?? [])]);
  const offPause = pacer.onPause(() => {
    if (rateLimited || leasable.length === 0) return;
    const now = Date.now();
    const waits = leasable.map((k) => (pacer.pausedUntil(k) ?? now) - now);
    const shortest = Math.min(...waits);
    if (shortest * 1 > limits.rateLimitBudgetMs) {
      rateLimited = `rate limited by the target for ${Math.round(shortest / 1000)} s on every key (${leasable.length}): wait, or add keys to the profile (the budget is ${Math.round(limits.rateLimitBudgetMs / 1000)} s, harness.rateLimitBudgetSeconds)`;
      opts.onRateLimited?.(rateLimited);
      stop.abort(rateLimited);
    }
  });
  return {
    stop,
    health,
    /** Why the run stopped early, if it did. */
    why: () => ({ outage, rateLimited }),
    /** Stop listening (the run is over). */
    release: () => {
      offPause();
      opts.signal?.removeEventListener('abort', onCallerAbort);
    },
  };
}

/** The suites' checks --grep selects (all without it), as declared. */
function selectChecks(suites: LoadedSuite[], grepFor: string | undefined): Selected[] {
  const grep = grepFor?.toLowerCase();
  const selected: Selected[] = [];
  for (const suite of suites) {
    for (const check of suite.checks) {
      const hay = `${suite.file} ${suite.section} ${check.name} ${check.requirements.join(' ')}`.toLowerCase();
      if (grep && !hay.includes(grep)) continue;
      selected.push({ suite, check });
    }
  }
  return selected;
}

/** Run the queue with `concurrency` workers, each taking the next check as it finishes one. */
async function drain(queue: Selected[], concurrency: number, one: (s: Selected) => Promise<void>): Promise<void> {
  await Promise.all(
    Array.from({ length: Math.min(concurrency, queue.length) }, async () => {
      for (let next = queue.shift(); next; next = queue.shift()) await one(next);
    }),
  );
}

/** Once the target is judged down, failures of the streak that got no answer were the outage, not the rules. */
function forgiveOutage(results: CheckResult[], since: number | undefined): void {
  if (since === undefined) return;
  for (const r of results) {
    if (r.status === 'failed' && r.failure?.transport && r.durationMs > 0 && Date.now() - r.durationMs >= since - 60_000) {
      r.status = 'not_run';
      r.reason = `the target stopped answering (${r.failure.message})`;
      delete r.failure;
    }
  }
}

/** Stable order in reports: as declared. */
function sortAsDeclared(results: CheckResult[], selected: Selected[]): void {
  const order = new Map(selected.map((s, i) => [`${s.suite.file}::${s.check.name}`, i]));
  results.sort((a, b) => (order.get(`${a.file}::${a.name}`) ?? 0) - (order.get(`${b.file}::${b.name}`) ?? 0));
}

/** A check's result recorded: kept, journaled, shown. */
function finish(r: ChecksRun, key: string, result: CheckResult, detail?: string): void {
  r.results.push(result);
  r.opts.onResult?.(key, result);
  // A stopped run says why once, at its end: the checks it could not run only say so.
  const notRun = result.status === 'not_run' && !result.reason?.startsWith('not run: ') ? 'not run: the run stopped' : undefined;
  r.progress.checkFinished(result.name, result.status, result.durationMs, notRun ?? detail ?? result.reason);
}

/** One check, start to end: settled before running (kept, not run, skipped), or run in its own scope and judged by how it ended. */
async function runOne(r: ChecksRun, { suite, check }: Selected): Promise<void> {
  const key = checkKey(r.kind, suite.file, check.name);
  const base = { name: check.name, suite: r.kind, file: suite.file, requirements: [...check.requirements] } as const;
  const needs = needsOfCheck(check);
  if (settledBeforeRunning(r, key, base, check, needs)) return;
  const scope = openCheckScope(r, suite, check);
  const get = needsFor(r, scope, suite, check);
  const tools = checkTools(r, scope, check);
  const started = Date.now();
  r.progress.checkStarted(check.name);
  let result: CheckResult;
  try {
    await untilDoneOrStopped(scope, async () => {
      const provided: Record<string, unknown> = {};
      for (const n of withRequired(needs)) provided[n] = await get(n as NeedName);
      await check.run(provided as never, tools);
    });
    result = { ...base, status: 'passed', durationMs: Date.now() - started };
  } catch (e) {
    result = resultOfError(r, scope, check, base, e, Date.now() - started);
  } finally {
    await closeCheckScope(r, scope, check);
  }
  result.budget = { countedMs: Math.round(scope.budget.counted()), uncountedMs: Math.round(scope.budget.uncounted()), limitMs: scope.budget.limitMs };
  result.requests = scope.requests;
  finish(r, key, result, result.status === 'failed' ? result.failure?.message : undefined);
}

type ResultBase = Pick<CheckResult, 'name' | 'suite' | 'file' | 'requirements'>;

/** A check that ends before it runs: kept from the interrupted run, not run (the run stopped), or skipped (depth, a need). */
function settledBeforeRunning(r: ChecksRun, key: string, base: ResultBase, check: CheckDef, needs: NeedName[]): boolean {
  const prior = r.opts.done?.get(key);
  if (prior) {
    r.results.push(prior);
    r.progress.checkFinished(prior.name, prior.status, prior.durationMs, 'kept from the interrupted run');
    return true;
  }
  if (r.stop.signal.aborted) {
    finish(r, key, { ...base, status: 'not_run', reason: String(r.stop.signal.reason ?? 'the run stopped'), durationMs: 0 });
    return true;
  }
  if (check.depth === 'full' && r.opts.depth !== 'full') {
    finish(r, key, { ...base, status: 'skipped', reason: 'runs only at --depth full (needs long real-time waits)', missing: 'depth', durationMs: 0 });
    return true;
  }
  const missing = firstMissing(r.profile, needs, r.opts.depth);
  if (missing) {
    finish(r, key, { ...base, status: 'skipped', reason: `needs ${missing.need}: ${missing.reason}`, missing: missing.need, durationMs: 0 });
    return true;
  }
  return false;
}

/** One running check's own state: its cancel signal, its budget, what it sent, and what to undo when it ends. */
interface CheckScope {
  controller: AbortController;
  budget: Budget;
  /** Why the budget ran out, once it has. */
  expired?: string;
  exchanges: Exchange[];
  requests: { gate: number; pools: number };
  releases: (() => void | Promise<void>)[];
  /** Passes the run's stop on to the check. */
  onStop: () => void;
  observe: (topic: string, value: unknown, note?: string) => void;
}

function openCheckScope(r: ChecksRun, suite: LoadedSuite, check: CheckDef): CheckScope {
  const controller = new AbortController();
  setMaxListeners(0, controller.signal);
  const onStop = () => controller.abort(r.stop.signal.reason);
  r.stop.signal.addEventListener('abort', onStop, { once: true });
  const scope: CheckScope = {
    controller,
    budget: new Budget({
      limitMs: check.budgetMs ?? r.opts.budgetMs ?? DEFAULT_BUDGET_MS,
      onExpired: (reason) => {
        scope.expired = reason;
        controller.abort(reason);
      },
    }),
    exchanges: [],
    requests: { gate: 0, pools: 0 },
    releases: [],
    onStop,
    observe: (topic, value, note) => {
      r.run.observations.push({ topic, service: suite.service, check: check.name, value, ...(note ? { note } : {}) });
    },
  };
  return scope;
}

/** The check's clients: paced, retried, counted against its budget and cancelled with it; every exchange recorded. */
function clientsFor(r: ChecksRun, scope: CheckScope, check: CheckDef) {
  return (svc: Service, baseUrl: string, label: string, secretKey?: string, publishableKey?: string): ApiClient =>
    createApiClient({
      service: svc,
      baseUrl,
      label,
      secretKey,
      publishableKey,
      pacer: svc === 'gate' ? r.pacer : r.poolsPacer,
      retry: CLIENT_RETRY,
      track: scope.budget,
      ...r.limits,
      signal: scope.controller.signal,
      clock: r.run.clocks[svc],
      onExchange: (ex) => recordExchange(r, scope, check, { svc, baseUrl, label }, ex),
      onTransportError: (e) => r.health.failed(e),
      onRetry: (info) => {
        r.run.observations.push({
          topic: 'client-retry',
          service: svc,
          check: check.name,
          value: { attempt: info.attempt, status: info.exchange?.status, error: info.error?.kind, delayMs: Math.round(info.delayMs) },
          note: 'an unexpected 429, 5xx or network error was retried with the same Idempotency-Key, as the spec advises',
        });
      },
    });
}

/** An answered exchange: kept for the check's failure, counted per service and partner, logged with its rate-limit client. */
function recordExchange(r: ChecksRun, scope: CheckScope, check: CheckDef, client: { svc: Service; baseUrl: string; label: string }, ex: Exchange): void {
  const { svc, baseUrl, label } = client;
  scope.exchanges.push(ex);
  scope.requests[svc]++;
  r.run.activity.set(label, (r.run.activity.get(label) ?? 0) + 1);
  r.health.answered();
  const auth = ex.request.headers['authorization'] ?? '';
  const credential = /^Bearer sk_/.test(auth) ? 'secret' : /^Bearer pk_/.test(auth) ? 'publishable' : 'none';
  r.stats.requests.push({
    service: svc,
    label,
    credential,
    method: ex.request.method,
    path: pathBelowBase(ex.request.url, baseUrl),
    at: ex.startedAt,
    ms: ex.durationMs,
    check: check.name,
  });
  r.opts.onExchange?.(ex, check.name);
}

/** What provides the check's needs: each need's setup, given the run, the check and its clients. */
function needsFor(r: ChecksRun, scope: CheckScope, suite: LoadedSuite, check: CheckDef) {
  let env: NeedEnv;
  const get = needProvider(() => env);
  env = {
    run: r.run,
    profile: r.profile,
    check: { name: check.name, file: suite.file, service: suite.service, late: !!check.late },
    budget: scope.budget,
    signal: scope.controller.signal,
    client: clientsFor(r, scope, check),
    get: get as NeedEnv['get'],
    gateActors: new Map(),
    poolsActors: new Map(),
    onRelease: (fn) => scope.releases.push(fn),
    observe: scope.observe,
    async documentedWait<T>(what: string, p: Promise<T>): Promise<T> {
      const since = Date.now();
      try {
        return await scope.budget.target(what, p);
      } finally {
        r.stats.sleeps.push({ check: check.name, at: since, ms: Date.now() - since, label: what, kind: 'target' });
      }
    },
    held: (partner, alone) => r.stats.holds.push({ check: check.name, partner, alone, since: Date.now() }),
  };
  return get;
}

/** The tools every check's body gets (`t`): expectations, observations, sleeps counted as the target's or rampart's time. */
function checkTools(r: ChecksRun, scope: CheckScope, check: CheckDef): CheckTools {
  const { controller, budget } = scope;
  return {
    profile: r.profile,
    depth: r.opts.depth,
    signal: controller.signal,
    expect: expectations,
    observe: scope.observe,
    async sleep(ms, label, sleepKind = 'target') {
      r.stats.sleeps.push({ check: check.name, at: Date.now(), ms, label, kind: sleepKind });
      const done = r.progress.wait(label, ms);
      const wait = new Promise<void>((resolve, reject) => {
        if (controller.signal.aborted) return reject(new Error('aborted'));
        const t = setTimeout(resolve, ms);
        controller.signal.addEventListener(
          'abort',
          () => {
            clearTimeout(t);
            reject(new Error('aborted'));
          },
          { once: true },
        );
      });
      try {
        await (sleepKind === 'harness' ? budget.harness(label, wait) : budget.target(label, wait));
      } finally {
        done();
      }
    },
    skip(reason: string): never {
      throw new CheckSkipped(reason);
    },
    unverified(reason: string): never {
      throw new CheckUnverified(reason);
    },
    harness: (what, p) => budget.harness(what, p),
    targetClock: (svc) => r.run.clocks[svc],
    shared<T>(key: string, make: () => Promise<T>): Promise<T> {
      const k = `shared:${key}`;
      const made = r.run.cache.get(k) as Promise<T> | undefined;
      if (!made) {
        const mine = make();
        r.run.cache.set(k, mine);
        makers.set(mine, check.name);
        return mine;
      }
      const maker = makers.get(made) ?? 'another check';
      return budget.harness(
        `the shared ${key} another check makes`,
        made.catch((e: unknown) => {
          // The run stopped (rate limit, outage, signal) while it was made: the reader is not run either, under the run's own cause.
          if ((e instanceof TransportError && e.kind === 'rate-limited') || e instanceof CheckNotRun || r.stop.signal.aborted) throw e;
          throw readerOfFailedMaker(check, key, maker, e);
        }),
      );
    },
    offer(key, value) {
      const list = r.run.offers.get(key) ?? [];
      list.push(value);
      r.run.offers.set(key, list);
    },
    take<T>(key: string): T | undefined {
      return r.run.offers.get(key)?.shift() as T | undefined;
    },
    // A late check waits (rampart's time) for the others to end; any other check would wait for itself.
    earlierChecksDone: () => (check.late ? budget.harness("the run's other checks to end", r.earlierDone) : Promise.resolve()),
  };
}

/** The check that makes each shared value (t.shared), by its promise: a reader whose maker failed names it. */
const makers = new WeakMap<Promise<unknown>, string>();

/**
 * How a check reading a shared value ends when making it went wrong (the maker's own result says so in full).
 * A maker's failed assertion is evidence against the target: where it judged a rule this reader names (the
 * creation rule of the shared object, which the maker judged on every reader's behalf), the reader fails with
 * that evidence, so the rule reads failed, not unverified. Any other failure of the maker leaves the reader's own
 * rules unjudged: not run, naming the maker and its failure — never unverified, which is for what the specs leave
 * open, never for a target that misbehaved (the maker's failure already makes the run NOT CERTIFIED). A maker that
 * ended unverified or skipped passes its reason on as unverified.
 */
function readerOfFailedMaker(check: CheckDef, key: string, maker: string, e: unknown): Error {
  const why = e instanceof Error ? e.message : String(e);
  if (e instanceof CheckUnverified || e instanceof CheckSkipped)
    return new CheckUnverified(`the shared ${key} this check reads could not be made (the check that made it says why: ${why})`);
  const judged = e instanceof CheckFailed ? e.details.requirement : undefined;
  if (e instanceof CheckFailed && judged && (check.requirements as readonly string[]).includes(judged))
    return new CheckFailed(`${e.message} (judged while making the shared ${key}, in the check "${maker}")`, e.details);
  return new CheckNotRun(`not run: the shared ${key} it reads could not be made — the check that made it, "${maker}", failed: ${why}`);
}

/** The check's body, until it ends or its scope is cancelled: the budget ran out (a failure), or the run stopped (not run). */
async function untilDoneOrStopped(scope: CheckScope, body: () => Promise<void>): Promise<void> {
  const { controller } = scope;
  const aborted = new Promise<never>((_, reject) => {
    controller.signal.addEventListener(
      'abort',
      () => reject(scope.expired ? new CheckFailed(scope.expired) : new CheckNotRun(String(controller.signal.reason ?? 'the run stopped'))),
      {
        once: true,
      },
    );
  });
  aborted.catch(() => undefined);
  await Promise.race([body(), aborted]);
}

/** How a check that threw ended: skipped, unverified, not run, or failed (with its failure and a reproduction). */
function resultOfError(r: ChecksRun, scope: CheckScope, check: CheckDef, base: ResultBase, e: unknown, durationMs: number): CheckResult {
  const { expired, exchanges } = scope;
  if (e instanceof CheckSkipped) return { ...base, status: 'skipped', reason: e.reason, durationMs };
  if (e instanceof HourWindowFull) return { ...base, status: 'skipped', reason: e.message, durationMs };
  if (e instanceof CheckUnverified) return { ...base, status: 'unverified', reason: e.reason, durationMs };
  if (e instanceof TransportError && e.kind === 'rate-limited') return { ...base, status: 'not_run', reason: e.message, durationMs };
  // A route refusing every request: the check's own rules cannot be judged; the Limits rule it breaks fails beside it.
  if (e instanceof RouteRefusesEveryRequest) {
    r.refusals.add(e);
    return { ...base, status: 'not_run', reason: `not run: ${e.message} (the rate limit rule it breaks is failed in its own check)`, durationMs };
  }
  if (e instanceof CheckNotRun || (!expired && r.stop.signal.aborted))
    return { ...base, status: 'not_run', reason: String(r.stop.signal.reason ?? (e as Error).message), durationMs };
  const failure = toFailure(e, exchanges, check, !!expired && e instanceof CheckFailed && e.message === expired);
  const failing = (e instanceof CheckFailed ? e.details.exchange : undefined) ?? exchanges.at(-1);
  if (failing && r.opts.reproduce) {
    try {
      failure.reproduce = r.opts.reproduce(
        failing,
        exchanges.slice(0, exchanges.indexOf(failing) >= 0 ? exchanges.indexOf(failing) : exchanges.length).slice(-5),
        check.name,
      );
    } catch {
      /* a reproduction that cannot be built must not hide the failure */
    }
  }
  return { ...base, status: 'failed', durationMs, failure };
}

/** The check's scope closed: budget stopped, its clients cancelled, what it set up undone (last first). */
async function closeCheckScope(r: ChecksRun, scope: CheckScope, check: CheckDef): Promise<void> {
  scope.budget.stop();
  r.stop.signal.removeEventListener('abort', scope.onStop);
  scope.controller.abort('the check ended');
  for (const fn of scope.releases.reverse()) {
    try {
      await fn();
    } catch (e) {
      // A teardown that fails must not mask the check's result, but it may leave state (a toxic, a lease) behind: say so.
      const why = (e as Error).message ?? String(e);
      scope.observe('harness.teardownFailed', why, 'what this check set up could not be undone; later checks on the same partner may see it');
      r.progress.line(`rampart: teardown after "${check.name}" failed: ${why}`);
    }
  }
}

function orderChecks(selected: Selected[], kind: CheckKind): Selected[] {
  const cal = readCalibration().checks;
  const exclusive = (c: CheckDef) => needsOfCheck(c).some((n) => needDef(n)?.exclusive);
  const wait = (s: Selected) => cal[checkKey(kind, s.suite.file, s.check.name)]?.targetWaitMs ?? 0;
  const rank = (s: Selected) => (s.check.late ? 2 : exclusive(s.check) ? 0 : 1);
  // A stable sort keeps the declared order among equals.
  return selected
    .map((s, i) => ({ s, i }))
    .sort((a, b) => rank(a.s) - rank(b.s) || wait(b.s) - wait(a.s) || a.i - b.i)
    .map((x) => x.s);
}

/**
 * A failed check's failure and its kind: only an assertion (a CheckFailed the check raised) judged the rule; the
 * budget running out, a request that got no answer, and anything else thrown say the check could not finish.
 */
function toFailure(e: unknown, exchanges: Exchange[], check: CheckDef, budgetExpired: boolean): NonNullable<CheckResult['failure']> {
  const last = exchanges.slice(-4).map(toExchangeRecord);
  // A check of one requirement names it on every failure; a check of several must say which broke.
  const sole = check.requirements.length === 1 ? check.requirements[0] : undefined;
  if (e instanceof CheckFailed) {
    const ex = e.details.exchange;
    const records = ex && !exchanges.slice(-4).includes(ex) ? [...last.slice(-3), toExchangeRecord(ex)] : last;
    const requirement = e.details.requirement ?? sole;
    return {
      message: e.message,
      kind: budgetExpired ? 'timeout' : 'assertion',
      ...(requirement ? { requirement } : {}),
      expected: e.details.expected,
      actual: e.details.actual,
      requestId: ex?.requestId,
      exchanges: records,
    };
  }
  if (e instanceof TransportError)
    return {
      message: e.message,
      kind: e.kind === 'timeout' || e.kind === 'body-timeout' ? 'timeout' : 'transport',
      transport: true,
      ...(sole ? { requirement: sole } : {}),
      exchanges: last,
    };
  const err = e as Error;
  return { message: `the check threw: ${err?.message ?? String(e)}`, kind: 'crash', actual: err?.stack?.split('\n').slice(0, 4).join(' | '), exchanges: last };
}
