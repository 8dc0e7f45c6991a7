// Firing a burst at the target: every request of it sent at once, in a shuffled order of sending (seeded: --seed
// replays it), each one's send and answer times kept on rampart's clock. Gate requests go inside the rate windows:
// the pacer grants the whole burst as one block first (reserve), so it never spaces them; pools requests are not
// paced (their rate limits are not shown). Connections come from the run's keep-alive pool, which the steps before
// the burst have opened. A request that got no answer (a timeout, a reset) is kept as one without an answer — it may
// have taken effect — never a crash. Nothing is retried: a retry would be another request of the burst.
import { TransportError, type Exchange } from '../client/types.js';
import type { BurstRequest } from './family.js';
import type { TimedRequest } from './orders.js';
import type { RaceSide } from './side.js';

/** One request of the burst as it went: its times (rampart's clock, ms since the epoch), its answer or why none came. */
export interface FiredRequest extends TimedRequest {
  label: string;
  /** Its place in the order of sending (0 first). */
  sentAs: number;
  exchange?: Exchange;
  /** Why no answer came (a timeout, a reset). */
  noAnswer?: string;
}

/** Now, to the sub-millisecond, on rampart's clock. */
const now = () => performance.timeOrigin + performance.now();

/** The order of sending: the indices shuffled by the round's generator (Fisher–Yates). */
export function sendingOrder(n: number, rnd: () => number): number[] {
  const order = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  return order;
}

/**
 * What an answer says of the request's effect (src/races/orders.ts): no answer, a 5xx, or a 409 to a request whose
 * Idempotency-Key and body another request of the burst also sent (a duplicate still in flight) — it may have taken
 * effect or not; a 429 — it did not; anything else — its answer is determined by the state it met.
 */
export function effectOf(fired: Pick<FiredRequest, 'exchange'>, i: number, burst: readonly BurstRequest[]): TimedRequest['effect'] {
  const s = fired.exchange?.status;
  if (s === undefined || s >= 500) return 'maybe';
  if (s === 429) return 'refused';
  const r = burst[i]!.request;
  const twin = (b: BurstRequest, j: number) =>
    j !== i && b.request.idempotencyKey === r.idempotencyKey && JSON.stringify(b.request.body) === JSON.stringify(r.body) && b.request.path === r.path;
  if (s === 409 && r.idempotencyKey !== undefined && burst.some(twin)) return 'maybe';
  return 'applied';
}

export interface FireOptions {
  rnd: () => number;
  signal?: AbortSignal;
}

/** Fire the burst at the target side: the Gate block reserved, then every request sent in the same tick. */
export async function fireBurst(side: RaceSide, burst: readonly BurstRequest[], opts: FireOptions): Promise<FiredRequest[]> {
  const order = sendingOrder(burst.length, opts.rnd);
  const gate = burst.filter((b) => b.service === 'gate' && b.request.pace !== false);
  const block = gate.length ? await side.client('gate').reserve(gate.map((b) => ({ method: b.request.method, path: b.request.path }))) : undefined;
  const fired: FiredRequest[] = burst.map((b) => ({ label: b.label, sentAs: order.indexOf(burst.indexOf(b)), sentAt: 0, effect: 'maybe' }));
  const one = async (i: number): Promise<void> => {
    const b = burst[i]!;
    const f = fired[i]!;
    f.sentAt = now();
    try {
      f.exchange = await side.client(b.service).request({ ...b.request, retry: false, ...(opts.signal ? { signal: opts.signal } : {}) });
      f.answeredAt = now();
    } catch (e) {
      if (!(e instanceof TransportError) || e.kind === 'rate-limited') throw e;
      f.noAnswer = e.message;
    }
  };
  const all = () => Promise.all(order.map((i) => one(i)));
  try {
    await (block ? block.within(all) : all());
  } finally {
    block?.release();
  }
  for (const [i, f] of fired.entries()) f.effect = effectOf(f, i, burst);
  return fired;
}
