// Pools: polls of one returned trade at once. The sandbox chooses the trade's return, then three polls go at once:
// in a serial order the poll that finds it returned credits the refund (automatic, idempotent: once), the others
// read it. A poll that decides on what it read and posts the refund a round trip later credits it once per poll.
// Which poll settles the trade and which finds the return is the target's own (pools.poll.advance,
// pools.poll.returnedPath): each reading is an oracle world of its own. After the burst the trade is polled to
// returned, and the balance's move since the trade was reserved is compared in trade amounts (one refund: one).
import { same } from '../../model/relations.js';
import { defineFamily, familyFile, type AnswerRule, type BurstRequest, type RaceObjects } from '../family.js';
import { chooseOutcome, inTradeAmounts, mainPool, makeQuote, makeTrade, pollPath, quoteBody, readBalance } from './poolsSteps.js';

type Objects = RaceObjects & { quote: string; amount: string; reserved: string; opening: string };

const POLL: AnswerRule = {
  outcome: { requirement: { '2xx': 'POOLS-POLL-STATUS' } },
  relations: { requirement: 'POOLS-POLL-STATUS', fields: { status: same('POOLS-POLL-RETURNED') } },
};
/** Polls after the burst, at most, to reach returned (a target may discover it on a later poll). */
const MORE_POLLS = 4;

export default defineFamily<Objects>({
  id: 'polls-of-returned',
  file: familyFile(import.meta.url),
  name: 'races, pools: three polls at once of a trade whose payout came back credit its refund once',
  service: 'pools',
  requirements: ['POOLS-BAL-RETURNED-REFUND'],
  partner: { pools: 'poolsExclusive' },
  needs: ['poolsTradeOutcome'],
  cost: { pools: 12 },
  readings: ['pools.poll.advance', 'pools.poll.returnedPath'],
  async setup(side, round) {
    const { balance: opening } = await readBalance(side, 'the balance before the trade');
    const quote = await makeQuote(side);
    const transactId = await makeTrade(side, quote, round.keys.at(-1)!);
    const { balance: reserved } = await readBalance(side, 'the balance with the trade reserved');
    await chooseOutcome(side, quote, 'returned');
    return { refs: { quote, trade: transactId }, quote, amount: String(quoteBody(side).amount), reserved, opening };
  },
  world: (o) => ({ poolsOpeningBalance: o.opening }),
  burst(o): BurstRequest[] {
    return [1, 2, 3].map((n) => ({
      service: 'pools',
      label: `GET /pools/transactions/{quoteId} (poll ${n})`,
      request: { method: 'GET', path: pollPath(o.quote) },
    }));
  },
  rule: () => POLL,
  async after(side, o) {
    let last = await side.send('poll after the burst', 'pools', { method: 'GET', path: pollPath(o.quote) });
    for (let i = 1; i < MORE_POLLS && (last.json as Record<string, unknown> | undefined)?.status !== 'returned'; i++)
      last = await side.send('poll after the burst', 'pools', { method: 'GET', path: pollPath(o.quote) });
    const { exchange, balance } = await readBalance(side, 'the balance after the burst');
    return [
      { label: 'the trade polled after the burst', exchange: last, rule: POLL },
      {
        label: 'refunds credited since the trade was reserved, in trade amounts',
        exchange,
        rule: { outcome: { requirement: {} } },
        value: inTradeAmounts(o.reserved, balance, o.amount),
        valueRule: 'POOLS-BAL-RETURNED-REFUND',
      },
    ];
  },
});
