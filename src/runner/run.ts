// Runs declared checks against a target described by a profile and turns the
// outcome into requirement results computed from the catalogue.
import { readdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Pacer } from '../client/pacer.js';
import { toExchangeRecord } from '../client/redact.js';
import { TransportError } from '../client/types.js';
import type { Profile } from '../profile/schema.js';
import { missingRoles } from '../profile/roles.js';
import type { CheckResult, Observation, RequirementResult } from '../report/results.js';
import { CATALOGUE, type Requirement } from '../model/catalogue/index.js';
import { startReceiver } from '../webhooks/receiver.js';
import type { CheckDef, SuiteDef } from './check.js';
import { createCheckContext, type RunShared, type RunStats } from './context.js';
import { CheckFailed, CheckSkipped } from './expect.js';
import { PartnerPool } from './partners.js';
import { createProgress, type Progress } from './progress.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface LoadedSuite extends SuiteDef {
  file: string;
}

/** Every conformance suite file: conformance/<service>/<area>.ts, default export defineSuite(...). */
export function loadConformanceSuites(service?: 'gate' | 'pools'): Promise<LoadedSuite[]> {
  return loadSuites('conformance', service);
}

/** Suite files of a kind: <kind>/<service>/<area>.ts (conformance/ or chaos/). */
export async function loadSuites(kind: 'conformance' | 'chaos', service?: 'gate' | 'pools'): Promise<LoadedSuite[]> {
  const suites: LoadedSuite[] = [];
  for (const svc of ['gate', 'pools'] as const) {
    if (service && svc !== service) continue;
    const dir = join(ROOT, kind, svc);
    let files: string[];
    try {
      files = readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts')).sort();
    } catch {
      continue;
    }
    for (const f of files) {
      const mod = await import(pathToFileURL(join(dir, f)).href);
      const suite = mod.default as SuiteDef | undefined;
      if (!suite || !Array.isArray(suite.checks)) throw new Error(`${relative(ROOT, join(dir, f))} has no default export from defineSuite()`);
      suites.push({ ...suite, file: relative(ROOT, join(dir, f)) });
    }
  }
  return suites;
}

export interface RunChecksOptions {
  profile: Profile;
  suites: LoadedSuite[];
  depth: 'quick' | 'full';
  grep?: string;
  concurrency?: number;
  progress?: Progress;
  suiteName?: 'conformance' | 'load' | 'chaos';
  /** Called once the receiver is up, before any check: chaos runs wire Toxiproxy here. */
  prepare?: (shared: RunShared) => Promise<void> | void;
}

export interface ChecksOutcome {
  checks: CheckResult[];
  observations: Observation[];
  stats: RunStats;
}

function withTimeout<T>(p: Promise<T>, ms: number, controller: AbortController): Promise<T> {
  let t: NodeJS.Timeout;
  return Promise.race([
    p,
    new Promise<T>((_, reject) => {
      t = setTimeout(() => {
        controller.abort();
        reject(new CheckFailed(`the check did not finish within ${Math.round(ms / 1000)} s`));
      }, ms);
    }),
  ]).finally(() => clearTimeout(t));
}

export async function runChecks(opts: RunChecksOptions): Promise<ChecksOutcome> {
  const { profile } = opts;
  const progress = opts.progress ?? createProgress();
  const pacer = new Pacer({ windowScale: profile.timing.rateWindowScale });
  const receiver = await startReceiver({ host: profile.webhooks.listenHost, port: profile.webhooks.listenPort, publicUrl: profile.webhooks.publicUrl });
  const shared: RunShared = {
    profile,
    depth: opts.depth,
    pacer,
    // Keys reserved for load keep empty rate windows for the rate-limit scenarios.
    gatePartners: new PartnerPool(profile.gate.partners.filter((p) => p.reservedFor !== 'load'), pacer),
    poolsPartners: new PartnerPool(profile.pools?.partners ?? []),
    receiver,
    progress,
    observations: [],
    webhookReady: new Map(),
    timeoutMs: 60_000,
    stats: { requests: [], sleeps: [] },
  };

  try {
    await opts.prepare?.(shared);
  } catch (e) {
    await receiver.close();
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

  const results: CheckResult[] = [];
  progress.start(selected.length, opts.suiteName ?? 'conformance');
  const queue = [...selected];
  const concurrency = Math.max(1, opts.concurrency ?? 24);

  async function runOne({ suite, check }: { suite: LoadedSuite; check: CheckDef }): Promise<void> {
    const base = { name: check.name, suite: opts.suiteName ?? 'conformance', file: suite.file, requirements: check.requirements } as const;
    const missing = missingRoles(profile, check.needs ?? []);
    if (missing.length) {
      const { ROLES } = await import('../profile/roles.js');
      const reason = `missing role ${missing.join(', ')}: ${missing.map((r) => ROLES[r].missing).join('; ')}`;
      results.push({ ...base, status: 'skipped', reason, durationMs: 0 });
      progress.checkFinished(check.name, 'skipped', 0, reason);
      return;
    }
    if (check.depth === 'full' && opts.depth !== 'full') {
      const reason = 'runs only at --depth full (needs long real-time waits)';
      results.push({ ...base, status: 'skipped', reason, durationMs: 0 });
      progress.checkFinished(check.name, 'skipped', 0, reason);
      return;
    }
    const controller = new AbortController();
    const state = createCheckContext(shared, check, suite.service, controller.signal);
    const started = Date.now();
    progress.checkStarted(check.name);
    try {
      await withTimeout(check.run(state.ctx), check.timeoutMs ?? shared.timeoutMs, controller);
      const ms = Date.now() - started;
      results.push({ ...base, status: 'passed', durationMs: ms });
      progress.checkFinished(check.name, 'passed', ms);
    } catch (e) {
      const ms = Date.now() - started;
      if (e instanceof CheckSkipped) {
        results.push({ ...base, status: 'skipped', reason: e.reason, durationMs: ms });
        progress.checkFinished(check.name, 'skipped', ms, e.reason);
      } else {
        const failure = toFailure(e, state.exchanges);
        results.push({ ...base, status: 'failed', durationMs: ms, failure });
        progress.checkFinished(check.name, 'failed', ms, failure.message);
      }
    } finally {
      controller.abort();
      await state.release();
    }
  }

  try {
    await Promise.all(
      Array.from({ length: Math.min(concurrency, queue.length) }, async () => {
        for (let next = queue.shift(); next; next = queue.shift()) await runOne(next);
      }),
    );
  } finally {
    progress.stop();
    await receiver.close();
  }
  // Stable order in reports: as declared.
  const order = new Map(selected.map((s, i) => [`${s.suite.file}::${s.check.name}`, i]));
  results.sort((a, b) => (order.get(`${a.file}::${a.name}`) ?? 0) - (order.get(`${b.file}::${b.name}`) ?? 0));
  return { checks: results, observations: shared.observations, stats: shared.stats };
}

function toFailure(e: unknown, exchanges: import('../client/types.js').Exchange[]): NonNullable<CheckResult['failure']> {
  const last = exchanges.slice(-4).map(toExchangeRecord);
  if (e instanceof CheckFailed) {
    const ex = e.details.exchange;
    const records = ex && !exchanges.slice(-4).includes(ex) ? [...last.slice(-3), toExchangeRecord(ex)] : last;
    return {
      message: e.message,
      requirement: e.details.requirement,
      expected: e.details.expected,
      actual: e.details.actual,
      requestId: ex?.requestId,
      exchanges: records,
    };
  }
  if (e instanceof TransportError) return { message: e.message, exchanges: last };
  const err = e as Error;
  return { message: `the check threw: ${err?.message ?? String(e)}`, actual: err?.stack?.split('\n').slice(0, 4).join(' | '), exchanges: last };
}

/** Requirement results from the catalogue: every entry in scope, covered or not. */
export function requirementResults(checks: CheckResult[], scope: (r: Requirement) => boolean): RequirementResult[] {
  const byReq = new Map<string, CheckResult[]>();
  for (const c of checks) for (const id of c.requirements) byReq.set(id, [...(byReq.get(id) ?? []), c]);
  const out: RequirementResult[] = [];
  for (const r of CATALOGUE) {
    if (!scope(r)) continue;
    const cs = byReq.get(r.id) ?? [];
    let status: RequirementResult['status'];
    let reason: string | undefined;
    if (cs.length === 0) {
      status = 'not_covered';
      reason = 'no check names this requirement';
    } else if (cs.some((c) => c.status === 'failed')) status = 'failed';
    else if (cs.some((c) => c.status === 'passed')) status = 'passed';
    else {
      status = 'skipped';
      reason = cs.find((c) => c.reason)?.reason;
    }
    out.push({
      id: r.id,
      service: r.service,
      title: r.title,
      section: r.section,
      status,
      reason,
      checks: cs.map((c) => ({ name: c.name, status: c.status, durationMs: c.durationMs, failure: c.failure, reason: c.reason })),
    });
  }
  return out;
}

/** Check ids that name no catalogue entry: a defect of the suite, reported loudly. */
export function unknownRequirementIds(suites: SuiteDef[]): string[] {
  const known = new Set(CATALOGUE.map((r) => r.id));
  const bad = new Set<string>();
  for (const s of suites) for (const c of s.checks) for (const id of c.requirements) if (!known.has(id)) bad.add(id);
  return [...bad];
}
