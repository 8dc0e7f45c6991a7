// The confirming re-run of a shrunk divergence: the same steps once more on fresh objects, on the requests held
// back for it before shrinking began. Three ends, each its own verdict: it parts again (a finding); it reaches the
// step and does not part (intermittent: the rule unverified, the run INCOMPLETE, never a pass); or it cannot reach
// the step — the budget, a stop (a 429, no answer), an object of its own taking another path — and the divergence in
// hand stands (failed, "not re-run").
import fc from 'fast-check';
import { Divergence } from './divergence.js';
import type { Exchange } from '../client/types.js';
import { newModel, type Capabilities, type ExploreModel, type Side } from './model.js';
import { Real, type Budget, type ExploreContext, type SideClients } from './real.js';
import { stopOf, type Stopped } from './stop.js';

export interface RerunOutcome {
  outcome: 'parted again' | 'did not part' | 'not re-run';
  /** Why the re-run could not reach the step (outcome "not re-run"). */
  why?: string;
}

export interface Rerun extends RerunOutcome {
  /** The re-run itself, where it parted again. */
  run?: { real: Real; model: ExploreModel; error: Divergence };
  /** The stop the re-run met (the exploration stops on it too). */
  stop?: Stopped;
}

/** What a re-run acts with: the exploration's sides, context and capabilities. */
export interface RerunWith {
  sides: Record<Side, SideClients>;
  can: Capabilities;
  context: ExploreContext;
  signal?: AbortSignal;
  onExchange?: (side: Side, ex: Exchange) => void;
}

type Commands = Iterable<fc.AsyncCommand<ExploreModel, Real, boolean>>;

/** How a re-run that did not part again ended: reached the divergence's step, or not (and why). */
export function unpartedRerun(reached: number, step: number, outOfBudget: boolean, budget: number): RerunOutcome {
  if (reached >= step) return { outcome: 'did not part' };
  return {
    outcome: 'not re-run',
    why: outOfBudget
      ? `budget: the re-run had ${budget} requests and stopped at step ${reached} of ${step}`
      : `the re-run ended at step ${reached} of ${step}: an object it made went another way before the step`,
  };
}

/** The shrunk sequence once more on fresh objects, charged to the exploration's budget. */
export async function rerun(opts: RerunWith, budget: Budget, cmds: Commands, step: number): Promise<Rerun> {
  const confirm = budget.rerunBudget();
  const real = new Real(opts.sides, confirm, opts.context, opts.signal, opts.onExchange);
  const model = newModel(opts.can);
  try {
    await fc.asyncModelRun(() => ({ model, real }), [...cmds]);
  } catch (e) {
    if (e instanceof Divergence) return { outcome: 'parted again', run: { real, model, error: e } };
    const stop = stopOf(e, opts.signal);
    if (!stop) throw e;
    // A 429 or no answer is no "did not part": the step was never judged.
    return { outcome: 'not re-run', why: `the re-run stopped at step ${real.steps.length} of ${step}: ${stop.why}`, stop };
  } finally {
    budget.charge(confirm.spent);
  }
  return unpartedRerun(real.steps.length, step, model.spent, confirm.total);
}
