// Which family of operations the next sequence draws from. Each family once in turn, then by what its sequences
// lately found that no sequence had shown before (coverage-guided, as fuzzers give energy to inputs that reach new
// paths): a transition is a step as its label names it with the objects' numbers left out ("pay out signed-quote
// (off_ramp, active, expired)", "choose released (sandbox), then poll trade (reserved)"), with the target's statuses.
// Every other sequence goes round the families in turn; the ones between go to a family by its energy, so one whose
// steps keep reaching transitions not seen yet gets more of the budget and one that has shown all its few (branding:
// five PATCHes) gets less, never none. Deterministic for a seed, so --seed replays a run.
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
  /** Per family: transitions new to the run in its last two sequences (the last counts double). */
  private readonly lately = new Map<string, [number, number]>();
  private turn = 0;
  private round = 0;
  private readonly random: () => number;

  constructor(
    private readonly families: readonly Family[],
    seed: number,
  ) {
    this.random = mulberry32(seed ^ 0x5eed);
  }

  next(): Family {
    const k = this.turn++;
    // Every other turn goes round the families in order, so a family one short sequence left looking exhausted
    // keeps its share; the turns between follow what was found new.
    if (k < this.families.length || k % 2 === 0) return this.families[this.round++ % this.families.length]!;
    // Energy: one for every family (none starves), plus what it found new lately.
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

  /** What a sequence of the family ran: its transitions, counted new once in the run. */
  record(family: Family, transitions: readonly string[]): void {
    // A sequence none of whose steps applied says nothing of what is left to find.
    if (!transitions.length) return;
    let fresh = 0;
    for (const t of transitions) {
      if (this.seen.has(t)) continue;
      this.seen.add(t);
      fresh++;
    }
    const [last] = this.lately.get(family.name) ?? [0, 0];
    this.lately.set(family.name, [fresh, last]);
  }

  /** Distinct transitions the run has shown (reported: how much of the state space it walked). */
  get transitions(): number {
    return this.seen.size;
  }
}
