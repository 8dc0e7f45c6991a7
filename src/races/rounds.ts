// How many bursts each race family fires in a run: the depth's default, or what --budget (requests to the target)
// pays for, each round costing what its family says. Shared by the kind and its plan.
import { costOf } from './family.js';
import type { AnyRaceFamily } from './families/index.js';

/** Bursts per family by default: each its own setup, its own shuffled order of sending. */
export const DEFAULT_ROUNDS = { quick: 2, full: 4 } as const;
/** Bursts per family in certify: races within a small budget of their own beside the other kinds. */
export const CERTIFY_ROUNDS = { quick: 1, full: 2 } as const;

/** Rounds per family: --budget spread over the families (each round costs what the family says), else the depth's. */
export function roundsOf(budget: number | undefined, families: readonly AnyRaceFamily[], depth: 'quick' | 'full', certify = false): number {
  if (budget === undefined) return (certify ? CERTIFY_ROUNDS : DEFAULT_ROUNDS)[depth];
  const perRound = families.reduce((a, f) => a + costOf(f.cost), 0);
  return Math.max(1, Math.floor(budget / Math.max(1, perRound)));
}
