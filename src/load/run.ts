// `rampart load`: runs k6 scenarios against the profile's target and turns
// their per-requirement thresholds into check results, plus the measured
// facts (rate-limit boundaries, the quote-TTL distribution, latencies) the
// report charts.
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Profile } from '../profile/schema.js';
import type { CheckResult } from '../report/results.js';
import { CATALOGUE } from '../model/catalogue/index.js';
import { GATE_RATE_WINDOWS, POOLS_LIMITS, ROUTE_GROUP_FIRST_WINDOW } from '../model/limits.js';
import { SCENARIOS, type ScenarioName } from '../../scenarios/lib/requirements.js';
import type { Gates } from './gates.js';
import { findK6, ROOT, runK6 } from './k6.js';

export const SCENARIO_NAMES = Object.keys(SCENARIOS) as ScenarioName[];

/** Scenarios `rampart load` runs when none is named (soak only on request). */
export const DEFAULT_SCENARIOS: ScenarioName[] = SCENARIO_NAMES.filter((n) => (n as string) !== 'soak');

export interface LoadOutcome {
  checks: CheckResult[];
  metrics: Record<string, unknown>;
}

interface Record429 {
  kind: 'first429';
  case: string;
  request: number | null;
  ms: number | null;
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

function requirementsOf(name: ScenarioName, cases: string[]): string[] {
  const spec = SCENARIOS[name] as { cases: Record<string, readonly string[]> };
  return [...new Set(cases.flatMap((c) => spec.cases[c] ?? []))];
}

const titleOf = (id: string) => CATALOGUE.find((r) => r.id === id)?.title ?? id;

/** What a scenario needs from the profile; a reason when it cannot run. */
function configFor(profile: Profile, name: ScenarioName, cases: string[], depth: 'quick' | 'full', gates: Gates): { config?: object; missing?: string } {
  const spec = SCENARIOS[name];
  const reserved = profile.gate.partners.filter((p) => p.reservedFor === 'load').map((p) => p.secretKey);
  const traffic = profile.gate.partners.filter((p) => p.reservedFor !== 'load').map((p) => p.secretKey);
  if (name === 'rate-limits' && reserved.length < 8) {
    return { missing: `the profile reserves ${reserved.length} gate partner(s) for load (reservedFor: "load"); the rate-limit cases need 8 keys with empty windows` };
  }
  const gate = {
    baseUrl: profile.gate.baseUrls.sandbox,
    keys: reserved,
    trafficKeys: traffic,
    sessionBody: { amount: '10.00', currency: 'EUR', return_url: 'https://example.test/return', ...(profile.gate.sessionDefaults ?? {}) },
  };
  let pools: object | undefined;
  const p = profile.pools;
  const funded = p?.partners.filter((x) => x.state === 'funded' && x.balanceGate && !x.velocityCap).map((x) => x.secretKey) ?? [];
  if (p && funded.length) {
    const { $comment: _c, ...quote } = p.quote as Record<string, unknown>;
    pools = {
      baseUrl: p.baseUrls.sandbox,
      keys: funded,
      pool: p.pools.main,
      quote: { side: 'on_ramp', type: 'firm', ...quote },
      ttlSeconds: profile.timing.quoteTtlSeconds ?? POOLS_LIMITS.quoteTtlSeconds,
      ttlToleranceSeconds: profile.tolerances.quoteTtlSeconds,
    };
  }
  if (spec.service === 'pools' && !pools) return { missing: p ? 'the profile has no funded pools partner without a velocity cap' : 'the profile has no pools section' };
  return { config: { scenario: name, depth, cases, requirements: requirementsOf(name, cases), gates, gate, pools } };
}

function readRecords(file: string): Record<string, unknown>[] {
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  const out: Record<string, unknown>[] = [];
  for (const line of text.split('\n')) {
    const m = /msg="RAMPART (.*)"(?: |$)/.exec(line);
    if (!m) continue;
    try {
      out.push(JSON.parse(JSON.parse(`"${m[1]}"`)) as Record<string, unknown>);
    } catch {
      /* a torn line: skip */
    }
  }
  return out;
}

interface SummaryMetric {
  type?: string;
  values?: Record<string, number>;
  thresholds?: Record<string, { ok: boolean }>;
}
interface Summary {
  metrics?: Record<string, SummaryMetric>;
  root_group?: Group;
}
interface Group {
  name: string;
  checks?: { name: string; passes: number; fails: number }[] | Record<string, { name: string; passes: number; fails: number }>;
  groups?: Group[] | Record<string, Group>;
}

function failedChecks(g: Group | undefined, out: string[] = []): string[] {
  if (!g) return out;
  const checks = Array.isArray(g.checks) ? g.checks : Object.values(g.checks ?? {});
  for (const c of checks) if (c.fails > 0) out.push(`${c.name} (${c.fails} of ${c.passes + c.fails} failed)`);
  const groups = Array.isArray(g.groups) ? g.groups : Object.values(g.groups ?? {});
  for (const sub of groups) failedChecks(sub, out);
  return out;
}

/** Latency per route group from the summary's tagged trends (when the scenario exported them). */
function latencyOf(summary: Summary): Record<string, Record<string, number>> {
  const out: Record<string, Record<string, number>> = {};
  for (const [name, m] of Object.entries(summary.metrics ?? {})) {
    const g = /^http_req_duration\{group:([^}]+)\}$/.exec(name);
    if (g && m.values) {
      out[g[1]!] = {
        p50: m.values['med'] ?? 0,
        p90: m.values['p(90)'] ?? 0,
        p95: m.values['p(95)'] ?? 0,
        p99: m.values['p(99)'] ?? 0,
        max: m.values['max'] ?? 0,
      };
    }
  }
  return out;
}

export async function runLoad(opts: {
  profile: Profile;
  scenarios: ScenarioName[];
  depth: 'quick' | 'full';
  cases?: string[];
  runDir: string;
  gates: Gates;
  log?: (line: string) => void;
}): Promise<LoadOutcome> {
  const checks: CheckResult[] = [];
  const metrics: Record<string, unknown> = {};
  const rateLimits: unknown[] = [];
  const ttlSamples: number[] = [];
  const latency: Record<string, Record<string, number>> = {};
  const k6 = findK6();
  for (const name of opts.scenarios) {
    const cases = selectedCases(name, opts.depth, opts.cases);
    const reqs = requirementsOf(name, cases);
    const skipAll = (reason: string) => {
      for (const id of reqs) checks.push({ name: `${name}: ${titleOf(id)}`, suite: 'load', file: `scenarios/${name}.ts`, requirements: [id], status: 'skipped', reason, durationMs: 0 });
      opts.log?.(`- load ${name}: skipped (${reason})`);
    };
    // Cases kept for --depth full are reported as skipped with that reason, not left uncovered.
    if (opts.depth === 'quick') {
      const spec = SCENARIOS[name] as { cases: Record<string, readonly string[]>; fullOnly?: readonly string[] };
      for (const c of spec.fullOnly ?? []) {
        if (opts.cases && !opts.cases.includes(c)) continue;
        for (const id of spec.cases[c] ?? [])
          checks.push({ name: `${name}: ${titleOf(id)}`, suite: 'load', file: `scenarios/${name}.ts`, requirements: [id], status: 'skipped', reason: 'runs only at --depth full (a long real-time window)', durationMs: 0 });
      }
    }
    if (cases.length === 0) continue;
    if ('missing' in k6) {
      skipAll(k6.missing);
      continue;
    }
    const { config, missing } = configFor(opts.profile, name, cases, opts.depth, opts.gates);
    if (!config) {
      skipAll(missing!);
      continue;
    }
    const outDir = join(opts.runDir, 'k6', name);
    mkdirSync(outDir, { recursive: true });
    // Keys travel in a private temp file, never on a command line or in the run directory.
    const tmp = mkdtempSync(join(tmpdir(), 'rampart-k6-'));
    const cfgFile = join(tmp, 'config.json');
    writeFileSync(cfgFile, JSON.stringify(config), { mode: 0o600 });
    chmodSync(cfgFile, 0o600);
    // For distributed runs (docs/distributed-load.md): keep a copy where the user asks.
    if (process.env.RAMPART_KEEP_K6_CONFIG) writeFileSync(process.env.RAMPART_KEEP_K6_CONFIG, JSON.stringify(config), { mode: 0o600 });
    const consoleFile = join(tmp, 'console.log');
    const spec = SCENARIOS[name];
    opts.log?.(`… load ${name}: ${cases.join(', ')} (up to ${spec.maxSeconds[opts.depth]} s)`);
    const run = await runK6({
        k6: k6.path,
        script: join(ROOT, 'scenarios', `${name}.ts`),
        env: { RAMPART_CONFIG: cfgFile, RAMPART_OUT: outDir },
        consoleOutput: consoleFile,
        dashboardExport: join(outDir, 'dashboard.html'),
      timeoutMs: (spec.maxSeconds[opts.depth] + 60) * 1000,
    });
    const records = readRecords(consoleFile);
    rmSync(tmp, { recursive: true, force: true });
    let summary: Summary = {};
    try {
      summary = JSON.parse(readFileSync(join(outDir, 'summary.json'), 'utf8')) as Summary;
    } catch {
      /* k6 failed before handleSummary */
    }
    const failedNames = failedChecks(summary.root_group);
    const crashed = run.exitCode !== 0 && run.exitCode !== 99;
    for (const id of reqs) {
      const m = summary.metrics?.[`checks{req:${id}}`];
      const passes = m?.values?.passes ?? 0;
      const fails = m?.values?.fails ?? 0;
      const base = { name: `${name}: ${titleOf(id)}`, suite: 'load' as const, file: `scenarios/${name}.ts`, requirements: [id], durationMs: run.durationMs };
      if (passes + fails === 0) {
        checks.push({
          ...base,
          status: 'failed',
          failure: {
            message: crashed ? `k6 ended with exit code ${run.exitCode} before exercising this rule` : 'the scenario never exercised this rule',
            actual: run.stderrTail.split('\n').filter(Boolean).slice(-3).join(' | '),
          },
        });
      } else if (fails > 0 || m?.thresholds?.['rate==1']?.ok === false) {
        checks.push({
          ...base,
          status: 'failed',
          failure: { message: `${fails} of ${passes + fails} checks for this rule failed`, expected: 'every check passes (threshold rate==1)', actual: failedNames.join('; ') || `${fails} failed` },
        });
      } else {
        checks.push({ ...base, status: 'passed' });
      }
    }
    // Gates thresholds other than the per-requirement ones (latency, error rate).
    const breached: string[] = [];
    for (const [metric, m] of Object.entries(summary.metrics ?? {})) {
      if (metric.startsWith('checks{req:')) continue;
      for (const [expr, t] of Object.entries(m.thresholds ?? {})) {
        if (!t.ok) {
          breached.push(`${metric} ${expr}`);
          checks.push({
            name: `${name}: gate ${metric} ${expr}`,
            suite: 'load',
            file: `scenarios/${name}.ts`,
            requirements: [],
            status: 'failed',
            durationMs: run.durationMs,
            failure: { message: `performance gate breached: ${metric} ${expr}`, expected: expr, actual: JSON.stringify(m.values ?? {}) },
          });
        }
      }
    }
    if (reqs.length === 0) {
      // A performance-gate scenario (smoke, soak): one check for its gates.
      const gateCheck = { name: `${name}: performance gates (p95/p99 per route group, unexpected-status rate)`, suite: 'load' as const, file: `scenarios/${name}.ts`, requirements: [], durationMs: run.durationMs };
      if (crashed || !summary.metrics) checks.push({ ...gateCheck, status: 'failed', failure: { message: `k6 ended with exit code ${run.exitCode}`, actual: run.stderrTail.split('\n').filter(Boolean).slice(-3).join(' | ') } });
      else if (!breached.length) checks.push({ ...gateCheck, status: 'passed' });
    }
    for (const r of records) {
      if (r.kind === 'first429') {
        const rec = r as unknown as Record429;
        const doc = DOCUMENTED_BOUNDARY[rec.case];
        if (!doc) continue;
        // A case may walk in parts (replacesFirstOnly: writes, then reads): a measured 429 replaces an earlier "none".
        const prior = rateLimits.findIndex((x) => (x as { case: string }).case === rec.case);
        if (prior !== -1) {
          if (rec.request === null) continue;
          rateLimits.splice(prior, 1);
        }
        rateLimits.push({
          scenario: name,
          case: rec.case,
          window: doc.window,
          documented: { limit: doc.limit, windowMs: doc.windowMs, firstRejectedRequest: doc.firstRejected },
          measured: { firstRejectedRequest: rec.request, atMs: rec.ms },
        });
      } else if (r.kind === 'quoteTtl' && typeof r.seconds === 'number') {
        ttlSamples.push(r.seconds);
      }
    }
    Object.assign(latency, latencyOf(summary));
    metrics[`k6:${name}`] = { exitCode: run.exitCode, durationMs: run.durationMs, summary: `k6/${name}/summary.json`, dashboard: `k6/${name}/dashboard.html`, records: records.length };
    opts.log?.(`${checks.filter((c) => c.file === `scenarios/${name}.ts` && c.status === 'failed').length ? '✗' : '✓'} load ${name} (${(run.durationMs / 1000).toFixed(1)} s)`);
  }
  if (rateLimits.length) metrics.rateLimits = rateLimits;
  if (ttlSamples.length)
    metrics.quoteTtl = { samplesSeconds: ttlSamples, expectedSeconds: opts.profile.timing.quoteTtlSeconds, toleranceSeconds: opts.profile.tolerances.quoteTtlSeconds };
  if (Object.keys(latency).length) metrics.latency = latency;
  return { checks, metrics };
}
