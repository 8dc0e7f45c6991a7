// Pools: transacts of two firm quotes at once whose amounts together exceed the pre-funded balance, each alone within
// it (six tenths of the balance each, the balance read just before). In a serial order the first reserves and the
// second is refused 402; the balance after is drawn by one trade. A transact that checks the balance and posts its
// debit a round trip later lets both through: the balance overdrawn. The oracle starts from the balance the target
// showed; the draw is compared in trade amounts (a reservation's fee, where there is one, is the target's own).
import { TRANSACT_RELATIONS } from '../../model/schemas/pools/resources.js';
import { CheckUnverified } from '../../runner/expect.js';
import { defineFamily, familyFile, type AnswerRule, type BurstRequest, type RaceObjects, type RoundContext } from '../family.js';
import type { RaceSide } from '../side.js';
import { cents, chooseOutcome, fromCents, inTradeAmounts, mainPool, makeQuote, pollPath, readBalance, transactRequest } from './poolsSteps.js';

type Objects = RaceObjects & { pool: string; quotes: string[]; amount: string; before: string };

const RULE: AnswerRule = { outcome: { requirement: { '2xx': 'POOLS-TX-RESERVED', 402: 'POOLS-TX-INSUFFICIENT-402' } }, relations: TRANSACT_RELATIONS };

const burstOf = (o: Objects, round: RoundContext): BurstRequest[] =>
  o.quotes.map((q, i) => ({
    service: 'pools' as const,
    label: `POST /pools/{id}/transact (quote ${i + 1}, key ${i + 1})`,
    request: transactRequest(o.pool, q, round.keys[i]!),
  }));

async function quotesFor(side: RaceSide, amount: string): Promise<string[]> {
  const quotes: string[] = [];
  for (let i = 0; i < 2; i++) quotes.push(await makeQuote(side, amount));
  return quotes;
}

export default defineFamily<Objects>({
  id: 'transacts-over-balance',
  file: familyFile(import.meta.url),
  name: 'races, pools: two transacts at once that together exceed the pre-funded balance reserve one trade, the other refused 402',
  service: 'pools',
  requirements: ['POOLS-TX-INSUFFICIENT-402'],
  partner: { pools: 'poolsExclusive' },
  needs: ['poolsTradeOutcome'],
  cost: { pools: 10 },
  async setup(side) {
    const { balance } = await readBalance(side, 'the balance before the burst');
    const amount = fromCents((cents(balance) * 6n) / 10n);
    if (cents(amount) <= 0n) throw new CheckUnverified(`the partner's balance is ${balance}: nothing to overdraw`);
    const quotes = await quotesFor(side, amount);
    return { refs: Object.fromEntries(quotes.map((q, i) => [`quote#${i + 1}`, q])), pool: mainPool(side), quotes, amount, before: balance };
  },
  world: (o) => ({ poolsOpeningBalance: o.before }),
  burst: burstOf,
  rule: () => RULE,
  async after(side, o) {
    const { exchange, balance } = await readBalance(side, 'the balance after the burst');
    return [
      {
        label: 'what the balance was drawn by, in trade amounts',
        exchange,
        rule: { outcome: { requirement: {} } },
        value: inTradeAmounts(balance, o.before, o.amount),
        valueRule: 'POOLS-TX-INSUFFICIENT-402',
      },
    ];
  },
  // The reservations released (their next poll unwinds them): a sandbox's balance is not spent by the race.
  async cleanup(side, o) {
    for (const q of o.quotes) {
      await chooseOutcome(side, q, 'released');
      await side.send('poll the trade (released)', 'pools', { method: 'GET', path: pollPath(q) });
    }
  },
});
