// The pools balance explored: read on both sides, it moves the same way on each for what the sequence did since the
// last read (down for a reserve, up for a release or a refund, not at all for a reject, a replay or a transact of a
// consumed quote under another key). Exact amounts are not stated (a draw may carry a fee): only the direction is
// compared, and after a failed trade (whether it unwinds is not shown) not even that.
import fc from 'fast-check';
import type { RequirementId } from '../../../model/catalogue/index.js';
import { compareDecimals } from '../../../model/relations.js';
import { holds, sameOutcome } from '../../divergence.js';
import type { BalanceMove, ExploreModel } from '../../model.js';
import type { Real } from '../../real.js';
import { ExploreCommand, bodyOf } from '../command.js';

/** The rule a balance that moved otherwise than the oracle's breaks: the most telling thing the sequence did since. */
const RULES: [BalanceMove, RequirementId][] = [
  ['refund', 'POOLS-BAL-RETURNED-REFUND'],
  ['unwind', 'POOLS-BAL-RELEASED-UNWOUND'],
  ['other-key', 'POOLS-TX-OTHER-KEY-SAME-QUOTE'],
  ['replay', 'POOLS-TX-REPLAY-SAME-TRADE'],
  ['reserve', 'POOLS-BAL-RESERVE-DEBIT'],
  ['reject', 'POOLS-BAL-REJECT-NO-MONEY'],
];

const word = (d: number) => (d < 0 ? 'down' : d > 0 ? 'up' : 'unchanged');

export async function readBalance(m: ExploreModel, r: Real): Promise<void> {
  const ex = await r.both((side) => r.pools(side).get(`/pools/${encodeURIComponent(r.context.pools!.pool)}/balance`));
  sameOutcome(r, ex, { requirement: { '2xx': 'POOLS-BAL-SHAPE' } });
  if (ex.oracle.status >= 300) return;
  const now = { target: bodyOf(ex.target).balance, oracle: bodyOf(ex.oracle).balance };
  const before = m.balance.seen;
  const since = m.balance.since;
  const judged = !since.has('failed');
  if (!judged) r.observe('POOLS-BAL-FAILED', 'a trade failed since the last read: whether a failure unwinds its reservation is not shown');
  if (judged && typeof before.target === 'string' && typeof before.oracle === 'string' && typeof now.target === 'string' && typeof now.oracle === 'string') {
    const dir = { target: compareDecimals(now.target, before.target), oracle: compareDecimals(now.oracle, before.oracle) };
    // Nothing the sequence did since moves money: no rule of the catalogue names a move from nowhere (a gap, reported so).
    holds(r, dir.target === dir.oracle, RULES.find(([k]) => since.has(k))?.[1], () => ({
      what: `the balance since the last read (after ${[...since].join(', ') || 'nothing that moves money'})`,
      target: `${word(dir.target)} (${before.target} → ${now.target})`,
      oracle: `${word(dir.oracle)} (${before.oracle} → ${now.oracle})`,
    }));
  }
  // The balance is older than the sequence (every earlier sequence moved it): the sequence judges it from the first read
  // that follows a move of its own, so what it judges follows from its own steps (a shrunk one replays alone).
  const ours = since.has('reserve') || since.has('unwind') || since.has('refund') || typeof before.target === 'string';
  if (ours) m.balance.seen = { target: typeof now.target === 'string' ? now.target : null, oracle: typeof now.oracle === 'string' ? now.oracle : null };
  m.balance.since = new Set();
}

export class ReadBalance extends ExploreCommand {
  label(): string {
    return 'read the balance';
  }
  applies(m: Readonly<ExploreModel>): boolean {
    return m.can.pools && m.can.poolsBalance;
  }
  act(m: ExploreModel, r: Real): Promise<void> {
    return readBalance(m, r);
  }
}

export function balanceCommands(): fc.Arbitrary<ExploreCommand>[] {
  return [fc.constant(null).map(() => new ReadBalance())];
}
