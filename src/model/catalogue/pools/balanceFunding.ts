// Pools balance, funding and ledger.
import type { Requirement } from '../types.js';

type Entry = Omit<Requirement, 'service' | 'suite'> & { suite?: Requirement['suite'] };
const entry = (e: Entry): Requirement => ({ service: 'pools', suite: 'conformance', ...e });

const BAL = 'Resources and their fields > Balance';
const FUND = 'Resources and their fields > Funding';
const LEDGER = 'Resources and their fields > Ledger entry';

export const requirements: Requirement[] = [
  entry({ id: 'POOLS-BAL-SHAPE', section: BAL, title: 'Balance carries poolId, pair, tier, available, allowedPools, balance (decimal string or null)', kind: 'field', roles: ['pools.partner'] }),
  entry({ id: 'POOLS-BAL-GATE-OFF-NULL', section: BAL, title: 'balance is null when the balance gate is off', kind: 'field', roles: ['pools.balanceGateOff'] }),
  entry({ id: 'POOLS-BAL-RESERVE-DEBIT', section: 'What the service does', title: 'Transact reserves exactly the trade fiat amount from the pre-funded balance', kind: 'transition', roles: ['pools.partner'] }),
  entry({ id: 'POOLS-BAL-REJECT-NO-MONEY', section: 'States and transitions > Quote', title: 'Rejecting a quote moves no money', kind: 'transition', roles: ['pools.partner'] }),
  entry({ id: 'POOLS-BAL-RETURNED-REFUND', section: 'States and transitions > Trade', title: 'returned credits the trade amount back to the balance once (idempotent refund)', kind: 'transition', roles: ['pools.partner', 'pools.trigger.outcome'] }),
  entry({ id: 'POOLS-LEDGER-BUY-DEBIT', section: LEDGER, title: 'The ledger shows the reservation as buy_debit', kind: 'field', roles: ['pools.partner'] }),
  entry({ id: 'POOLS-LEDGER-BUY-REFUND', section: LEDGER, title: 'A returned trade shows exactly one buy_refund in the ledger', kind: 'field', roles: ['pools.partner', 'pools.trigger.outcome'] }),
  entry({ id: 'POOLS-FUND-SHAPE', section: FUND, title: 'Funding carries currency EUR, iban (string or null), reference, instructions', kind: 'field', roles: ['pools.partner'] }),
  entry({ id: 'POOLS-FUND-DEFAULT-EUR', section: 'Endpoints', title: 'GET /pools/funding currency defaults to EUR', kind: 'field', roles: ['pools.partner'] }),
  entry({ id: 'POOLS-FUND-NON-EUR-400', section: 'Limits', title: 'A funding currency other than EUR gives 400', kind: 'error', roles: ['pools.partner'] }),
  entry({ id: 'POOLS-FUND-GATE-OFF-404', section: 'Endpoints', title: 'GET /pools/funding gives 404 when the balance gate is off', kind: 'error', roles: ['pools.balanceGateOff'] }),
];
