// One burst judged against the oracle: the candidate serial orders (orders.ts) each replayed on a fresh oracle world
// from the same starting state — the family's setup, the order's requests one after another, the reads after — and
// compared with what the target answered (compare.ts). Where the specs leave an answer open at the points the family
// names (its readings), each documented reading is a world of its own: the burst passes when one order in one reading
// explains it. The closest order keeps its oracle answers, for the finding to show beside the target's.
import type { Exchange } from '../client/types.js';
import { openPoint } from '../model/openPoints/index.js';
import { answerParting, Names } from './compare.js';
import type { AfterRead, RaceFamily, RaceObjects, RoundContext } from './family.js';
import type { FiredRequest } from './fire.js';
import { judgeBurst, type Parting, type Replay } from './judge.js';
import type { Order } from './orders.js';
import { oracleSide, type RacePartners } from './side.js';
import type { RaceWorlds } from './worlds.js';

/** What one side read after the burst, with the objects its setup made. */
export interface AfterState {
  objects: RaceObjects;
  reads: AfterRead[];
}

/** How the closest order went on the oracle: its answers and reads, beside the target's in the finding. */
export interface OracleRun {
  order: Order;
  reading: Record<string, string>;
  answers: ReadonlyMap<number, Exchange>;
  after: AfterState;
}

export type RoundJudgement =
  | { verdict: 'explained'; order: Order; reading: Record<string, string>; tried: number }
  | { verdict: 'unexplained'; tried: number; matched: number; parting: Parting; closest: OracleRun }
  | { verdict: 'unverified'; tried: number; why: string };

/** The most orders one reading tries before the burst ends unverified (a burst of 5 has 120 orders that keep real time). */
export const MAX_ORDERS = 240;
/** The most readings a family's open points may combine into. */
const MAX_READINGS = 8;

/** Every combination of the documented choices of the family's open points (the reference's own first). */
export function readingsOf(ids: readonly string[] = []): Record<string, string>[] {
  let out: Record<string, string>[] = [{}];
  for (const id of ids) {
    const p = openPoint(id);
    if (!p) throw new Error(`a race family names no open point ${id}`);
    out = out.flatMap((r) => p.choices.map((c) => ({ ...r, [id]: c })));
  }
  if (out.length > MAX_READINGS) throw new Error(`a race family's open points combine into ${out.length} readings (at most ${MAX_READINGS})`);
  return out;
}

export interface JudgeRoundInput {
  family: RaceFamily;
  round: RoundContext;
  partners: RacePartners;
  worlds: RaceWorlds;
  target: { objects: RaceObjects; fired: FiredRequest[]; after: AfterRead[] };
  signal?: AbortSignal;
}

/** Replay `order` on a fresh oracle world taking `reading`: the setup, the order's requests in turn, the reads after. */
async function replayOn(input: JudgeRoundInput, order: Order, reading: Record<string, string>): Promise<Replay<Exchange, AfterState>> {
  const { family, round } = input;
  const world = await input.worlds.fresh({ ...family.world?.(input.target.objects), readings: reading });
  try {
    const side = oracleSide(world.profile, input.partners, input.signal);
    const objects = await family.setup(side, round);
    const burst = family.burst(objects, round);
    const answers = new Map<number, Exchange>();
    for (const i of order) {
      const b = burst[i]!;
      answers.set(i, await side.client(b.service).request({ ...b.request, retry: false }));
    }
    return { answers, after: { objects, reads: await family.after(side, objects, round) } };
  } finally {
    await world.close();
  }
}

function afterParting(t: AfterState, o: AfterState, names: Names): Omit<Parting, 'request'> | undefined {
  if (t.reads.length !== o.reads.length) return { what: 'the reads after the burst', target: t.reads.map((r) => r.label), oracle: o.reads.map((r) => r.label) };
  for (const [k, read] of t.reads.entries()) {
    const o2 = o.reads[k]!;
    const p = answerParting(read.exchange, o2.exchange, read.value !== undefined ? { outcome: read.rule.outcome } : read.rule, names);
    if (p) return { ...p, what: `${read.label}: ${p.what}` };
    if (read.value !== undefined && JSON.stringify(read.value) !== JSON.stringify(o2.value))
      return { what: read.label, target: read.value, oracle: o2.value, ...(read.valueRule ? { requirement: read.valueRule } : {}) };
  }
  return undefined;
}

export async function judgeRound(input: JudgeRoundInput): Promise<RoundJudgement> {
  const { family, target } = input;
  let tried = 0;
  let best: Extract<RoundJudgement, { verdict: 'unexplained' }> | undefined;
  let unverified: string | undefined;
  const targetAfter: AfterState = { objects: target.objects, reads: target.after };
  for (const reading of readingsOf(family.readings)) {
    const replays = new Map<string, Replay<Exchange, AfterState>>();
    let names = new Names({ target: {}, oracle: {} });
    const j = await judgeBurst<Exchange, AfterState>({
      requests: target.fired.map((f) => ({ ...f, ...(f.exchange ? { answer: f.exchange } : {}) })),
      after: targetAfter,
      replay: async (order) => {
        const r = await replayOn(input, order, reading);
        replays.set(order.join(','), r);
        return r;
      },
      begin: (_order, r) => (names = new Names({ target: target.objects.refs, oracle: r.after.objects.refs })),
      compareAnswer: (i, t, o) => answerParting(t, o, family.rule(i), names),
      compareAfter: (t, o) => afterParting(t, o, names),
      maxOrders: MAX_ORDERS,
    });
    tried += j.tried;
    if (j.verdict === 'explained') return { verdict: 'explained', order: j.order, reading, tried };
    if (j.verdict === 'unverified') unverified ??= j.why;
    else if (!best || j.closest.matched > best.matched) {
      const r = replays.get(j.closest.order.join(','))!;
      best = {
        verdict: 'unexplained',
        tried,
        matched: j.closest.matched,
        parting: j.closest.parting,
        closest: { order: j.closest.order, reading, answers: r.answers, after: r.after },
      };
    }
  }
  // A search that ran past its bound in some reading never passes, and never fails on the readings it did finish.
  if (unverified) return { verdict: 'unverified', tried, why: unverified };
  return { ...best!, tried };
}
