// Explore: random sequences of documented operations against the target and, step by step, the oracle (the
// embedded reference the CLI started from the target's profile), compared on what the specs determine
// (src/explore). Its checks: the exploration's, naming every requirement its comparisons judged — passed when no
// sequence parted, failed on a finding (or, when no requirement names it, as a gap in the catalogue); a divergence
// that did not part again on a re-run that reached it, unverified on its requirement; at --depth full, a family the
// profile supports that applied no step, not run. A stop (the run's, no answer, rate-limited, a full hour window)
// ends it as it ends every kind: not run with the reason, the run's exit 3 or 5.
import { toExchangeRecord } from '../report/exchangeRecord.js';
import { exploreReplay } from '../report/exploreReplay.js';
import type { CheckResult, ExplorationRecord, FindingRecord, Observation } from '../report/results.js';
import { explore, explorationTag, type ExploreOutcome, type Finding } from '../explore/explore.js';
import { lanesFrom } from '../explore/sides.js';
import { exploreLanes } from '../explore/lanes.js';
import { defaultBudgetOf, lanesOf, splitBudget } from '../explore/budget.js';
import { Pacer } from '../client/pacer.js';
import { RouteRefusals } from '../runner/routeRefusals.js';
import { viewFor } from '../runner/partition.js';
import { EXIT, RunError } from '../exitCodes.js';
import type { Exchange } from '../client/types.js';
import type { SuiteKind, SuiteOutcome } from './kind.js';

/** The explore kind's one check (its name in results, junit and the report). */
export const EXPLORE_CHECK = 'explore: sequences of documented operations, the target beside the oracle';
const FILE = 'src/explore';

export const exploreKind: SuiteKind = {
  name: 'explore',
  validate(ctx) {
    if (ctx.service === 'pools' && !ctx.profile.pools) throw new RunError('--service pools: the profile has no pools section to explore', EXIT.usage);
  },
  async declared() {
    return [{ name: EXPLORE_CHECK, file: FILE, requirements: [] }];
  },
  async run(ctx) {
    const started = Date.now();
    if (!ctx.oracle) throw new Error('explore needs its oracle (the CLI starts it)');
    const view = ctx.partners
      ? {
          ...ctx.profile,
          gate: { ...ctx.profile.gate, partners: ctx.partners.gate },
          ...(ctx.profile.pools ? { pools: { ...ctx.profile.pools, partners: ctx.partners.pools } } : {}),
        }
      : viewFor(ctx.profile, 'explore');
    const plans = lanesOf(view, ctx.service);
    const budgets = splitBudget(plans, ctx.exploreBudget ?? defaultBudgetOf(plans));
    const budget = budgets.reduce((a, b) => a + b, 0);
    const seed = ctx.seed !== undefined ? Number(ctx.seed) : Math.floor(Math.random() * 2 ** 31);
    ctx.log(
      `… explore: ${budget} requests at most, seed ${seed} (rampart explore --seed ${seed} replays it), over ${plans.length} lane${plans.length === 1 ? '' : 's'} at once: ${plans.map((l, i) => `${l.name} (${l.keys} key${l.keys === 1 ? '' : 's'}, ${budgets[i]})`).join(', ') || 'none'}`,
    );
    // The target's requests, for the run's spent bound (each step waits for its answer) and its HAR.
    const requests: NonNullable<SuiteOutcome['stats']>['requests'] = [];
    // Each key a rate-limit client of its own, named by its order (never by any part of the key).
    const keyNo = new Map<string, number>();
    const byKey: Record<string, number> = {};
    const onExchange = (side: 'target' | 'oracle', ex: Exchange) => {
      if (side !== 'target') return;
      const service = ex.request.url.startsWith(ctx.profile.gate.baseUrls.sandbox) ? 'gate' : 'pools';
      const base = service === 'gate' ? ctx.profile.gate.baseUrls.sandbox : (ctx.profile.pools?.baseUrls.sandbox ?? '');
      const auth = ex.request.headers['authorization'] ?? '';
      const label = `explore ${service} key ${keyNo.get(auth) ?? (keyNo.set(auth, keyNo.size + 1), keyNo.size)}`;
      byKey[label] = (byKey[label] ?? 0) + 1;
      requests.push({
        service,
        label,
        credential: /^Bearer sk_/.test(auth) ? 'secret' : /^Bearer pk_/.test(auth) ? 'publishable' : 'none',
        method: ex.request.method,
        path: ex.request.url.slice(base.replace(/\/$/, '').length).split('?')[0] || '/',
        at: ex.startedAt,
        ms: ex.durationMs,
        check: EXPLORE_CHECK,
      });
      ctx.onExchange?.(ex, EXPLORE_CHECK);
    };
    const lanes = lanesFrom(ctx.profile, ctx.oracle, plans, budgets, explorationTag(), {
      // Pools requests paced as conformance's are: the target's announced pauses (its request-rate limits are not shown).
      target: { pacer: ctx.pacer, poolsPacer: new Pacer({ paceWindows: false }), clocks: ctx.clocks, signal: ctx.signal },
      oracle: { signal: ctx.signal },
    });
    const out = await exploreLanes(lanes, { seed, signal: ctx.signal, log: ctx.log, onExchange });
    const exploration = { ...recordOf(out), lanes: out.lanes, byKey };
    const checks = checksOf(out, exploration, ctx.depth, Date.now() - started);
    const check = checks[0]!;
    ctx.log(
      `${check.status === 'failed' ? '✗' : check.status === 'passed' ? '✓' : '?'} explore: ${out.sequences} sequences, ${out.steps} steps, ${out.spent} requests, ${out.judged.length} requirements judged${out.finding ? ` — ${out.finding.what}` : out.stopped ? ` — stopped: ${out.stopped.why}` : ''}`,
    );
    for (const [name, f] of Object.entries(out.families))
      ctx.log(
        `  ${name}: ${f.leftOut ? `left out — ${f.leftOut}` : `${f.sequences} sequences, ${f.steps} steps, ${f.requests} requests; small interactions ${f.pairs.walked} walked of ${f.pairs.tried} run (${f.pairs.total} in all)`}`,
      );
    return {
      checks,
      observations: observationsOf(out),
      metrics: {},
      exploration,
      stats: { requests, sleeps: [], holds: [] },
      ...(out.stopped?.kind === 'outage' ? { outage: out.stopped.why } : {}),
      ...(out.stopped?.kind === 'rate-limited' ? { rateLimited: out.stopped.why } : {}),
    };
  },
};

function findingRecord(f: Finding): FindingRecord {
  return {
    ...(f.requirement ? { requirement: f.requirement } : {}),
    what: f.what,
    step: f.step,
    target: f.target,
    oracle: f.oracle,
    steps: f.steps.map((s) => ({ n: s.n, label: s.label, target: s.exchanges.target.map(toExchangeRecord), oracle: s.exchanges.oracle.map(toExchangeRecord) })),
    family: f.family,
    seed: f.seed,
    path: f.path,
    firstSeenSteps: f.firstSeenSteps,
    confirmed: f.confirmed,
    rerun: f.rerun,
    replay: exploreReplay({
      steps: f.steps.map((s) => ({ n: s.n, label: s.label, target: s.exchanges.target })),
      objects: f.objects,
      tag: f.tag,
      what: f.what,
      step: f.step,
      target: f.target,
      oracle: f.oracle,
    }),
  };
}

function recordOf(out: ExploreOutcome): ExplorationRecord {
  const ran = Object.entries(out.families).filter(([, f]) => !f.leftOut);
  return {
    seed: out.seed,
    budget: out.budget,
    spent: out.spent,
    sequences: out.sequences,
    steps: out.steps,
    families: Object.fromEntries(ran.map(([name, f]) => [name, f.sequences])),
    byFamily: out.families,
    judged: out.judged,
    transitions: out.transitions,
    ...(out.foundAfter !== undefined ? { foundAfter: out.foundAfter } : {}),
    oracle: "the embedded reference, started on loopback from the target's profile (its partners, catalog and declared timing)",
    findings: out.finding ? [findingRecord(out.finding)] : [],
    ...(out.intermittent ? { flaky: findingRecord(out.intermittent) } : {}),
    ...(unjudgedWhy(out) ? { unjudged: unjudgedWhy(out) } : {}),
    ...(out.stopped ? { stopped: { kind: out.stopped.kind, why: out.stopped.why } } : {}),
    ...(out.crash ? { crash: out.crash } : {}),
  };
}

/** Why an exploration that ran to its end judged nothing, or undefined. */
function unjudgedWhy(out: ExploreOutcome): string | undefined {
  if (out.judged.length || out.finding || out.stopped || out.crash) return undefined;
  const left = Object.entries(out.families).filter(([, f]) => f.leftOut);
  if (left.length === Object.keys(out.families).length)
    return `the profile lets explore act on no family (${left.map(([n, f]) => `${n}: ${f.leftOut}`).join('; ')})`;
  return `its ${out.sequences} sequences compared nothing the specs determine (${out.spent} of ${out.budget} requests)`;
}

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/** The exploration's checks: its own (every rule it judged), an intermittent divergence's, a route refusing everything, families that applied nothing. */
function checksOf(out: ExploreOutcome, rec: ExplorationRecord, depth: 'quick' | 'full', durationMs: number): CheckResult[] {
  const base = { suite: 'explore' as const, file: FILE, durationMs };
  const apart = new Set([out.finding?.requirement, out.intermittent?.requirement].filter(Boolean));
  const held = out.judged.filter((id) => !apart.has(id));
  const checks: CheckResult[] = [mainCheck(out, rec, held, { ...base, name: EXPLORE_CHECK })];
  const i = out.intermittent;
  if (i)
    checks.push({
      ...base,
      name: `explore: a divergence that did not part again (${i.what})`,
      requirements: i.requirement ? [i.requirement] : [],
      status: 'unverified',
      reason: `a ${i.family} sequence parted at step ${i.step} (${i.what}: target ${JSON.stringify(i.target)}, oracle ${JSON.stringify(i.oracle)}), and its re-run reached that step and did not part: intermittent, neither passed nor failed — replay it with rampart explore --seed ${i.seed}`,
    });
  if (out.stopped?.refusal) {
    const refusals = new RouteRefusals();
    refusals.add(out.stopped.refusal);
    checks.push(...refusals.checks('explore'));
  }
  // At --depth full every family the profile supports must have walked: one that applied no step leaves the run INCOMPLETE.
  if (depth === 'full' && !out.finding && !out.stopped)
    for (const [name, f] of Object.entries(out.families))
      if (!f.leftOut && f.steps === 0)
        checks.push({
          ...base,
          name: `explore: the ${name} family`,
          requirements: [],
          status: 'not_run',
          reason: `the profile supports ${name}, but no sequence of it applied a step (${plural(f.sequences, 'sequence')} within ${out.spent} of ${out.budget} requests): raise --budget`,
        });
  return checks;
}

function mainCheck(out: ExploreOutcome, rec: ExplorationRecord, held: string[], base: Omit<CheckResult, 'requirements' | 'status'>): CheckResult {
  const f = rec.findings[0];
  if (f) {
    const last = f.steps.find((s) => s.n === f.step);
    const rerun = f.rerun?.outcome === 'not re-run' ? ` — not re-run (${f.rerun.why}): the divergence in hand stands` : '';
    return {
      ...base,
      requirements: f.requirement ? [f.requirement] : [],
      status: 'failed',
      failure: {
        kind: 'assertion',
        ...(f.requirement ? { requirement: f.requirement } : {}),
        message: `after ${plural(f.steps.length, 'step')} (${f.steps.map((s) => s.label).join(' → ')}), ${f.what}${f.requirement ? '' : ' — no requirement of the catalogue names this: a gap in the catalogue'}${rerun}`,
        expected: `as the oracle: ${JSON.stringify(f.oracle)}`,
        actual: JSON.stringify(f.target),
        exchanges: [...(last?.target ?? [])],
        reproduce: { command: f.replay.script, env: f.replay.env, notes: f.replay.notes },
      },
    };
  }
  if (out.crash)
    return { ...base, requirements: [], status: 'failed', failure: { kind: 'crash', message: `the explorer failed: ${out.crash.split('\n')[0]}` } };
  const stop = out.stopped;
  // As a check's request ends on each: a full hour window skips it, every other stop leaves it not run.
  if (stop)
    return {
      ...base,
      requirements: held,
      status: stop.kind === 'hour-window' ? 'skipped' : 'not_run',
      reason: `explore stopped after ${plural(out.sequences, 'sequence')}: ${stop.why}`,
    };
  if (rec.unjudged) return { ...base, requirements: [], status: 'unverified', reason: rec.unjudged };
  return { ...base, requirements: held, status: 'passed' };
}

function observationsOf(out: ExploreOutcome): Observation[] {
  return out.observations.map((o) => ({
    topic: o.topic,
    service: /^pools/i.test(o.topic) ? ('pools' as const) : ('gate' as const),
    check: EXPLORE_CHECK,
    value: o.value,
  }));
}
