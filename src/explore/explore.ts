// rampart explore: random sequences of documented operations, each applied step by step to the target and to
// the oracle, compared on what the specs determine (fast-check model-based testing). Sequence k is generated from
// seed + k, each with one family of operations (sessions, customers, branding, webhook deliveries, rails, pools)
// that the schedule picks by what the family's sequences lately reached first (schedule.ts), until the search share of
// the request budget is spent. The first divergence is shrunk by fast-check to the shortest sequence that still
// parts, within the rest of the budget, then run once more to rule out flakiness: a finding.
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { FAMILIES, maxCommandsOf, type Family } from './commands/index.js';
import { Divergence, Unjudged, type DivergenceDetail } from './divergence.js';
import { newModel, type Capabilities, type ExploreModel } from './model.js';
import { FamilySchedule, VariantCoverage, transitionOf } from './schedule.js';
import { Budget, MAX_STEP_REQUESTS, Real, type ExploreContext, type SideClients, type Step } from './real.js';
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
}

export interface RecordedStep {
  n: number;
  label: string;
  exchanges: Step['exchanges'];
}

export interface Finding extends DivergenceDetail {
  /** The shrunk sequence as it ran the last time (the confirming re-run): steps and both sides' exchanges. */
  steps: RecordedStep[];
  family: string;
  /** Replays the sequence exactly: fast-check's seed and shrink path of the failing sequence. */
  seed: number;
  path: string;
  /** Steps of the sequence that first parted, before shrinking. */
  firstSeenSteps: number;
  /** The shrunk sequence parted again on its re-run (else it is reported as flaky, never as a finding). */
  confirmed: boolean;
  /** The objects the sequence made, by name, with their ids on the target (a replay fills them in). */
  objects: { name: string; target: string }[];
  /** The exploration's tag: the emails, external ids and metadata the sequence sent carry it. */
  tag: string;
}

export interface ExploreOutcome {
  seed: number;
  budget: number;
  spent: number;
  sequences: number;
  steps: number;
  families: Record<string, number>;
  finding?: Finding;
  /** A divergence the re-run did not reproduce: reported, not failed. */
  flaky?: Finding;
  /** Requests spent when the first divergence showed (the rest went to shrinking and the confirming re-run). */
  foundAfter?: number;
  /** Distinct transitions the sequences walked (a step's label without object numbers, with the target's statuses). */
  transitions: number;
  /** Why the exploration stopped without judging (the target throttled, an answer never came). */
  unjudged?: string;
  /** What the specs leave open and the target chose, by topic. */
  observations: { topic: string; value: string }[];
  /** A defect of the explorer itself (a command threw something other than a divergence). */
  crash?: string;
}

const familiesFor = (can: Capabilities) => FAMILIES.filter((f) => (f.service === 'gate' ? can.gate : can.pools) && (f.when?.(can) ?? true));

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

export async function explore(opts: ExploreOptions): Promise<ExploreOutcome> {
  // Kept back at every point: a step's most requests and a shrunk sequence's confirming re-run (about 12 requests).
  const budget = new Budget(opts.budget, MAX_STEP_REQUESTS + 2 * 12);
  const families = familiesFor(opts.can);
  const out: ExploreOutcome = { seed: opts.seed, budget: opts.budget, spent: 0, sequences: 0, steps: 0, families: {}, observations: [], transitions: 0 };
  const schedule = new FamilySchedule(families, opts.seed);
  const coverage = new VariantCoverage();
  if (!families.length)
    return { ...out, unjudged: 'the profile gives exploration no partner to act as (a Gate partner, or a funded pools partner with a quote)' };
  let failing: { real: Real; model: ExploreModel; error: Divergence } | undefined;
  let unjudged: string | undefined;
  const sequence = (family: Family) =>
    fc.asyncProperty(arbitraryOf(family), async (cmds) => {
      // Out of budget (the search's share, or shrinking's): the sequence is skipped unsent, and shrinking ends with what it has.
      if (unjudged || !budget.canStart()) fc.pre(false);
      const real = new Real(opts.sides, budget, opts.context, opts.signal, opts.onExchange);
      const model: ExploreModel = newModel(opts.can);
      out.sequences++;
      try {
        await fc.asyncModelRun(() => ({ model, real }), cmds);
      } catch (e) {
        if (e instanceof Unjudged) {
          unjudged = e.why;
          return;
        }
        if (e instanceof Divergence) {
          if (!budget.shrinking) out.foundAfter = budget.spent;
          budget.shrinking = true;
          failing = { real, model, error: e };
        }
        throw e;
      } finally {
        opts.onSequence?.(
          family.name,
          real.steps.map((x) => x.label),
        );
        schedule.record(
          family,
          real.steps.map((x) =>
            transitionOf(
              x.label,
              x.exchanges.target.map((e) => e.status),
            ),
          ),
          real.steps.reduce((n, x) => n + x.exchanges.target.length, 0),
        );
        coverage.record(real.steps.map((x) => x.variant));
        out.steps += real.steps.length;
        for (const o of real.observations) out.observations.push({ topic: o.topic, value: o.value });
      }
    });

  for (let k = 0; budget.canStart() && !unjudged; k++) {
    opts.signal?.throwIfAborted();
    const family = schedule.next();
    out.families[family.name] = (out.families[family.name] ?? 0) + 1;
    const seed = seedOf(arbitraryOf(family), (opts.seed + k) | 0, coverage);
    const details = await fc.check(sequence(family), { seed, numRuns: 1, endOnFailure: false, unbiased: true });
    if (!details.failed) continue;
    if (!(details.errorInstance instanceof Divergence)) {
      out.crash = String((details.errorInstance as Error)?.stack ?? details.errorInstance ?? 'the explorer failed');
      break;
    }
    const shrunk = failing!;
    const firstSeen = details.counterexample ? [...(details.counterexample[0] as Commands)].length : shrunk.real.steps.length;
    opts.log?.(`explore: ${family.name} sequence ${k + 1} parted (${shrunk.error.detail.what}); shrunk to ${shrunk.real.steps.length} steps; running it again`);
    const again = await rerun(opts, budget, details.counterexample![0] as Commands);
    const finding: Finding = {
      ...(again ?? shrunk).error.detail,
      steps: (again ?? shrunk).real.steps.map((s) => ({ n: s.n, label: s.label, exchanges: s.exchanges })),
      family: family.name,
      seed,
      path: details.counterexamplePath ?? '',
      firstSeenSteps: firstSeen,
      confirmed: !!again,
      objects: objectsOf((again ?? shrunk).model),
      tag: opts.context.tag,
    };
    if (again) out.finding = finding;
    else out.flaky = finding;
    break;
  }
  out.spent = budget.spent;
  out.transitions = schedule.transitions;
  if (unjudged) out.unjudged = unjudged;
  return out;
}

/** The shrunk sequence once more on fresh objects: its divergence again, or undefined (flaky). */
async function rerun(opts: ExploreOptions, budget: Budget, cmds: Commands): Promise<{ real: Real; model: ExploreModel; error: Divergence } | undefined> {
  // The re-run may use the reserve kept for it.
  const confirm = new Budget(budget.total - budget.spent, 0, 1);
  const real = new Real(opts.sides, confirm, opts.context, opts.signal, opts.onExchange);
  const model = newModel(opts.can);
  try {
    await fc.asyncModelRun(() => ({ model, real }), [...cmds]);
  } catch (e) {
    if (e instanceof Divergence) return { real, model, error: e };
    if (!(e instanceof Unjudged)) throw e;
  } finally {
    budget.charge(confirm.spent);
  }
  return undefined;
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
