// Which family of operations the next sequence draws from. Each family once in turn, then by what its sequences
// lately found that no sequence had shown before (coverage-guided, as fuzzers give energy to inputs that reach new
// paths): a transition is a step as its label names it with the objects' numbers left out ("pay out signed-quote
// (off_ramp, active, expired)", "choose released (sandbox), then poll trade (reserved)"), with the target's statuses.
// Every other sequence goes to the family that has spent least of the budget so far; the ones between go to a family
// by its energy, so one whose steps keep reaching transitions not seen yet (for the requests they cost) gets more of
// the budget and one that has shown all its few (branding: five PATCHes) gets less, never none. Deterministic for a
// seed, so --seed replays a run.
import type { Family } from './commands/index.js';

/** A step's transition: its label with object numbers dropped, and the target's answer statuses. */
export function transitionOf(label: string, statuses: readonly number[]): string {
  return `${label.replace(/#\d+/g, '#')} → ${statuses.join(',')}`;
}

/** A small seeded generator (mulberry32): the schedule must not draw from Math.random, or --seed would not replay. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export class FamilySchedule {
  private readonly seen = new Set<string>();
  /** Requests each family's sequences have spent. */
  private readonly spent = new Map<string, number>();
  /** Per family: transitions new to the run per ten requests, in its last two sequences (the last counts double). */
  private readonly lately = new Map<string, [number, number]>();
  private turn = 0;
  private readonly random: () => number;

  constructor(
    private readonly families: readonly Family[],
    seed: number,
  ) {
    this.random = mulberry32(seed ^ 0x5eed);
  }

  next(): Family {
    const k = this.turn++;
    // Each family once in order; then every other turn goes to the family that has spent least so far, so each keeps
    // its share of the budget in requests (one whose sequences cost three times as much does not take three times
    // the share, and one short sequence left looking exhausted keeps its share); the turns between follow what was
    // found new.
    if (k < this.families.length) return this.families[k]!;
    if (k % 2 === 0) return this.families.reduce((a, f) => ((this.spent.get(f.name) ?? 0) < (this.spent.get(a.name) ?? 0) ? f : a));
    // Energy: one for every family (none starves), plus what it found new lately for what it spent.
    const energy = this.families.map((f) => {
      const [last, before] = this.lately.get(f.name) ?? [0, 0];
      return 1 + 2 * last + before;
    });
    let x = this.random() * energy.reduce((a, b) => a + b, 0);
    for (let i = 0; i < energy.length; i++) {
      x -= energy[i]!;
      if (x < 0) return this.families[i]!;
    }
    return this.families.at(-1)!;
  }

  /**
   * What a sequence of the family ran: its transitions, counted new once in the run, for the requests it cost (a
   * family whose long sequences show much that is new at a high price gets no more than one that shows it cheaply).
   */
  record(family: Family, transitions: readonly string[], requests = transitions.length): void {
    this.spent.set(family.name, (this.spent.get(family.name) ?? 0) + requests);
    // A sequence none of whose steps applied says nothing of what is left to find.
    if (!transitions.length) return;
    let fresh = 0;
    for (const t of transitions) {
      if (this.seen.has(t)) continue;
      this.seen.add(t);
      fresh++;
    }
    const [last] = this.lately.get(family.name) ?? [0, 0];
    this.lately.set(family.name, [(10 * fresh) / Math.max(1, requests), last]);
  }

  /** Distinct transitions the run has shown (reported: how much of the state space it walked). */
  get transitions(): number {
    return this.seen.size;
  }
}

/**
 * Which of a few drawn sequences the run goes on with, for each step it costs: first the one that asks for most the
 * run has never asked for — an operation, or one of its parameters' values (the outcome the sandbox is asked for, what
 * a change reads back): each-choice coverage, as combinatorial testing does it — then the one that walks most anew:
 * operations, parameters alone and together, and pairs of consecutive operations (a replay after an
 * expiry is not a replay after a lock), each counted once a sequence by 1/(1 + times the run already ran it). Blind
 * draws repeat what is cheap and likely (a lock, then a read); this spreads a small budget over the operations'
 * variants and orders, as a fuzzer favours inputs that reach new edges. Deterministic for a seed: the draws are
 * fast-check's own, from seeds derived from the sequence's.
 */
export class VariantCoverage {
  private readonly uses = new Map<string, number>();

  /** What a sequence ran: the variants of the steps that applied, in order. */
  record(variants: readonly string[]): void {
    for (const key of keysOf(variants).all) this.uses.set(key, (this.uses.get(key) ?? 0) + 1);
  }

  /**
   * How much a drawn sequence (its commands' variants, whether or not each will apply) would walk anew for each step it
   * costs: the choices the run has never made (compared first), then everything it walks anew. A long sequence is not
   * favoured for its length alone: it costs the budget as much as it walks.
   */
  score(variants: readonly string[]): { unmade: number; perStep: number } {
    // A sequence of its opening step alone walks nothing its family's other sequences do not: last.
    if (variants.length < 2) return { unmade: -1, perStep: -1 };
    const keys = keysOf(variants);
    let s = 0;
    for (const key of keys.all) s += 1 / (1 + (this.uses.get(key) ?? 0));
    const unmade = [...keys.choices].filter((k) => !this.uses.has(k)).length;
    return { unmade: unmade / (1 + variants.length), perStep: s / (1 + variants.length) };
  }

  /** Whether score a is better than score b. */
  static better(a: { unmade: number; perStep: number }, b: { unmade: number; perStep: number }): boolean {
    return a.unmade !== b.unmade ? a.unmade > b.unmade : a.perStep > b.perStep;
  }
}

/**
 * What a sequence walks, each counted once: every step's operation and each of its parameters' values (its choices;
 * those of the opening and of an operation's first draw after it alone count as choices made, what a step reads back
 * never), its whole variant, and each pair of consecutive operations.
 */
function keysOf(variants: readonly string[]): { all: Set<string>; choices: Set<string> } {
  const all = new Set<string>();
  const choices = new Set<string>();
  const ops = variants.map((v) => v.slice(0, v.indexOf('(') >>> 0));
  variants.forEach((v, i) => {
    const op = ops[i]!;
    const params = v.slice(op.length + 1, -1);
    const own = [op, ...(params ? params.split(', ').map((p) => `${op}(${p})`) : [])];
    // Choices count at the opening and at an operation's first draw after it: a later draw often does not apply
    // (its object has moved on, and the sequence may make no more), so it must not make a sequence look new; the
    // opening is drawn from the family's openings alone, so the same operation drawn after it is a choice of its own
    // (a transact of a quote the sequence holds, after the transact of a fresh one). What a step reads back (`then`)
    // is no choice: it moves nothing, and its many values (a read of each list) would outnumber the few that choose
    // where the object goes (the outcome asked of the sandbox).
    if (i === 0 || ops.indexOf(op, 1) === i) for (const c of own) if (!c.startsWith(`${op}(then=`)) choices.add(c);
    for (const c of own) all.add(c);
    all.add(v);
    if (i > 0) all.add(`${ops[i - 1]} → ${op}`);
  });
  return { all, choices };
}
