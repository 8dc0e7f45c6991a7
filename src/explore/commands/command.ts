// One documented operation in fast-check's model-based shape (fc.commands): it knows from the model when it
// applies (`check`, never changing the model), runs on the target and on the oracle (`run`), compares what the
// specs determine, and moves the model. Each family of operations is one small file beside this one.
import fc from 'fast-check';
import { pick, type ExploreModel } from '../model.js';
import { MAX_STEP_REQUESTS, type Real } from '../real.js';

/** Fields that pick an object of the model (which one is not a variant of the operation), and the last label. */
const OBJECT_PICKS = new Set(['index', 'other', 'shown', 'picked']);

export abstract class ExploreCommand implements fc.AsyncCommand<ExploreModel, Real, false> {
  /** The step as it last ran (the twin it picked resolved), for the counterexample. */
  protected shown = '';
  /**
   * Another step of the sequence whose object this one acts on too, when that object is still there: a small
   * interaction's repeat (A, then B, then A again on the same object) must not drift to an object B made.
   */
  pinnedTo?: ExploreCommand;
  /** The name of the object this step last picked (what a step pinned to it acts on). */
  picked?: string;
  /** The step's name in the report, with the twin it picked. */
  abstract label(m: ExploreModel): string;
  /** When the step applies (besides the budget). */
  abstract applies(m: Readonly<ExploreModel>): boolean;
  /** Send on both sides, compare, move the model. */
  abstract act(m: ExploreModel, r: Real): Promise<void>;

  /** Whether the step can open a sequence (it makes its own object on an empty model); see Family.opening. */
  opens(): boolean {
    return true;
  }

  /**
   * The step's variant: its operation and parameters (the outcome it chooses, what it reads back, the field it
   * patches), without the object it picks. The run's coverage counts variants, so the next sequence can favour the
   * ones not walked yet (schedule.ts VariantCoverage).
   */
  variantKey(): string {
    const params = Object.entries(this)
      .filter(([k, v]) => !OBJECT_PICKS.has(k) && (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean'))
      .map(([k, v]) => `${k}=${v}`);
    return `${this.constructor.name}(${params.join(', ')})`;
  }

  /** The object this step acts on: the pinned step's, while it is among `xs`; else the index-th most recent. */
  protected choose<T extends { name: string }>(xs: readonly T[], index: number): T | undefined {
    const pin = this.pinnedTo?.picked;
    const chosen = (pin ? xs.find((x) => x.name === pin) : undefined) ?? pick(xs, index);
    if (chosen) this.picked = chosen.name;
    return chosen;
  }

  check(m: Readonly<ExploreModel>): boolean {
    return !m.spent && this.applies(m);
  }

  async run(m: ExploreModel, r: Real): Promise<void> {
    this.shown = this.label(m);
    r.begin(this.shown, this.variantKey());
    m.serial++;
    await this.act(m, r);
    // The next step must fit: when it cannot, every command stands down and the sequence ends as it is.
    m.spent = !r.budget.affords(MAX_STEP_REQUESTS);
  }

  toString(): string {
    return this.shown || this.constructor.name;
  }
}

/** A json body as a plain record (or an empty one). */
export const bodyOf = (ex: { json?: unknown }): Record<string, unknown> =>
  ex.json && typeof ex.json === 'object' && !Array.isArray(ex.json) ? (ex.json as Record<string, unknown>) : {};

/** Which object a step acts on: mostly the last one made, often the one before, now and then any (see `pick`). */
export const objectIndex = (): fc.Arbitrary<number> =>
  fc.oneof({ weight: 6, arbitrary: fc.constant(0) }, { weight: 3, arbitrary: fc.constant(1) }, { weight: 1, arbitrary: fc.nat(5) });

/**
 * Objects of one kind a sequence makes at most: it dwells on few, so its few steps reach their deeper states (several
 * transitions of one object, each read back) rather than spreading over many new ones.
 */
export const FEW = 3;
