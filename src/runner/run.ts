// Runs declared checks against a target described by a profile: provides each
// check the needs it and its requirements declare (or skips it with the
// missing need's reason), keeps each check's time budget to the target's own
// waits, records what it sent, and stops cleanly when the run is interrupted
// or the target goes down. Judging the results is src/report/verdict.ts's job.
import { setMaxListeners } from 'node:events';
import { createApiClient } from '../client/http.js';
import { clientLimits } from '../client/limits.js';
import { Pacer } from '../client/pacer.js';
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
import { checkKey, needsOfCheck, type CheckKind, type LoadedSuite } from './suites.js';

// The checks on disk, their keys and needs: where they live (src/runner/suites.ts), re-exported for the suites and scripts.
export { checkKey, loadConformanceSuites, loadSuites, needsOfCheck, unknownRequirementIds, type CheckKind, type LoadedSuite } from './suites.js';

export interface RunStats {
  /** Every request sent, with the rate-limit client it counted against (partner label and credential kind). */
  requests: { service: Service; label: string; credential: 'secret' | 'publishable' | 'none'; method: string; path: string; at: number; check: string }[];
  sleeps: { check: string; ms: number; label: string; kind: 'target' | 'harness' }[];
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

export async function runChecks(opts: RunChecksOptions): Promise<ChecksOutcome> {
  const kind = opts.kind ?? 'conformance';
  // The kind sees only the partners it may use (reservedFor): needs are judged and leased within them.
  const profile = viewFor(opts.profile, kind);
  const progress = opts.progress ?? createProgress();
  const pacer = opts.pacer ?? new Pacer({ windowScale: profile.timing.rateWindowScale });
  // Pools request-rate limits are not shown: no client-side windows, but an announced Retry-After holds that key.
  const poolsPacer = new Pacer({ paceWindows: false });
  const limits = clientLimits(profile.harness);
  const ownReceiver = !opts.receiver;
  const clocks = opts.clocks ?? newTargetClocks();
  const receiver =
    opts.receiver ??
    (await startReceiver({
      host: profile.webhooks.listenHost,
      port: profile.webhooks.listenPort,
      publicUrl: profile.webhooks.publicUrl,
      now: receiverNow(clocks),
    }));
  const partners = opts.partners ?? { gate: profile.gate.partners, pools: profile.pools?.partners ?? [] };
  const run: RunResources = {
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
    activity: new Map(),
  };
  const stats: RunStats = { requests: [], sleeps: [] };
  // The run's own stop: the caller's signal, or the target going down.
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
  // Every Gate key this run may use paused by the target beyond the budget: the run cannot go on.
  let rateLimited: string | undefined;
  const leasable = partners.gate.flatMap((p) => [p.secretKey, ...(p.extraSecretKeys ?? [])]);
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

  try {
    await opts.prepare?.(run);
  } catch (e) {
    if (ownReceiver) await receiver.close();
    throw e;
  }

  const grep = opts.grep?.toLowerCase();
  const selected: { suite: LoadedSuite; check: CheckDef }[] = [];
  for (const suite of opts.suites) {
    for (const check of suite.checks) {
      const hay = `${suite.file} ${suite.section} ${check.name} ${check.requirements.join(' ')}`.toLowerCase();
      if (grep && !hay.includes(grep)) continue;
      selected.push({ suite, check });
    }
  }
  // Checks holding a partner alone go first (short, and never starved by shared ones); then the checks
  // with the longest documented waits (from the plan's calibration), so waits overlap other work; checks
  // that read state the others build up (a full default page) go last.
  const queue = orderChecks(selected, kind);

  const results: CheckResult[] = [];
  progress.start(selected.length, kind);
  const concurrency = Math.max(1, opts.concurrency ?? 24);

  const finish = (key: string, result: CheckResult, detail?: string) => {
    results.push(result);
    opts.onResult?.(key, result);
    // A stopped run says why once, at its end: the checks it could not run only say so.
    progress.checkFinished(result.name, result.status, result.durationMs, result.status === 'not_run' ? 'not run: the run stopped' : (detail ?? result.reason));
  };

  async function runOne({ suite, check }: { suite: LoadedSuite; check: CheckDef }): Promise<void> {
    const key = checkKey(kind, suite.file, check.name);
    const base = { name: check.name, suite: kind, file: suite.file, requirements: [...check.requirements] } as const;
    const prior = opts.done?.get(key);
    if (prior) {
      results.push(prior);
      progress.checkFinished(prior.name, prior.status, prior.durationMs, 'kept from the interrupted run');
      return;
    }
    if (stop.signal.aborted) {
      finish(key, { ...base, status: 'not_run', reason: String(stop.signal.reason ?? 'the run stopped'), durationMs: 0 });
      return;
    }
    if (check.depth === 'full' && opts.depth !== 'full') {
      finish(key, { ...base, status: 'skipped', reason: 'runs only at --depth full (needs long real-time waits)', missing: 'depth', durationMs: 0 });
      return;
    }
    const needs = needsOfCheck(check);
    const missing = firstMissing(profile, needs, opts.depth);
    if (missing) {
      finish(key, { ...base, status: 'skipped', reason: `needs ${missing.need}: ${missing.reason}`, missing: missing.need, durationMs: 0 });
      return;
    }
    const controller = new AbortController();
    setMaxListeners(0, controller.signal);
    const onStop = () => controller.abort(stop.signal.reason);
    stop.signal.addEventListener('abort', onStop, { once: true });
    let expired: string | undefined;
    const budget = new Budget({
      limitMs: check.budgetMs ?? opts.budgetMs ?? DEFAULT_BUDGET_MS,
      onExpired: (reason) => {
        expired = reason;
        controller.abort(reason);
      },
    });
    const exchanges: Exchange[] = [];
    const requests = { gate: 0, pools: 0 };
    const releases: (() => void | Promise<void>)[] = [];
    const gateActors = new Map();
    const poolsActors = new Map();

    const client = (svc: Service, baseUrl: string, label: string, secretKey?: string, publishableKey?: string): ApiClient =>
      createApiClient({
        service: svc,
        baseUrl,
        label,
        secretKey,
        publishableKey,
        pacer: svc === 'gate' ? pacer : poolsPacer,
        retry: CLIENT_RETRY,
        track: budget,
        ...limits,
        signal: controller.signal,
        clock: run.clocks[svc],
        onExchange: (ex) => {
          exchanges.push(ex);
          requests[svc]++;
          run.activity.set(label, (run.activity.get(label) ?? 0) + 1);
          health.answered();
          const auth = ex.request.headers['authorization'] ?? '';
          const credential = /^Bearer sk_/.test(auth) ? 'secret' : /^Bearer pk_/.test(auth) ? 'publishable' : 'none';
          stats.requests.push({
            service: svc,
            label,
            credential,
            method: ex.request.method,
            path: pathBelowBase(ex.request.url, baseUrl),
            at: ex.startedAt,
            check: check.name,
          });
          opts.onExchange?.(ex, check.name);
        },
        onTransportError: (e) => health.failed(e),
        onRetry: (info) => {
          run.observations.push({
            topic: 'client-retry',
            service: svc,
            check: check.name,
            value: { attempt: info.attempt, status: info.exchange?.status, error: info.error?.kind, delayMs: Math.round(info.delayMs) },
            note: 'an unexpected 429, 5xx or network error was retried with the same Idempotency-Key, as the spec advises',
          });
        },
      });

    const observe = (topic: string, value: unknown, note?: string) => {
      run.observations.push({ topic, service: suite.service, check: check.name, value, ...(note ? { note } : {}) });
    };
    let env: NeedEnv;
    const get = needProvider(() => env);
    env = {
      run,
      profile,
      check: { name: check.name, file: suite.file, service: suite.service, late: !!check.late },
      budget,
      signal: controller.signal,
      client,
      get: get as NeedEnv['get'],
      gateActors,
      poolsActors,
      onRelease: (fn) => releases.push(fn),
      observe,
    };
    const tools: CheckTools = {
      profile,
      depth: opts.depth,
      signal: controller.signal,
      expect: expectations,
      observe,
      async sleep(ms, label, sleepKind = 'target') {
        stats.sleeps.push({ check: check.name, ms, label, kind: sleepKind });
        const done = progress.wait(label, ms);
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
    };

    const started = Date.now();
    progress.checkStarted(check.name);
    const aborted = new Promise<never>((_, reject) => {
      controller.signal.addEventListener(
        'abort',
        () => reject(expired ? new CheckFailed(expired) : new CheckNotRun(String(controller.signal.reason ?? 'the run stopped'))),
        {
          once: true,
        },
      );
    });
    aborted.catch(() => undefined);
    let result: CheckResult;
    try {
      const provided: Record<string, unknown> = {};
      await Promise.race([
        (async () => {
          for (const n of withRequired(needs)) provided[n] = await get(n as NeedName);
          await check.run(provided as never, tools);
        })(),
        aborted,
      ]);
      result = { ...base, status: 'passed', durationMs: Date.now() - started };
    } catch (e) {
      const durationMs = Date.now() - started;
      if (e instanceof CheckSkipped) result = { ...base, status: 'skipped', reason: e.reason, durationMs };
      else if (e instanceof CheckUnverified) result = { ...base, status: 'unverified', reason: e.reason, durationMs };
      else if (e instanceof TransportError && e.kind === 'rate-limited') result = { ...base, status: 'not_run', reason: e.message, durationMs };
      else if (e instanceof CheckNotRun || (!expired && stop.signal.aborted))
        result = { ...base, status: 'not_run', reason: String(stop.signal.reason ?? (e as Error).message), durationMs };
      else {
        const failure = toFailure(e, exchanges, check, !!expired && e instanceof CheckFailed && e.message === expired);
        const failing = (e instanceof CheckFailed ? e.details.exchange : undefined) ?? exchanges.at(-1);
        if (failing && opts.reproduce) {
          try {
            failure.reproduce = opts.reproduce(
              failing,
              exchanges.slice(0, exchanges.indexOf(failing) >= 0 ? exchanges.indexOf(failing) : exchanges.length).slice(-5),
              check.name,
            );
          } catch {
            /* a reproduction that cannot be built must not hide the failure */
          }
        }
        result = { ...base, status: 'failed', durationMs, failure };
      }
    } finally {
      budget.stop();
      stop.signal.removeEventListener('abort', onStop);
      controller.abort('the check ended');
      for (const fn of releases.reverse()) {
        try {
          await fn();
        } catch (e) {
          // A teardown that fails must not mask the check's result, but it may leave state (a toxic, a lease) behind: say so.
          const why = (e as Error).message ?? String(e);
          observe('harness.teardownFailed', why, 'what this check set up could not be undone; later checks on the same partner may see it');
          progress.line(`rampart: teardown after "${check.name}" failed: ${why}`);
        }
      }
    }
    result.budget = { countedMs: Math.round(budget.counted()), uncountedMs: Math.round(budget.uncounted()), limitMs: budget.limitMs };
    result.requests = requests;
    finish(key, result, result.status === 'failed' ? result.failure?.message : undefined);
  }

  try {
    await Promise.all(
      Array.from({ length: Math.min(concurrency, queue.length) }, async () => {
        for (let next = queue.shift(); next; next = queue.shift()) await runOne(next);
      }),
    );
  } finally {
    offPause();
    progress.stop();
    opts.signal?.removeEventListener('abort', onCallerAbort);
    if (ownReceiver) await receiver.close();
  }
  // Once the target is judged down, failures of the streak that got no answer were the outage, not the rules.
  const since = health.outageSince;
  if (since !== undefined) {
    for (const r of results) {
      if (r.status === 'failed' && r.failure?.transport && r.durationMs > 0 && Date.now() - r.durationMs >= since - 60_000) {
        r.status = 'not_run';
        r.reason = `the target stopped answering (${r.failure.message})`;
        delete r.failure;
      }
    }
  }
  // Stable order in reports: as declared.
  const order = new Map(selected.map((s, i) => [`${s.suite.file}::${s.check.name}`, i]));
  results.sort((a, b) => (order.get(`${a.file}::${a.name}`) ?? 0) - (order.get(`${b.file}::${b.name}`) ?? 0));
  return { checks: results, observations: run.observations, stats, ...(outage ? { outage } : {}), ...(rateLimited ? { rateLimited } : {}) };
}

function orderChecks(selected: { suite: LoadedSuite; check: CheckDef }[], kind: CheckKind): { suite: LoadedSuite; check: CheckDef }[] {
  const cal = readCalibration().checks;
  const exclusive = (c: CheckDef) => needsOfCheck(c).some((n) => needDef(n)?.exclusive);
  const wait = (s: { suite: LoadedSuite; check: CheckDef }) => cal[checkKey(kind, s.suite.file, s.check.name)]?.targetWaitMs ?? 0;
  const rank = (s: { suite: LoadedSuite; check: CheckDef }) => (s.check.late ? 2 : exclusive(s.check) ? 0 : 1);
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
