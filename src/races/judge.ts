// The judge of a burst: it passes when some serial order of its requests (src/races/orders.ts) reproduces every
// answer the target gave and the state read after the burst, replayed on the oracle from the same starting state.
// Each candidate order is replayed on a fresh oracle world (the caller's `replay`); answers are compared by the
// caller's relations, so a target's own reading of an open point passes. The search is bounded: past the bound the
// burst ends unverified with the reason, never passed. When no order explains the answers, the closest order —
// the one that matched longest — and where it parts make the finding.
import { candidateOrders, type Order, type TimedRequest } from './orders.js';

/** What one replay of a candidate order gave: the oracle's answer per request of the order, and what it read after. */
export interface Replay<A, S> {
  answers: ReadonlyMap<number, A>;
  after: S;
}

/** Where a candidate order parts from what the target gave: a request's answer, or the state read after. */
export interface Parting {
  /** The request (its index in the burst) whose answer parts; undefined: the state read after the burst. */
  request?: number;
  what: string;
  target: unknown;
  oracle: unknown;
  /** The rule the parting step breaks, where the comparison names one. */
  requirement?: string;
}

export interface JudgeInput<A, S> {
  requests: readonly (TimedRequest & { answer?: A })[];
  /** What the target read after the burst. */
  after: S;
  /** Replays `order` on a fresh oracle world from the burst's starting state. */
  replay(order: Order): Promise<Replay<A, S>>;
  /** Whether the oracle's answer explains the target's for request i (undefined), or how they part. */
  compareAnswer(i: number, target: A, oracle: A): Omit<Parting, 'request'> | undefined;
  /** Whether the oracle's state after explains the target's (undefined), or how they part. */
  compareAfter(target: S, oracle: S): Omit<Parting, 'request'> | undefined;
  /** The most orders tried before the burst ends unverified. */
  maxOrders: number;
  /** Told of each order's replay before its answers are compared (a comparison that names ids as the order meets them starts afresh). */
  begin?(order: Order, replay: Replay<A, S>): void;
}

export type Judgement =
  | { verdict: 'explained'; order: Order; tried: number }
  | { verdict: 'unexplained'; tried: number; closest: { order: Order; matched: number; parting: Parting } }
  | { verdict: 'unverified'; tried: number; why: string };

/** How one order fares: the requests matched before it parts (the after-state counts as one more), and where it parts. */
function fare<A, S>(input: JudgeInput<A, S>, order: Order, r: Replay<A, S>): { matched: number; parting?: Parting } {
  let matched = 0;
  for (const i of order) {
    const target = input.requests[i]!;
    const oracle = r.answers.get(i);
    // A request whose answer says nothing of its effect ('maybe' with no answer, or a retry-class answer) is not compared.
    if (target.effect === 'applied' && target.answer !== undefined) {
      if (oracle === undefined) return { matched, parting: { request: i, what: 'the oracle gave no answer', target: target.answer, oracle: undefined } };
      const p = input.compareAnswer(i, target.answer, oracle);
      if (p) return { matched, parting: { request: i, ...p } };
    }
    matched++;
  }
  const p = input.compareAfter(input.after, r.after);
  return p ? { matched, parting: p } : { matched: matched + 1 };
}

export async function judgeBurst<A, S>(input: JudgeInput<A, S>): Promise<Judgement> {
  let tried = 0;
  let closest: { order: Order; matched: number; parting: Parting } | undefined;
  for (const order of candidateOrders(input.requests)) {
    if (tried >= input.maxOrders)
      return {
        verdict: 'unverified',
        tried,
        why: `no order among the first ${tried} explained the burst and more remain: the search stopped at its bound (${input.maxOrders} orders)`,
      };
    tried++;
    const replayed = await input.replay(order);
    input.begin?.(order, replayed);
    const f = fare(input, order, replayed);
    if (!f.parting) return { verdict: 'explained', order, tried };
    if (!closest || f.matched > closest.matched) closest = { order, matched: f.matched, parting: f.parting };
  }
  if (!closest) return { verdict: 'unverified', tried, why: 'the burst has no order to try (no request took effect)' };
  return { verdict: 'unexplained', tried, closest };
}
