// The small interactions an exploration walks before its random search: for every family, each operation that
// changes an object followed by each documented view of it (its read, its list, the related reads a command shows
// after it), and each request repeated around another (A, then B, then A again on the same object: a replay around a
// cancel, a read around a write, a conflict between two replays). Most sequence defects are one of these — a cache, an
// index, a counter or a copy one path updated and another did not — and a random search meets a given one by chance.
// Each small sequence opens with the family's object, as every sequence does, and is drawn from the family's own
// commands (fast-check's arbitraries, sampled from the exploration's seed), so a seed replays it and a divergence
// shrinks and re-runs as a random one does. The order is by what is new: the next family in turn, and of its pairs the
// one whose operations and parameters the run has walked least (schedule.ts VariantCoverage).
import fc from 'fast-check';
import type { Family } from './commands/index.js';
import type { ExploreCommand } from './commands/command.js';
import type { VariantCoverage } from './schedule.js';

/** Of a lane's search budget, what its small interactions may take before the random search (the rest). */
export const PAIR_SHARE = 0.7;

/** One small interaction: the family's operations (by index in `commands`) after its opening, and its shape. */
export interface Pair {
  family: string;
  /**
   * 'view': a view, a change, the view again (the change read back where a read before it may have left a copy);
   * 'repeat': a request sent again (a replay, a conflict, a duplicate), a change, the request again (after the
   * request it repeats, where the opening does not make it: Family.origin).
   */
  shape: 'view' | 'repeat';
  ops: number[];
}

/** A family's changes: every operation that is not one of its views. */
export const changesOf = (f: Family): number[] => f.weights.map((_, i) => i).filter((i) => !f.views.includes(i));

/** Every small interaction of a family: each view around each change, each repeated request around each other change. */
export function pairsOf(f: Family): Pair[] {
  const out: Pair[] = [];
  for (const c of changesOf(f)) for (const v of f.views) out.push({ family: f.name, shape: 'view', ops: [v, c, v] });
  // The request a repeat sends again is made first where the opening does not make it (a pay-out before its replay).
  const origin = f.origin === undefined ? [] : [f.origin];
  for (const r of f.repeats ?? [])
    for (const c of changesOf(f)) if (c !== r && c !== f.origin) out.push({ family: f.name, shape: 'repeat', ops: [...origin, r, c, r] });
  return out;
}

export const pairLabel = (f: Family, p: Pair, cmds: readonly ExploreCommand[]): string =>
  `${p.shape} ${p.ops.map((i) => cmds[i]?.constructor.name ?? `#${i}`).join(' → ')}`;

/** A command of the family's operation `i`, its parameters drawn from `seed`. */
function draw(f: Family, i: number, seed: number): ExploreCommand {
  const arbs = f.commands();
  const [cmd] = fc.sample(arbs[i]!, { seed, numRuns: 1 });
  return cmd!;
}

/**
 * The family's opening drawn from `seed`: a command that makes its own object on an empty model (a transact whose
 * variant requests its quote, not one of a quote the sequence has not got). Drawn again from the next seeds until
 * one does, so no small sequence is spent applying nothing.
 */
function openingOf(f: Family, seed: number): ExploreCommand {
  for (let k = 0; k < 32; k++) {
    const s = (seed + 15_485_863 * k) | 0;
    const i = f.opening[Math.abs(s) % f.opening.length]!;
    const cmd = draw(f, i, s);
    if (cmd.opens()) return cmd;
  }
  return draw(f, f.opening[0]!, seed);
}

/** The sequence of a small interaction: the family's opening, then its operations (each drawn from the seed). */
export function commandsOf(f: Family, p: Pair, seed: number): ExploreCommand[] {
  const open = openingOf(f, seed);
  const at = (k: number) => (seed + 7919 * (k + 1)) | 0;
  const last = p.ops.length - 1;
  // The triple's last step is its first again: the same parameters (its seed), on the object the first acted on (a
  // replay of the same pay-out, the same list filter on the same session).
  const cmds = [open, ...p.ops.map((i, k) => draw(f, i, at(k === last ? last - 2 : k)))];
  cmds.at(-1)!.pinnedTo = cmds.at(-3);
  return cmds;
}

/**
 * The small interactions of a lane's families in the order they are walked: families in turn; of a family's pairs
 * not walked yet, the one whose drawn sequence walks most that is new.
 */
export class PairQueue {
  private readonly left = new Map<string, Pair[]>();
  private turn = 0;
  /** Per family: its pairs, and those walked (every step of the small sequence applied). */
  readonly counts = new Map<string, { total: number; walked: number; tried: number; views: number }>();

  constructor(
    private readonly families: readonly Family[],
    private readonly seed: number,
  ) {
    for (const f of families) {
      const ps = pairsOf(f);
      this.left.set(f.name, ps);
      this.counts.set(f.name, { total: ps.length, walked: 0, tried: 0, views: 0 });
    }
  }

  /** The next small interaction and its commands, or undefined when every family's are walked. */
  next(coverage: VariantCoverage, acting?: readonly Family[]): { family: Family; pair: Pair; seed: number; cmds: ExploreCommand[] } | undefined {
    for (let k = 0; k < this.families.length; k++) {
      const family = this.families[this.turn++ % this.families.length]!;
      const left = this.left.get(family.name)!;
      // Lanes share one queue per service: a lane takes only the families its partner can act on.
      if (!left.length || (acting && !acting.some((f) => f.name === family.name))) continue;
      let best = { i: 0, score: undefined as ReturnType<VariantCoverage['score']> | undefined, cmds: [] as ExploreCommand[], seed: 0 };
      left.forEach((pair, i) => {
        const seed = (this.seed + 104_729 * (this.counts.get(family.name)!.tried + 1) + 31 * i) | 0;
        const cmds = commandsOf(family, pair, seed);
        const score = coverage.score(cmds.map((c) => c.variantKey()));
        if (!best.score || score.unmade > best.score.unmade || (score.unmade === best.score.unmade && score.perStep > best.score.perStep))
          best = { i, score, cmds, seed };
      });
      const [pair] = left.splice(best.i, 1);
      this.counts.get(family.name)!.tried++;
      return { family, pair: pair!, seed: best.seed, cmds: best.cmds };
    }
    return undefined;
  }

  /** A small sequence ran: walked when every one of its steps applied. */
  ran(family: Family, pair: Pair, applied: number): void {
    if (applied < pair.ops.length + 1) return;
    const c = this.counts.get(family.name)!;
    c.walked++;
    if (pair.shape === 'view') c.views++;
  }
}
