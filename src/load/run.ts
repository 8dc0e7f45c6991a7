// `rampart load`: runs k6 scenarios against the profile's target — each as
// one k6 process or split into execution segments — and turns their
// per-requirement thresholds into check results, plus the measured facts
// (rate-limit boundaries and window readings, the quote-TTL distribution,
// latencies, per-key refusals) the report charts.
import { clientLimits } from '../client/limits.js';
import type { TargetClocks } from '../client/targetClock.js';
import type { Profile } from '../profile/schema.js';
import type { CheckResult, Observation } from '../report/results.js';
import { CATALOGUE } from '../model/catalogue/index.js';
import { GATE_RATE_WINDOWS, POOLS_LIMITS, ROUTE_GROUP_FIRST_WINDOW } from '../model/limits.js';
import { EXIT, RunError } from '../exitCodes.js';
import { SCENARIOS, type ScenarioName } from '../../scenarios/lib/requirements.js';
import { rateLimitBoundSeconds, rateLimitMandatory } from '../../scenarios/lib/rateCases.js';
import { GATE_SHARE_WITH_POOLS, smokeIterations, type TrafficConfig } from '../../scenarios/lib/trafficRate.js';
import type { WindowVerdict } from '../../scenarios/lib/windowJudge.js';
import { configFor, loadKeys, requirementsOf, segmentProblem } from './config.js';
import type { Gates } from './gates.js';
import { findK6 } from './k6.js';
import { runScenario, scriptOf, type ScenarioRun } from './scenarioRun.js';
import type { Summary } from './summary.js';
import { latencySamples, scenarioChecks } from './verdict.js';
import { join } from 'node:path';

export const SCENARIO_NAMES = Object.keys(SCENARIOS) as ScenarioName[];

/** Scenarios `rampart load` runs when none is named (soak only on request). */
export const DEFAULT_SCENARIOS: ScenarioName[] = SCENARIO_NAMES.filter((n) => (n as string) !== 'soak');

/** Most segments `--segments` accepts (each is a k6 process on this machine). */
export const MAX_SEGMENTS = 16;

export interface LoadOutcome {
  checks: CheckResult[];
  metrics: Record<string, unknown>;
  /** Measured facts the report lists (the reading of each rate window). */
  observations: Observation[];
}

/** The documented boundary of each rate-limit case: the request that must be the first 429. */
const DOCUMENTED_BOUNDARY: Record<string, { window: string; limit: number; windowMs: number; firstRejected: number }> = {
  burst: { window: 'first (default route)', ...GATE_RATE_WINDOWS.first, firstRejected: GATE_RATE_WINDOWS.first.limit + 1 },
  write10: { window: 'first (POST /gate_sessions)', ...ROUTE_GROUP_FIRST_WINDOW.write10, firstRejected: ROUTE_GROUP_FIRST_WINDOW.write10.limit + 1 },
  write30: { window: 'first (PATCH /branding)', ...ROUTE_GROUP_FIRST_WINDOW.write30, firstRejected: ROUTE_GROUP_FIRST_WINDOW.write30.limit + 1 },
  read60: { window: 'first (GET /branding)', ...ROUTE_GROUP_FIRST_WINDOW.read60, firstRejected: ROUTE_GROUP_FIRST_WINDOW.read60.limit + 1 },
  replacesFirstOnly: { window: 'minute (after 30 writes + 30 reads)', ...GATE_RATE_WINDOWS.minute, firstRejected: GATE_RATE_WINDOWS.minute.limit + 1 },
  minute: { window: 'minute (paced, mixed routes)', ...GATE_RATE_WINDOWS.minute, firstRejected: GATE_RATE_WINDOWS.minute.limit + 1 },
  hour: { window: 'hour (paced, mixed routes)', ...GATE_RATE_WINDOWS.hour, firstRejected: GATE_RATE_WINDOWS.hour.limit + 1 },
};

/** Cases of a scenario that run at this depth (and in `only`, when given). */
export function selectedCases(name: ScenarioName, depth: 'quick' | 'full', only?: string[]): string[] {
  const spec = SCENARIOS[name] as { cases: Record<string, readonly string[]>; fullOnly?: readonly string[] };
  return Object.keys(spec.cases).filter((c) => (!only || only.includes(c)) && (depth === 'full' || !spec.fullOnly?.includes(c)));
}

const titleOf = (id: string) => CATALOGUE.find((r) => r.id === id)?.title ?? id;

/** The spec's Gate windows as the rate-limit scenario takes them. */
export const GATE_LIMITS = {
  ...GATE_RATE_WINDOWS,
  routeFirst: { write10: ROUTE_GROUP_FIRST_WINDOW.write10, write30: ROUTE_GROUP_FIRST_WINDOW.write30, read60: ROUTE_GROUP_FIRST_WINDOW.read60 },
};

/** The route probes' keys of their own on this profile (the rate-limit partners' extra secret keys). */
const routeKeysOf = (profile: Profile) => loadKeys(profile).routeKeys.length;

/** Upper bound on a scenario's run, seconds (the k6 process is stopped after it, plus a minute). */
export function scenarioBoundSeconds(name: ScenarioName, depth: 'quick' | 'full', gates: Gates, profile: Profile): number {
  const fixed = SCENARIOS[name].maxSeconds[depth];
  if (name === 'rate-limits')
    return rateLimitBoundSeconds(GATE_LIMITS, profile.timing.rateWindowScale, depth, profile.tolerances.rateWindowRatio, true, routeKeysOf(profile));
  if (name === 'smoke') return Math.max(fixed, gates.smokeDurationSeconds + 45);
  if (name === 'soak') return Math.max(fixed, gates.soakDurationSeconds + 45);
  if (name === 'quote-ttl') return Math.max(fixed, gates.quoteTtlDurationSeconds + POOLS_LIMITS.quoteTtlSeconds + 40);
  return fixed;
}

/** Which scenarios share keys: each lane runs in turn, lanes at once. */
function laneOf(names: ScenarioName[]): ScenarioName[][] {
  const lane = (n: ScenarioName) => (n === 'rate-limits' ? 'reserved' : n === 'smoke' || n === 'soak' ? 'traffic' : 'pools');
  const lanes = new Map<string, ScenarioName[]>();
  for (const n of names) lanes.set(lane(n), [...(lanes.get(lane(n)) ?? []), n]);
  return [...lanes.values()];
}

/**
 * The time a scenario cannot beat: the rate-limit probes wait through two rollovers of their longest
 * window, and their route lanes for the keys they share with the cases (none with keys of their own); the
 * traffic scenarios run for their configured duration; the TTL scenario for its duration and one TTL more.
 */
export function mandatorySeconds(name: ScenarioName, depth: 'quick' | 'full', gates: Gates, profile: Profile, rttMs = 0): number {
  if (name === 'rate-limits') return rateLimitMandatory(GATE_LIMITS, profile.timing.rateWindowScale, depth, routeKeysOf(profile), rttMs).ms / 1000;
  if (name === 'smoke') return gates.smokeDurationSeconds;
  if (name === 'soak') return gates.soakDurationSeconds;
  if (name === 'quote-ttl') return gates.quoteTtlDurationSeconds + POOLS_LIMITS.quoteTtlSeconds;
  return 0;
}

/** The load run's lower bound (ms): lanes run at once, the scenarios of a lane in turn. */
export function loadLowerBoundMs(scenarios: ScenarioName[], depth: 'quick' | 'full', gates: Gates, profile: Profile, rttMs = 0): number {
  return Math.max(0, ...laneOf(scenarios).map((lane) => lane.reduce((a, name) => a + mandatorySeconds(name, depth, gates, profile, rttMs) * 1000, 0)));
}

/**
 * The Gate requests the mixed traffic of a smoke run sends on each of its traffic keys (secret keys: the
 * profile's partners beyond the eight rate-limit keys, else its unreserved ones), by that key; none when the
 * profile cannot run it. Each key is a rate-limit client whose hour window this shares.
 */
export function smokeGateRequestsPerKey(profile: Profile, gates: Gates, hourUsed?: ReadonlyMap<string, number>): Map<string, number> {
  const built = configFor(profile, 'smoke', [], 'quick', gates, 0, hourUsed).config as TrafficConfig | undefined;
  const keys = built?.gate?.trafficKeys ?? [];
  if (!built || !keys.length) return new Map();
  const gate = smokeIterations(built, gates.smokeDurationSeconds) * (built.pools ? GATE_SHARE_WITH_POOLS : 1);
  return new Map(keys.map((k) => [k, Math.ceil(gate / keys.length)]));
}

/** Of the Gate requests sent, those still in each partner's hour window now (the window scaled as the target declares). */
function hourUsedNow(profile: Profile, sent: readonly { partner: string; at: number }[] | undefined): Map<string, number> {
  const since = Date.now() - GATE_RATE_WINDOWS.hour.windowMs * profile.timing.rateWindowScale;
  const used = new Map<string, number>();
  for (const r of sent ?? []) if (r.at >= since) used.set(r.partner, (used.get(r.partner) ?? 0) + 1);
  return used;
}

/** What the scenarios' records gather into, scenario by scenario. */
interface Gathered {
  rateLimits: unknown[];
  rateWindows: unknown[];
  ttlSamples: number[];
  observations: Observation[];
  unexpected: Record<string, Record<string, number>>;
}

/** Turn a scenario's records into metrics and observations. */
function collect(name: ScenarioName, run: ScenarioRun, into: Gathered) {
  for (const r of run.records) {
    if (r.kind === 'first429') {
      const doc = DOCUMENTED_BOUNDARY[String(r.case)];
      if (!doc) continue;
      into.rateLimits.push({
        scenario: name,
        case: r.case,
        window: doc.window,
        documented: { limit: doc.limit, windowMs: doc.windowMs, firstRejectedRequest: doc.firstRejected },
        measured: { firstRejectedRequest: r.request ?? null, atMs: r.ms ?? null },
      });
    } else if (r.kind === 'window') {
      const v = r.verdict as WindowVerdict;
      const c = String(r.case);
      const value = {
        case: c,
        window: DOCUMENTED_BOUNDARY[c]?.window ?? c,
        documented: { limit: v.limit, windowMs: v.windowMs, rateWindowScale: r.scale },
        readings: v.consistent,
        measured: {
          firstRejectedRequest: v.firstRejected,
          capacityBackAfterFirstRequestMs: v.r1AfterFirstMs,
          capacityBackAfterLimitMs: v.r1AfterLimitMs,
          refillAccepted: v.refillAccepted,
          rolloverPeriodMs: v.periodMs,
          requests: r.requests,
        },
        toleranceMs: v.toleranceMs,
        mismatches: v.mismatches,
      };
      into.rateWindows.push(value);
      into.observations.push({
        topic: 'GATE-RATE-WINDOW-READING',
        service: 'gate',
        check: `${name}: ${c}`,
        value,
        note: v.consistent.length
          ? `the ${v.limit} per ${v.windowMs / 1000} s window behaved as: ${v.consistent.join(' or ')} (the spec does not say which)`
          : `no reading of ${v.limit} per ${v.windowMs / 1000} s fits what the target did`,
      });
    } else if (r.kind === 'routeProbe') {
      into.observations.push({
        topic: 'GATE-RATE-ROUTE-GROUP',
        service: 'gate',
        check: `${name}: routes`,
        value: { item: r.item, group: r.group, judged: r.judged, ok: r.ok, detail: r.detail, requests: r.statuses },
        note: r.judged ? `${String(r.item)} probed in the ${String(r.group)} group: ${String(r.detail)}` : `${String(r.item)} not judged: ${String(r.detail)}`,
      });
    } else if (r.kind === 'quoteTtl' && typeof r.seconds === 'number') {
      into.ttlSamples.push(r.seconds);
    } else if (r.kind === 'unexpected') {
      const key = String(r.key);
      const byStatus = (into.unexpected[`${name} ${key}`] ??= {});
      byStatus[String(r.status)] = (byStatus[String(r.status)] ?? 0) + 1;
    }
  }
}

/** Latency per route group from the summary's tagged trends (when the scenario exported them). */
function latencyOf(summary: Summary | undefined): Record<string, Record<string, number>> {
  const out: Record<string, Record<string, number>> = {};
  for (const [name, m] of Object.entries(summary?.metrics ?? {})) {
    const g = /^http_req_duration\{group:([^}]+)\}$/.exec(name);
    if (g && m.values) {
      out[g[1]!] = {
        p50: m.values['med'] ?? 0,
        p90: m.values['p(90)'] ?? 0,
        p95: m.values['p(95)'] ?? 0,
        p99: m.values['p(99)'] ?? 0,
        max: m.values['max'] ?? 0,
        ...(m.values['count'] !== undefined ? { samples: m.values['count'] } : {}),
      };
    }
  }
  return out;
}

/** What the finished scenarios of one run add up to, before it becomes a LoadOutcome. */
interface Collected {
  metrics: Record<string, unknown>;
  into: Gathered;
  latency: Record<string, Record<string, number>>;
  dashboards: Record<string, string[]>;
}

const collected = (): Collected => ({
  metrics: {},
  into: { rateLimits: [], rateWindows: [], ttlSamples: [], observations: [], unexpected: {} },
  latency: {},
  dashboards: {},
});

/** The checks `--depth full` keeps from a quick run: skipped with that reason, not left uncovered. */
export function fullOnlySkips(name: ScenarioName, depth: 'quick' | 'full', only?: string[]): CheckResult[] {
  if (depth !== 'quick') return [];
  const spec = SCENARIOS[name] as { cases: Record<string, readonly string[]>; fullOnly?: readonly string[] };
  return (spec.fullOnly ?? [])
    .filter((c) => !only || only.includes(c))
    .flatMap((c) =>
      (spec.cases[c] ?? []).map((id): CheckResult => ({
        name: `${name}: ${titleOf(id)}`,
        suite: 'load',
        file: `scenarios/${name}.ts`,
        requirements: [id],
        status: 'skipped',
        reason: 'runs only at --depth full (a long real-time window)',
        durationMs: 0,
      })),
    );
}

/**
 * One finished scenario run (local processes, or the runner pods' logs merged): its checks, and its
 * measured facts and metrics added to `acc`. `seed` is the traffic mix's, when known.
 */
function absorbScenario(name: ScenarioName, reqs: string[], run: ScenarioRun, seed: number | undefined, acc: Collected): CheckResult[] {
  const mine = scenarioChecks(name, reqs, run);
  collect(name, run, acc.into);
  for (const u of latencySamples(run.summary).unjudged)
    acc.into.observations.push({
      topic: 'load-latency-samples',
      service: u.metric.includes('group:pools') ? 'pools' : 'gate',
      check: `${name}: performance gates`,
      value: u,
      note: `${u.metric} ${u.expr} not judged: ${u.count} sample${u.count === 1 ? '' : 's'}, a percentile needs ${u.need} (one at least above it)`,
    });
  Object.assign(acc.latency, latencyOf(run.summary));
  const boards = run.segments.map((s) => s.dashboardFile).filter((f): f is string => !!f);
  if (boards.length) acc.dashboards[name] = boards;
  const split = run.segments.length > 1;
  acc.metrics[`k6:${name}`] = {
    exitCode: Math.max(...run.segments.map((s) => s.exitCode)),
    durationMs: run.durationMs,
    summary: `k6/${name}/summary.json`,
    dashboard: boards[0],
    records: run.records.length,
    ...(split
      ? {
          segments: run.segments.map((s) => ({
            segment: s.segment,
            exitCode: s.exitCode,
            durationMs: s.durationMs,
            summary: s.summaryFile,
            dashboard: s.dashboardFile,
          })),
        }
      : {}),
    // Which share of [0, 1) (execution segment) ran each case, and with it the case's key.
    ...(run.records.some((r) => r.kind === 'caseStart')
      ? {
          caseSegments: Object.fromEntries(run.records.filter((r) => r.kind === 'caseStart').map((r) => [String(r.case), r.segment])),
          caseTimes: caseTimesOf(run.records),
        }
      : {}),
    ...(name === 'smoke' || name === 'soak'
      ? { ...(seed !== undefined ? { seed } : {}), requests: run.summary?.metrics?.['http_reqs']?.values?.count ?? null }
      : {}),
  };
  return mine;
}

/**
 * When each case (and route lane) of a scenario started and how long it ran, ms after the first start: where a
 * slow scenario spent its time (the records carry k6's clock; their first start is the scenario's zero).
 */
function caseTimesOf(records: Record<string, unknown>[]): Record<string, { startMs: number; durationMs: number | null }> {
  const starts = records.filter((r) => r.kind === 'caseStart' && typeof r.at === 'number');
  if (!starts.length) return {};
  const zero = Math.min(...starts.map((r) => r.at as number));
  const doneAt = new Map(records.filter((r) => r.kind === 'caseDone' && typeof r.at === 'number').map((r) => [String(r.case), r.at as number]));
  return Object.fromEntries(
    starts.map((r) => {
      const end = doneAt.get(String(r.case));
      return [String(r.case), { startMs: (r.at as number) - zero, durationMs: end === undefined ? null : end - (r.at as number) }];
    }),
  );
}

/** The run's measured facts as the report reads them. */
function outcomeOf(checks: CheckResult[], acc: Collected, quoteTtlToleranceSeconds: number): LoadOutcome {
  const { metrics, into, latency, dashboards } = acc;
  if (into.rateLimits.length) metrics.rateLimits = into.rateLimits;
  if (into.rateWindows.length) metrics.rateWindows = into.rateWindows;
  if (into.ttlSamples.length)
    metrics.quoteTtl = {
      samplesSeconds: into.ttlSamples,
      expectedSeconds: POOLS_LIMITS.quoteTtlSeconds,
      toleranceSeconds: quoteTtlToleranceSeconds,
    };
  if (Object.keys(latency).length) metrics.latency = latency;
  if (Object.keys(into.unexpected).length) metrics.unexpectedByKey = into.unexpected;
  // Each scenario's k6 web dashboard (one per segment), relative to the run directory: the report links them.
  if (Object.keys(dashboards).length) metrics.k6Dashboards = dashboards;
  return { checks, metrics, observations: into.observations };
}

/**
 * Scenario runs that happened elsewhere (k6-operator's runner pods, read back from their logs) as the
 * outcome `runLoad` gives for the same runs on this machine: the same checks, metrics and observations.
 */
export function outcomeOfRuns(
  runs: { name: ScenarioName; reqs: string[]; run: ScenarioRun }[],
  opts: { depth: 'quick' | 'full'; cases?: string[]; quoteTtlToleranceSeconds: number },
): LoadOutcome {
  const acc = collected();
  const checks: CheckResult[] = [];
  for (const { name, reqs, run } of runs) checks.push(...fullOnlySkips(name, opts.depth, opts.cases), ...absorbScenario(name, reqs, run, undefined, acc));
  return outcomeOf(checks, acc, opts.quoteTtlToleranceSeconds);
}

export async function runLoad(opts: {
  profile: Profile;
  scenarios: ScenarioName[];
  depth: 'quick' | 'full';
  cases?: string[];
  runDir: string;
  gates: Gates;
  log?: (line: string) => void;
  /** Split each scenario into this many k6 processes (execution segments). */
  segments?: number;
  /** k6 --out specs passed through (json=FILE, csv=FILE, experimental-prometheus-rw, opentelemetry, …). */
  k6Out?: string[];
  /** Seeds the traffic mix; the same seed gives the same operations split or not. */
  seed?: number;
  /** The targets' clocks as the run learnt them: k6 judges the target's timestamps on them. */
  clocks?: TargetClocks;
  /** Gate requests the run's earlier kinds sent, by partner: their hour window is the one the traffic keys share. */
  gateSent?: readonly { partner: string; at: number }[];
}): Promise<LoadOutcome> {
  const n = opts.segments ?? 1;
  if (!Number.isInteger(n) || n < 1 || n > MAX_SEGMENTS)
    throw new RunError(`--segments must be a whole number from 1 to ${MAX_SEGMENTS}, not ${n}`, EXIT.usage);
  for (const name of opts.scenarios) {
    const problem = segmentProblem(opts.profile, name, n);
    if (problem) throw new RunError(problem, EXIT.usage);
  }
  const seed = opts.seed ?? Math.floor(Math.random() * 1_000_000);
  const checks: CheckResult[] = [];
  const acc = collected();
  const k6 = findK6();
  const results = new Map<ScenarioName, CheckResult[]>();
  /** Scenarios k6 really ran: only their waits count in the run's lower bound. */
  const ran: ScenarioName[] = [];
  const runOne = async (name: ScenarioName): Promise<void> => {
    const checks: CheckResult[] = [];
    results.set(name, checks);
    const cases = selectedCases(name, opts.depth, opts.cases);
    const reqs = requirementsOf(name, cases);
    const skipAll = (reason: string) => {
      for (const id of reqs)
        checks.push({
          name: `${name}: ${titleOf(id)}`,
          suite: 'load',
          file: `scenarios/${name}.ts`,
          requirements: [id],
          status: 'skipped',
          reason,
          durationMs: 0,
        });
      opts.log?.(`- load ${name}: skipped (${reason})`);
    };
    checks.push(...fullOnlySkips(name, opts.depth, opts.cases));
    if (cases.length === 0) return;
    if ('missing' in k6) {
      skipAll(k6.missing);
      return;
    }
    const { config, missing } = configFor(opts.profile, name, cases, opts.depth, opts.gates, seed, hourUsedNow(opts.profile, opts.gateSent));
    if (!config) {
      skipAll(missing!);
      return;
    }
    const poolsClock = opts.clocks?.pools.estimate();
    const pools = config.pools as Record<string, unknown> | undefined;
    if (pools && poolsClock) pools.clock = { offsetMs: poolsClock.offsetMs, uncertaintyMs: poolsClock.uncertaintyMs };
    const bound = scenarioBoundSeconds(name, opts.depth, opts.gates, opts.profile);
    opts.log?.(`… load ${name}: ${cases.join(', ')}${n > 1 ? ` as ${n} k6 segments` : ''} (up to ${bound} s)`);
    ran.push(name);
    const run = await runScenario({
      script: scriptOf(name),
      config,
      k6: k6.path,
      outDir: join(opts.runDir, 'k6', name),
      relDir: `k6/${name}`,
      segments: n,
      k6Out: opts.k6Out,
      timeoutMs: (bound + 60) * 1000,
      caPem: clientLimits(opts.profile.harness).caPem,
    });
    const mine = absorbScenario(name, reqs, run, seed, acc);
    checks.push(...mine);
    opts.log?.(`${mine.some((c) => c.status === 'failed') ? '✗' : '✓'} load ${name} (${(run.durationMs / 1000).toFixed(1)} s)`);
  };
  // Scenarios on disjoint keys run at once (rate limits on the reserved keys, mixed traffic on its own,
  // the pools scenarios on the pools partners); scenarios sharing keys run one after another.
  const lanes = laneOf(opts.scenarios);
  await Promise.all(
    lanes.map(async (lane) => {
      for (const name of lane) await runOne(name);
    }),
  );
  for (const name of opts.scenarios) checks.push(...(results.get(name) ?? []));
  acc.metrics.loadLowerBoundMs = loadLowerBoundMs(
    opts.scenarios.filter((n) => ran.includes(n)),
    opts.depth,
    opts.gates,
    opts.profile,
  );
  return outcomeOf(checks, acc, opts.profile.tolerances.quoteTtlSeconds);
}
