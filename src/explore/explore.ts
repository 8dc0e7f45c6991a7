// rampart explore: random sequences of documented operations, each applied step by step to the target and to
// the oracle, compared on what the specs determine (fast-check model-based testing). First the small interactions of
// every family (pairs.ts: each view around each change, each repeated request around each change), within a share of
// the search budget; then random sequences. Random sequence k is generated from
// seed + k, each with one family of operations (sessions, customers, branding, webhook deliveries, rails, pools)
// that the schedule picks by what the family's sequences lately reached first (schedule.ts), until the search share of
// the request budget is spent. At the first divergence its re-run's requests are held back, then it is shrunk by
// fast-check to the shortest sequence that still parts within the rest, and run once more (rerun.ts): a finding,
// unless the re-run reached the step and did not part (intermittent). A stop ends it as it ends every kind (stop.ts).
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { FAMILIES, maxCommandsOf, type Family } from './commands/index.js';
import type { RequirementId } from '../model/catalogue/index.js';
import { Divergence, type DivergenceDetail } from './divergence.js';
import { rerun, type Rerun, type RerunOutcome } from './rerun.js';
import { stopOf, type Stopped } from './stop.js';
import { newModel, type Capabilities, type ExploreModel } from './model.js';
import { FamilySchedule, VariantCoverage, transitionOf } from './schedule.js';
import { PAIR_SHARE, PairQueue } from './pairs.js';
import { Budget, Real, type ExploreContext, type SideClients, type Step } from './real.js';
import type { Side } from './model.js';
import type { Exchange } from '../client/types.js';
import type { ExploreCommand } from './commands/command.js';

export interface ExploreOptions {
  sides: Record<Side, SideClients>;
  can: Capabilities;
  context: ExploreContext;
  /** Requests the target may be sent, shrinking and the confirming re-run included. */
  budget: number;
  seed: number;
  signal?: AbortSignal;
  log?: (line: string) => void;
  /** Told of every exchange on either side. */
  onExchange?: (side: Side, ex: Exchange) => void;
  /** Told of every sequence run, its family and the labels of the steps that applied (find-rate tracing). */
  onSequence?: (family: string, steps: string[]) => void;
  /** Shared by the lanes of one exploration (lanes.ts): once one lane parts, the others start no new sequence. */
  halt?: { found: boolean };
  /** Of the search share, what the small interactions may take before the random sequences (pairs.ts PAIR_SHARE). */
  pairShare?: number;
  /** Shared by the lanes of one service (lanes.ts): the small interactions left, and what the run has walked. */
  shared?: { pairs: PairQueue; coverage: VariantCoverage };
}

export interface RecordedStep {
  n: number;
  label: string;
  exchanges: Step['exchanges'];
}

export interface Finding extends DivergenceDetail {
  /** The shrunk sequence as it ran the last time (its confirming re-run where that parted again): steps and both sides' exchanges. */
  steps: RecordedStep[];
  family: string;
  /** Replays the sequence exactly: fast-check's seed and shrink path of the failing sequence. */
  seed: number;
  path: string;
  /** Steps of the sequence that first parted, before shrinking. */
  firstSeenSteps: number;
  /** The shrunk sequence parted again on its re-run. */
  confirmed: boolean;
  /** How its re-run went: parted again, reached the step and did not part (intermittent), or could not reach it (and why). */
  rerun: RerunOutcome;
  /** The objects the sequence made, by name, with their ids on the target (a replay fills them in). */
  objects: { name: string; target: string }[];
  /** The exploration's tag: the emails, external ids and metadata the sequence sent carry it. */
  tag: string;
}

/** What one family of operations walked (the search's sequences only: shrinking and the re-run are counted apart). */
export interface FamilyOutcome {
  service: 'gate' | 'pools';
  /** Sequences that applied at least one step (a draw none of whose steps applied is no sequence). */
  sequences: number;
  steps: number;
  requests: number;
  /** Its small interactions (pairs.ts): how many it has, how many ran, how many ran with every step applied (views: of the view-around-change ones). */
  pairs: { total: number; tried: number; walked: number; views: number };
  /** Why the profile cannot act on the family at all: it never ran, and the report says so. */
  leftOut?: string;
}

export interface ExploreOutcome {
  seed: number;
  budget: number;
  spent: number;
  /** Sequences of the search that applied at least one step, and their steps. */
  sequences: number;
  steps: number;
  /** Every family of the run's services, by name: what it walked, or why the profile leaves it out. */
  families: Record<string, FamilyOutcome>;
  /** A divergence that stands: it parted again on its re-run, or its re-run could not reach its step. */
  finding?: Finding;
  /** A divergence whose re-run reached its step and did not part: its rule unverified, never passed, never hidden. */
  intermittent?: Finding;
  /** Requests spent when the first divergence showed (the rest went to shrinking and the confirming re-run). */
  foundAfter?: number;
  /** Distinct transitions the sequences walked (a step's label without object numbers, with the target's statuses). */
  transitions: number;
  /** The rules the search's comparisons judged, each holding (a divergence's own rule among them). */
  judged: RequirementId[];
  /** Why the exploration could not go on (the run's stop, no answer, rate-limited, a full hour window). */
  stopped?: Stopped;
  /** What the specs leave open and the target chose, by topic. */
  observations: { topic: string; value: string }[];
  /** A defect of the explorer itself (a command threw something other than a divergence or a stop). */
  crash?: string;
}

type Commands = Iterable<fc.AsyncCommand<ExploreModel, Real, boolean>>;

function arbitraryOf(f: Family): fc.Arbitrary<Commands> {
  const arbs = f.commands();
  const weighted = fc.oneof(...arbs.map((arbitrary, i) => ({ arbitrary, weight: f.weights[i] ?? 1 })));
  const opening = fc.oneof(...f.opening.map((i) => arbs[i]!)).filter((c) => c.opens());
  // 'medium': sequences of every length up to the family's most, evenly (steps that do not apply are skipped), after
  // the step that makes the family's first object.
  return fc.tuple(opening, fc.commands([weighted], { maxCommands: maxCommandsOf(f), size: 'medium' })).map(([first, rest]) => [first, ...rest]);
}

/** Sequences drawn for each one run: the run goes on with the one that walks most that is new (VariantCoverage). */
const CANDIDATES = 16;

/** The seed of sequence k: of CANDIDATES seeds derived from it, the one whose sequence walks most that is new. */
function seedOf(arbitrary: fc.Arbitrary<Commands>, base: number, coverage: VariantCoverage): number {
  let best: { seed: number; score?: ReturnType<VariantCoverage['score']> } = { seed: base };
  for (let j = 0; j < CANDIDATES; j++) {
    // Apart from the next sequences' bases (base + 1, base + 2, …), so no two sequences share a draw.
    const seed = (base + j * 1_000_003) | 0;
    const [cmds] = fc.sample(arbitrary, { seed, numRuns: 1, unbiased: true } as fc.Parameters<Commands>);
    // fc.commands hands its commands out wrapped (the wrapper keeps whether it ran, for the replay path).
    const score = coverage.score([...cmds!].map((c) => ((c as { cmd?: ExploreCommand }).cmd ?? (c as ExploreCommand)).variantKey()));
    if (!best.score || VariantCoverage.better(score, best.score)) best = { seed, score };
  }
  return best.seed;
}

/** The sequence that parted first, as shrinking left it: its model, its sides, its divergence. */
interface Failing {
  real: Real;
  model: ExploreModel;
  error: Divergence;
}

export async function explore(opts: ExploreOptions): Promise<ExploreOutcome> {
  const budget = new Budget(opts.budget);
  const families = FAMILIES.filter((f) => opts.can.services.includes(f.service));
  const acting = families.filter((f) => !leftOutWhy(f, opts.can));
  const out: ExploreOutcome = {
    seed: opts.seed,
    budget: opts.budget,
    spent: 0,
    sequences: 0,
    steps: 0,
    families: Object.fromEntries(families.map((f) => [f.name, familyOutcome(f, opts.can)])),
    observations: [],
    transitions: 0,
    judged: [],
  };
  if (!acting.length) return { ...out, stopped: undefined };
  const schedule = new FamilySchedule(acting, opts.seed);
  const coverage = opts.shared?.coverage ?? new VariantCoverage();
  const judged = new Set<RequirementId>();
  const state: { failing?: Failing; stopped?: Stopped; applied: number } = { applied: 0 };
  const sequence = (family: Family, arbitrary: fc.Arbitrary<Commands>) =>
    fc.asyncProperty(arbitrary, async (cmds) => {
      // Out of budget (the search's share, or shrinking's), stopped, or another lane parted first: the sequence is
      // skipped unsent, and shrinking ends with what it has.
      if (state.stopped || !budget.canStart() || (opts.halt?.found && !state.failing)) fc.pre(false);
      const real = new Real(opts.sides, budget, opts.context, opts.signal, opts.onExchange);
      const model: ExploreModel = newModel(opts.can);
      const searching = !budget.shrinking;
      try {
        await fc.asyncModelRun(() => ({ model, real }), cmds);
      } catch (e) {
        if (e instanceof Divergence) {
          if (!budget.shrinking) {
            // The other lanes start no new sequence from here (this one shrinks and re-runs it).
            if (opts.halt) opts.halt.found = true;
            out.foundAfter = budget.spent;
            budget.holdRerun(real.requests);
          }
          state.failing = { real, model, error: e };
          throw e;
        }
        const stop = stopOf(e, opts.signal);
        if (!stop) throw e;
        state.stopped = stop;
      } finally {
        opts.onSequence?.(
          family.name,
          real.steps.map((x) => x.label),
        );
        if (searching) recordSequence(out, family, real, schedule, coverage, judged);
        state.applied = real.steps.length;
      }
    });

  const halt = opts.halt ?? { found: false };
  const settle = (details: fc.RunDetails<[Commands]>, family: Family, seed: number, k: number, what: string) =>
    settleParted({ opts, budget, state, out }, details, family, seed, k, what);
  const going = () => budget.canStart() && !state.stopped && !halt.found && !opts.signal?.aborted;

  // The small interactions first, within their share of the search.
  const pairs = opts.shared?.pairs ?? new PairQueue(acting, opts.seed);
  const mine = new Map<string, { tried: number; walked: number; views: number }>();
  const pairLimit = Math.floor(budget.total * budget.searchShare * (opts.pairShare ?? PAIR_SHARE));
  for (let k = 0; going() && budget.spent < pairLimit; k++) {
    const next = pairs.next(coverage, acting);
    if (!next) break;
    state.applied = 0;
    const details = await fc.check(sequence(next.family, fc.constant(next.cmds as Commands)), { seed: next.seed, numRuns: 1, endOnFailure: false });
    pairs.ran(next.family, next.pair, state.applied);
    const m = mine.get(next.family.name) ?? { tried: 0, walked: 0, views: 0 };
    const whole = state.applied >= next.pair.ops.length + 1 ? 1 : 0;
    mine.set(next.family.name, { tried: m.tried + 1, walked: m.walked + whole, views: m.views + (next.pair.shape === 'view' ? whole : 0) });
    if (details.failed) {
      halt.found = true;
      await settle(details, next.family, next.seed, k, 'small interaction');
      break;
    }
  }
  // A lane of a shared queue counts what it walked itself (lanes.ts adds the lanes up).
  for (const [name, c] of pairs.counts)
    if (out.families[name]) out.families[name]!.pairs = opts.shared ? { ...c, tried: 0, walked: 0, views: 0, ...mine.get(name) } : { ...c };

  for (let k = 0; going() && !out.finding && !out.intermittent && !out.crash; k++) {
    const family = schedule.next();
    const seed = seedOf(arbitraryOf(family), (opts.seed + k) | 0, coverage);
    const details = await fc.check(sequence(family, arbitraryOf(family)), { seed, numRuns: 1, endOnFailure: false, unbiased: true });
    if (!details.failed) continue;
    halt.found = true;
    await settle(details, family, seed, k, 'sequence');
    break;
  }
  if (opts.signal?.aborted && !state.stopped) state.stopped = stopOf(undefined, opts.signal);
  out.spent = budget.spent;
  out.transitions = schedule.transitions;
  out.judged = [...judged].sort();
  if (state.stopped) out.stopped = state.stopped;
  return out;
}

/**
 * What a sequence that parted becomes: a finding (or an intermittent one), the run's end either way — its shrunk
 * sequence run once more on the requests held back for it.
 */
async function settleParted(
  run: { opts: ExploreOptions; budget: Budget; state: { failing?: Failing; stopped?: Stopped }; out: ExploreOutcome },
  details: fc.RunDetails<[Commands]>,
  family: Family,
  seed: number,
  k: number,
  what: string,
): Promise<void> {
  const { opts, budget, state, out } = run;
  if (!(details.errorInstance instanceof Divergence)) {
    out.crash = String((details.errorInstance as Error)?.stack ?? details.errorInstance ?? 'the explorer failed');
    return;
  }
  const cmds = details.counterexample![0] as Commands;
  const shrunk = state.failing!;
  opts.log?.(`explore: ${family.name} ${what} ${k + 1} parted (${shrunk.error.detail.what}); shrunk to ${shrunk.real.steps.length} steps; running it again`);
  // A stop while it shrank.
  const stoppedShrinking = state.stopped as Stopped | undefined;
  const again: Rerun = stoppedShrinking
    ? { outcome: 'not re-run', why: `the exploration stopped while it shrank: ${stoppedShrinking.why}` }
    : await rerun(opts, budget, cmds, shrunk.error.detail.step);
  if (again.stop) state.stopped = again.stop;
  const last = again.outcome === 'parted again' ? again.run! : shrunk;
  const finding: Finding = {
    ...last.error.detail,
    steps: last.real.steps.map((s) => ({ n: s.n, label: s.label, exchanges: s.exchanges })),
    family: family.name,
    seed,
    path: details.counterexamplePath ?? '',
    firstSeenSteps: details.counterexample ? [...(details.counterexample[0] as Commands)].length : shrunk.real.steps.length,
    confirmed: again.outcome === 'parted again',
    rerun: { outcome: again.outcome, ...(again.why ? { why: again.why } : {}) },
    objects: objectsOf(last.model),
    tag: opts.context.tag,
  };
  if (again.outcome === 'did not part') out.intermittent = finding;
  else out.finding = finding;
}

/** What the profile lets a family do: why it cannot act at all, or undefined. */
function leftOutWhy(f: Family, can: Capabilities): string | undefined {
  const service =
    f.service === 'gate'
      ? can.gate
        ? undefined
        : (can.why.gate ?? 'no Gate partner to act as')
      : can.pools
        ? undefined
        : (can.why.pools ?? 'no funded pools partner to act as');
  return service ?? f.when?.(can);
}

function familyOutcome(f: Family, can: Capabilities): FamilyOutcome {
  const leftOut = leftOutWhy(f, can);
  return { service: f.service, sequences: 0, steps: 0, requests: 0, pairs: { total: 0, tried: 0, walked: 0, views: 0 }, ...(leftOut ? { leftOut } : {}) };
}

/** A sequence of the search, counted: its family's share, the schedule's and the coverage's view, what it judged. */
function recordSequence(
  out: ExploreOutcome,
  family: Family,
  real: Real,
  schedule: FamilySchedule,
  coverage: VariantCoverage,
  judged: Set<RequirementId>,
): void {
  schedule.record(
    family,
    real.steps.map((x) =>
      transitionOf(
        x.label,
        x.exchanges.target.map((e) => e.status),
      ),
    ),
    real.requests,
  );
  coverage.record(real.steps.map((x) => x.variant));
  for (const o of real.observations) out.observations.push({ topic: o.topic, value: o.value });
  for (const id of real.judgedRules) judged.add(id);
  // A draw none of whose steps applied sent nothing and walked nothing: no sequence.
  if (!real.steps.length) return;
  const f = out.families[family.name]!;
  f.sequences++;
  f.steps += real.steps.length;
  f.requests += real.requests;
  out.sequences++;
  out.steps += real.steps.length;
}

/** Every object a sequence made, by name, with its target id. */
function objectsOf(m: ExploreModel): Finding['objects'] {
  // Every kind of twin the model keeps (each family keeps its own list).
  const twins = Object.values(m)
    .filter(Array.isArray)
    .flat()
    .filter((x): x is { name: string; id: Record<Side, string> } => !!x && typeof x === 'object' && 'name' in x && 'id' in x);
  return twins.map((x) => ({ name: x.name, target: x.id.target }));
}

/** A fresh tag per exploration: every object it makes carries it (a lived-in target keeps what earlier runs made). */
export const explorationTag = () => randomUUID().slice(0, 8);
