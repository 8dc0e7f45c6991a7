// Pools race faults (issue 44): each a check-then-act gap that opens only with the fault on — the state is checked,
// then an await of a few milliseconds (the round trip to a store), then the act on what the check saw. A request sent
// alone, or after the one before it was answered, meets a closed gap (the answer comes after the act); requests that
// arrive together do. Only `rampart races` finds them (suite 'races'). The handlers call these in a line or two each.
import type { ActiveFaults, FaultDef } from '../kit/faults.js';
import { RACE_GAP_MS } from '../gate/raceFaults.js';
import { parse } from './money.js';
import type { Caller, PoolsWorld, TradeRecord } from './world.js';

export const POOLS_RACE = {
  balance: 'race-pools-balance-debit-gap',
  reject: 'race-pools-reject-gap',
  refund: 'race-pools-returned-refund-gap',
  velocity: 'race-pools-velocity-cap-gap',
} as const;

const pools = (name: string, requirements: string[], description: string): FaultDef => ({ name, service: 'pools', requirements, description, suite: 'races' });

export const RACE_POOLS_FAULTS: FaultDef[] = [
  pools(
    POOLS_RACE.balance,
    ['POOLS-TX-INSUFFICIENT-402'],
    "Race: transact checks the pre-funded balance covers the reservation and makes the trade, then posts the reservation's debit a round trip later — transacts of different quotes arriving together each find the balance as it was: both reserved, the balance overdrawn (one quote's transacts stay single use: the quote is consumed with the trade).",
  ),
  pools(
    POOLS_RACE.reject,
    ['POOLS-SQ-REJECT-TERMINAL-409', 'POOLS-SQ-TRANSACT-REJECTED-409'],
    'Race: POST reject checks the quote active, then marks it rejected a round trip later — a transact landing in between reserves a trade on it, and the reject still answers the quote rejected: both succeed.',
  ),
  pools(
    POOLS_RACE.refund,
    ['POOLS-BAL-RETURNED-REFUND'],
    'Race: the poll that finds a settled trade returned decides on the refund, then posts it a round trip later without looking again — polls arriving together each credit the refund.',
  ),
  pools(
    POOLS_RACE.velocity,
    ['POOLS-VEL-CAP-429'],
    "Race: transact checks a capped partner's rolling 24 h notional with the trade, then makes the trade a round trip later — transacts arriving together each find the notional as it was: both through, past the cap.",
  ),
];

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** The gap, when `name` is on: an await between the check a handler made and the act it takes on it. */
export function poolsRaceGap(faults: ActiveFaults, name: string): Promise<void> | undefined {
  return faults.has(name) ? sleep(RACE_GAP_MS) : undefined;
}

/** Whether transact posts its reservation's debit after the gap (the fault), not with the trade. */
export const debitDeferred = (faults: ActiveFaults): boolean => faults.has(POOLS_RACE.balance);

/** The velocity check's gap: only on a capped partner (an uncapped one checks nothing). */
export function velocityRaceGap(faults: ActiveFaults, caller: Caller): Promise<void> | undefined {
  return caller.partner.velocityCap ? poolsRaceGap(faults, POOLS_RACE.velocity) : undefined;
}

/**
 * The poll's refund decided on a stale read, when the fault is on: the trade found settled with a return chosen, the
 * refund posted after the gap without looking again. True when this poll took that path (the caller answers the trade).
 */
export async function refundOnStaleRead(world: PoolsWorld, caller: Caller, t: TradeRecord): Promise<boolean> {
  if (!world.faults.has(POOLS_RACE.refund) || t.status !== 'settled' || (world.outcomes.get(t.quoteId) ?? 'settled') !== 'returned') return false;
  await sleep(RACE_GAP_MS);
  t.status = 'returned';
  t.refunded = true;
  world.post(world.state(caller), 'buy_refund', parse(t.fiatAmount), t);
  return true;
}
