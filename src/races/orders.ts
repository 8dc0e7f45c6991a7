// The serial orders that could explain a burst of concurrent requests (linearizability, as Knossos and Porcupine
// check it): every order of the requests that keeps real time — one answered before another was sent stays before
// it — and, for a request whose answer does not say whether it took effect, both: applied somewhere after it was
// sent, or not at all. Pure code: the burst's times in, the candidate orders out, fewest liberties first.

/** One request of a burst as the judge sees it: when it left and came back (rampart's clock, ms), and what its answer allows. */
export interface TimedRequest {
  sentAt: number;
  /** When its answer came back; undefined: no answer (a timeout, a reset). */
  answeredAt?: number;
  /**
   * - 'applied': its answer is determined by the state it met (a success or a documented error): it is in every order;
   * - 'maybe': the spec tells the client to retry or to read state after it (5xx, a 409 for a duplicate still in
   *   flight), or it got no answer: it may have taken effect (its answer then unknown) or not;
   * - 'refused': a 429: it did not take effect.
   */
  effect: 'applied' | 'maybe' | 'refused';
}

/** One serial order: the requests that took effect, by index, in the order they took it. */
export type Order = readonly number[];

/**
 * Whether request a must come before request b: a was answered before b was sent. A request with no answer has no
 * end: nothing must follow it.
 */
export function mustPrecede(reqs: readonly TimedRequest[], a: number, b: number): boolean {
  const ra = reqs[a]!;
  return ra.answeredAt !== undefined && ra.answeredAt < reqs[b]!.sentAt;
}

/**
 * Every candidate order, lazily: the subsets of the 'maybe' requests taken as applied (all of them first, then fewer),
 * and for each, the orders of the applied requests that keep real time, those closest to the order of sending first.
 */
export function* candidateOrders(reqs: readonly TimedRequest[]): Generator<Order> {
  const optional = reqs.map((r, i) => (r.effect === 'maybe' ? i : -1)).filter((i) => i >= 0);
  const fixed = reqs.map((r, i) => (r.effect === 'applied' ? i : -1)).filter((i) => i >= 0);
  // Subsets of the optional requests, most applied first (a retried write usually did land).
  const subsets: number[][] = [];
  for (let mask = (1 << optional.length) - 1; mask >= 0; mask--) subsets.push(optional.filter((_, k) => mask & (1 << k)));
  subsets.sort((a, b) => b.length - a.length);
  for (const extra of subsets) {
    const chosen = [...fixed, ...extra].sort((a, b) => reqs[a]!.sentAt - reqs[b]!.sentAt || a - b);
    yield* ordersOf(reqs, chosen);
  }
}

/** The orders of `chosen` that keep real time, by depth-first search in sending order. */
function* ordersOf(reqs: readonly TimedRequest[], chosen: readonly number[]): Generator<Order> {
  const placed: number[] = [];
  const left = new Set(chosen);
  function* step(): Generator<Order> {
    if (!left.size) {
      yield [...placed];
      return;
    }
    for (const i of chosen) {
      if (!left.has(i)) continue;
      // i may go next only when nothing still left had to come before it.
      if ([...left].some((j) => j !== i && mustPrecede(reqs, j, i))) continue;
      left.delete(i);
      placed.push(i);
      yield* step();
      placed.pop();
      left.add(i);
    }
  }
  yield* step();
}

/** How many candidate orders a burst has (for the plan and the bound): counted, not built, up to `cap`. */
export function countOrders(reqs: readonly TimedRequest[], cap = Infinity): number {
  let n = 0;
  for (const _ of candidateOrders(reqs)) if (++n >= cap) break;
  return n;
}
