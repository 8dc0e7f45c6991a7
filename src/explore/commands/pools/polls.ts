// The status poll of a pools trade (GET /pools/transactions/{quoteId}, which advances settlement), the target first:
// the target may take any documented path — a poll longer reserved, the outcome the sandbox chose, a return read
// settled first or at once, any end where none was chosen — and the model takes the target's; the oracle is then
// steered there with its own sandbox control and its polls, so the sequence goes on judged rather than parted.
import { TERMINAL_TRADE_STATUSES } from '../../../model/schemas/pools/resources.js';
import { holds, sameOutcome } from '../../divergence.js';
import type { ExploreModel, QuoteTwin, Side, TradeTwin } from '../../model.js';
import type { Real } from '../../real.js';
import { bodyOf } from '../command.js';

const terminal = (s: string) => (TERMINAL_TRADE_STATUSES as readonly string[]).includes(s);

/**
 * The states a poll may leave the trade in, from where it stands: a reserved trade may stay reserved a poll longer
 * (pools.poll.advance) or end — in the outcome the sandbox chose (a returned one reading settled first or returned at
 * once: pools.poll.returnedPath), or without a choice in any of the three (which is not shown); a settled one may turn
 * returned; every other terminal state stays.
 */
export function pollStates(t: Pick<TradeTwin, 'state' | 'chosen'>): readonly TradeTwin['state'][] {
  if (t.state === 'reserved') {
    if (!t.chosen) return ['reserved', 'settled', 'failed', 'released'];
    return t.chosen === 'returned' ? ['reserved', 'settled', 'returned'] : ['reserved', t.chosen];
  }
  return t.state === 'settled' ? ['settled', 'returned'] : [t.state];
}

const pollPath = (q: QuoteTwin, side: Side) => `/pools/transactions/${encodeURIComponent(q.id[side])}`;

/**
 * The status poll, the target first: it may take any documented path (pollStates), and the model takes the target's;
 * the oracle is then steered there — its own sandbox outcome where the target's poll chose one, and its polls (free)
 * until it reads the same — or, where the target did not move, left unpolled (a poll moves it). False when the trade
 * can no longer be judged (the sides parted on it).
 */
export async function pollOnce(m: ExploreModel, r: Real, t: TradeTwin, q: QuoteTwin): Promise<boolean> {
  const target = await r.one('target', () => r.pools('target').get(pollPath(q, 'target')));
  const to = bodyOf(target).status;
  if (target.status >= 300 || typeof to !== 'string') {
    const oracle = await r.one('oracle', () => r.pools('oracle').get(pollPath(q, 'oracle')));
    sameOutcome(r, { target, oracle }, { requirement: { '2xx': 'POOLS-POLL-STATUS' } });
    holds(r, oracle.status >= 300, 'POOLS-POLL-STATUS', () => ({ what: `${t.name} polled: its status`, target: to ?? null, oracle: bodyOf(oracle).status }));
    return false;
  }
  r.judged('POOLS-POLL-STATUS');
  const allowed = pollStates(t);
  holds(r, (allowed as readonly string[]).includes(to), terminal(t.state) ? 'POOLS-POLL-TERMINAL-FINAL' : 'POOLS-POLL-ADVANCES', () => ({
    what: `${t.name} (${t.state}${t.chosen ? `, the sandbox chose ${t.chosen}` : ''}) polled`,
    target: to,
    oracle: `one of ${allowed.join(', ')}`,
  }));
  const next = to as TradeTwin['state'];
  if (next === t.state) {
    if (next === 'reserved') r.observe('pools.poll.advance', `${t.name} stayed reserved on this poll`);
    return true;
  }
  if (t.state === 'reserved' && next === 'returned') r.observe('pools.poll.returnedPath', `${t.name} read returned on the poll that ended it`);
  if (!(await steerOracle(r, t, q, next))) return false;
  if (next === 'released') m.balance.since.add('unwind');
  if (next === 'failed') m.balance.since.add('failed');
  if (next === 'returned') m.balance.since.add('refund');
  t.state = next;
  t.movedBy = next === 'returned' ? 'POOLS-POLL-RETURNED' : 'POOLS-POLL-ADVANCES';
  return true;
}

/** Polls of the oracle (free) that may bring it to the target's state: a returned outcome may read settled first. */
const ORACLE_POLLS = 3;

/**
 * The oracle's trade brought to the state the target's poll reached: the outcome its own sandbox control sets where
 * the sandbox chose none (or none that leads there), then its polls. The trade parts where the oracle cannot follow.
 */
async function steerOracle(r: Real, t: TradeTwin, q: QuoteTwin, to: TradeTwin['state']): Promise<boolean> {
  const outcome = to === 'reserved' ? undefined : to;
  const leads = t.chosen === to || (t.chosen === 'returned' && to === 'settled');
  if (outcome && !leads) {
    const set = await r.trigger('oracle', 'pools', 'tradeOutcome', { quoteId: q.id.oracle, transactId: t.id.oracle, outcome });
    if (!set || set.status >= 300) {
      t.parted = `the target's poll reached ${to}, and the oracle's tradeOutcome control refused it (${set?.status ?? 'none'})`;
      return false;
    }
  }
  let seen: unknown;
  for (let i = 0; i < ORACLE_POLLS && seen !== to; i++) seen = bodyOf(await r.one('oracle', () => r.pools('oracle').get(pollPath(q, 'oracle')))).status;
  if (seen === to) return true;
  t.parted = `the target's poll reached ${to}; the oracle, steered there, read ${String(seen)}`;
  r.observe('explore-steer-trade', t.parted);
  return false;
}
