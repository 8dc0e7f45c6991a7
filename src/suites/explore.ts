// Explore: random sequences of documented operations against the target and, step by step, the oracle (the
// embedded reference the CLI started from the target's profile), compared on what the specs determine
// (src/explore). One check: passed when no sequence parted; a finding fails the requirement it names (or, when
// none names it, fails as a gap in the catalogue); a target that stopped it (a 429 past the pacer) leaves it
// unverified with the reason.
import { toExchangeRecord } from '../report/exchangeRecord.js';
import { exploreReplay } from '../report/exploreReplay.js';
import type { CheckResult, ExplorationRecord, FindingRecord, Observation } from '../report/results.js';
import { FAMILIES } from '../explore/commands/index.js';
import { explore, explorationTag, type ExploreOutcome, type Finding } from '../explore/explore.js';
import { capabilitiesOf, contextOf, explorePartners, sideOf } from '../explore/sides.js';
import { defaultExploreBudget } from '../plan/explore.js';
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
    const partners = explorePartners(view, ctx.service);
    const budget = ctx.exploreBudget ?? defaultExploreBudget(ctx.profile);
    const seed = ctx.seed !== undefined ? Number(ctx.seed) : Math.floor(Math.random() * 2 ** 31);
    ctx.log(
      `… explore: ${budget} requests at most, seed ${seed} (rampart explore --seed ${seed} replays it), as ${[partners.gate?.name, partners.pools?.name].filter(Boolean).join(' and ')}`,
    );
    // The target's requests, for the run's spent bound (each step waits for its answer) and its HAR.
    const requests: NonNullable<SuiteOutcome['stats']>['requests'] = [];
    // Each key a rate-limit client of its own, named by its order (never by any part of the key).
    const keyNo = new Map<string, number>();
    const onExchange = (side: 'target' | 'oracle', ex: Exchange) => {
      if (side !== 'target') return;
      const service = ex.request.url.startsWith(ctx.profile.gate.baseUrls.sandbox) ? 'gate' : 'pools';
      const base = service === 'gate' ? ctx.profile.gate.baseUrls.sandbox : (ctx.profile.pools?.baseUrls.sandbox ?? '');
      const auth = ex.request.headers['authorization'] ?? '';
      requests.push({
        service,
        label: `explore ${service} key ${keyNo.get(auth) ?? (keyNo.set(auth, keyNo.size + 1), keyNo.size)}`,
        credential: /^Bearer sk_/.test(auth) ? 'secret' : /^Bearer pk_/.test(auth) ? 'publishable' : 'none',
        method: ex.request.method,
        path: ex.request.url.slice(base.replace(/\/$/, '').length).split('?')[0] || '/',
        at: ex.startedAt,
        ms: ex.durationMs,
        check: EXPLORE_CHECK,
      });
      ctx.onExchange?.(ex, EXPLORE_CHECK);
    };
    const out = await explore({
      sides: {
        target: sideOf(ctx.profile, 'target', partners, { pacer: ctx.pacer, clocks: ctx.clocks, signal: ctx.signal }),
        oracle: sideOf(ctx.oracle, 'oracle', partners, { signal: ctx.signal }),
      },
      can: capabilitiesOf(ctx.profile, partners),
      context: contextOf(ctx.profile, explorationTag()),
      budget,
      seed,
      signal: ctx.signal,
      log: ctx.log,
      onExchange,
    });
    const exploration = recordOf(out);
    const check = checkOf(out, exploration, Date.now() - started);
    ctx.log(
      `${check.status === 'failed' ? '✗' : check.status === 'passed' ? '✓' : '?'} explore: ${out.sequences} sequences, ${out.steps} steps, ${out.spent} requests${out.finding ? ` — ${out.finding.what}` : ''}`,
    );
    return { checks: [check], observations: observationsOf(out), metrics: {}, exploration, stats: { requests, sleeps: [], holds: [] } };
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
  return {
    seed: out.seed,
    budget: out.budget,
    spent: out.spent,
    sequences: out.sequences,
    steps: out.steps,
    families: out.families,
    transitions: out.transitions,
    ...(out.foundAfter !== undefined ? { foundAfter: out.foundAfter } : {}),
    oracle: "the embedded reference, started on loopback from the target's profile (its partners, catalog and declared timing)",
    findings: out.finding ? [findingRecord(out.finding)] : [],
    ...(out.flaky ? { flaky: findingRecord(out.flaky) } : {}),
    ...(out.unjudged ? { unjudged: out.unjudged } : {}),
    ...(out.crash ? { crash: out.crash } : {}),
  };
}

function checkOf(out: ExploreOutcome, rec: ExplorationRecord, durationMs: number): CheckResult {
  const base = { name: EXPLORE_CHECK, suite: 'explore' as const, file: FILE, durationMs };
  const f = rec.findings[0];
  if (f) {
    const last = f.steps.find((s) => s.n === f.step);
    return {
      ...base,
      requirements: f.requirement ? [f.requirement] : [],
      status: 'failed',
      failure: {
        kind: 'assertion',
        ...(f.requirement ? { requirement: f.requirement } : {}),
        message: `after ${f.steps.length} step${f.steps.length === 1 ? '' : 's'} (${f.steps.map((s) => s.label).join(' → ')}), ${f.what}${f.requirement ? '' : ' — no requirement of the catalogue names this: a gap in the catalogue'}`,
        expected: `as the oracle: ${JSON.stringify(f.oracle)}`,
        actual: JSON.stringify(f.target),
        exchanges: [...(last?.target ?? [])],
        reproduce: { command: f.replay.script, env: f.replay.env, notes: f.replay.notes },
      },
    };
  }
  if (out.crash)
    return { ...base, requirements: [], status: 'failed', failure: { kind: 'crash', message: `the explorer failed: ${out.crash.split('\n')[0]}` } };
  if (out.unjudged) return { ...base, requirements: [], status: 'unverified', reason: out.unjudged };
  return { ...base, requirements: [], status: 'passed' };
}

function observationsOf(out: ExploreOutcome): Observation[] {
  const obs: Observation[] = out.observations.map((o) => ({
    topic: o.topic,
    service: o.topic.startsWith('POOLS') ? ('pools' as const) : ('gate' as const),
    check: EXPLORE_CHECK,
    value: o.value,
  }));
  if (out.flaky)
    obs.push({
      topic: 'explore-flaky-divergence',
      service: FAMILIES.find((f) => f.name === out.flaky!.family)?.service ?? 'gate',
      check: EXPLORE_CHECK,
      value: { what: out.flaky.what, steps: out.flaky.steps.map((s) => s.label) },
      note: 'a sequence parted once and not on its re-run: reported, not failed',
    });
  return obs;
}
