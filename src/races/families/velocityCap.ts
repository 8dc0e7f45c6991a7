// Pools: the rolling 24-hour notional velocity cap approached by two transacts at once (two quotes, each six tenths
// of the partner's declared cap): in a serial order the first is reserved and the second refused 429 — or, where the
// partner's last 24 hours already hold trades, both refused (a refused request took no effect: any such order is
// tried). A transact that checks the notional and makes the trade a round trip later lets both through, past the cap.
import { TRANSACT_RELATIONS } from '../../model/schemas/pools/resources.js';
import { defineFamily, familyFile, type AnswerRule, type BurstRequest, type RaceObjects, type RoundContext } from '../family.js';
import { sixTenths } from './railVolumeCap.js';
import { mainPool, makeQuote, tradesOfQuote, transactRequest } from './poolsSteps.js';

type Objects = RaceObjects & { pool: string; quotes: string[] };

const RULE: AnswerRule = { outcome: { requirement: { '2xx': 'POOLS-VEL-CAP-429', 429: 'POOLS-VEL-CAP-429' } }, relations: TRANSACT_RELATIONS };

const burstOf = (o: Objects, round: RoundContext): BurstRequest[] =>
  o.quotes.map((q, i) => ({
    service: 'pools' as const,
    label: `POST /pools/{id}/transact (quote ${i + 1}, key ${i + 1})`,
    // Deliberate: a 429 here may be the cap's answer, judged at once (never resent as a throttle).
    request: { ...transactRequest(o.pool, q, round.keys[i]!), pace: false },
  }));

export default defineFamily<Objects>({
  id: 'velocity-cap',
  file: familyFile(import.meta.url),
  name: "races, pools: two transacts at once that together pass the partner's velocity cap — at most one of them through",
  service: 'pools',
  requirements: ['POOLS-VEL-CAP-429'],
  partner: { pools: 'poolsVelocityCapped' },
  cost: { pools: 6 },
  async setup(side) {
    const cap = side.poolsPartner().velocityCap;
    if (!cap) throw new Error(`the ${side.name}'s partner declares no velocityCap`);
    const amount = sixTenths(cap);
    const quotes = [await makeQuote(side, amount), await makeQuote(side, amount)];
    return { refs: Object.fromEntries(quotes.map((q, i) => [`quote#${i + 1}`, q])), pool: mainPool(side), quotes };
  },
  burst: burstOf,
  rule: () => RULE,
  async after(side, o) {
    const reads = [];
    for (const [i, q] of o.quotes.entries()) {
      const { exchange, count } = await tradesOfQuote(side, q);
      reads.push({
        label: `quote ${i + 1}'s trades in the trades list`,
        exchange,
        rule: { outcome: { requirement: {} } },
        value: count,
        valueRule: 'POOLS-VEL-CAP-429' as const,
      });
    }
    return reads;
  },
});
