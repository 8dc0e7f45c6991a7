// Pools balance, funding and ledger.
import { defineArea } from '../define.js';

const area = defineArea({
  service: 'pools',
  section: 'Resources and their fields > Balance',
  entries: {
    'POOLS-BAL-SHAPE': { title: 'Balance carries poolId, pair, tier, available, allowedPools, balance (decimal string or null)', kind: 'field' },
    'POOLS-BAL-GATE-OFF-NULL': { title: 'balance is null when the balance gate is off', kind: 'field' },
    'POOLS-BAL-RESERVE-DEBIT': { title: 'Transact reserves exactly the trade fiat amount from the pre-funded balance', kind: 'transition', section: 'What the service does' },
    'POOLS-BAL-REJECT-NO-MONEY': { title: 'Rejecting a quote moves no money', kind: 'transition', section: 'States and transitions > Quote' },
    'POOLS-BAL-RETURNED-REFUND': { title: 'returned credits the trade amount back to the balance once (idempotent refund)', kind: 'transition', section: 'States and transitions > Trade' },
    'POOLS-LEDGER-BUY-DEBIT': { title: 'The ledger shows the reservation as buy_debit', kind: 'field', section: 'Resources and their fields > Ledger entry' },
    'POOLS-LEDGER-BUY-REFUND': { title: 'A returned trade shows exactly one buy_refund in the ledger', kind: 'field', section: 'Resources and their fields > Ledger entry' },
    'POOLS-FUND-SHAPE': { title: 'Funding carries currency EUR, iban (string or null), reference, instructions', kind: 'field', section: 'Resources and their fields > Funding' },
    'POOLS-FUND-DEFAULT-EUR': { title: 'GET /pools/funding currency defaults to EUR', kind: 'field', section: 'Endpoints' },
    'POOLS-FUND-NON-EUR-400': { title: 'A funding currency other than EUR gives 400', kind: 'error', section: 'Limits' },
    'POOLS-FUND-GATE-OFF-404': { title: 'GET /pools/funding gives 404 when the balance gate is off', kind: 'error', section: 'Endpoints' },
  },
});

export default area;

declare module '../define.js' {
  interface CatalogueAreas {
    'pools/balanceFunding': typeof area.entries;
  }
}
