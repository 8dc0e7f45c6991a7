// Pools balance, funding and ledger.
import { defineArea } from '../define.js';

const BALANCE_FIELDS =
  '`poolId`, `pair`, `tier` (strings), `available` (boolean), `allowedPools` (array of strings), `balance` (decimal string partner fiat balance';
const ENTRY_TYPES = 'Entry types named: `payin_credit`, `buy_debit`, `buy_refund`.';
const FUNDING_ROW = '| GET | /pools/funding | SK | Query `currency` (default `EUR`; any other gives 400).';
const LEDGER_ROW = '| GET | /pools/ledger | SK | Partner-scoped balance movements, cursor-paginated.';
const RETURNED_ROW =
  '| settled | receiving bank returns payout, or crypto delivery fails downstream | discovered by poll | returned | automatic idempotent refund credit to partner balance, visible in ledger as `buy_refund`; no webhook |';

const area = defineArea({
  service: 'pools',
  section: 'Resources and their fields > Balance',
  entries: {
    'POOLS-BAL-SHAPE': {
      title: 'Balance carries poolId, pair, tier, available, allowedPools, balance (decimal string or null)',
      kind: 'field',
      anchor: [BALANCE_FIELDS, '| GET | /pools/{id}/balance | SK + entitlement | Balance object. |', 'Money and rate values are decimal strings.'],
    },
    'POOLS-BAL-GATE-OFF-NULL': { title: 'balance is null when the balance gate is off', kind: 'field', anchor: 'or null when the balance gate is off' },
    'POOLS-BAL-NO-ACCESS-ECHO': {
      title:
        'The balance does not echo access or KYC state (judged on field names that name the state itself, alone or inside the key holding them; a generic word alone — access, enabled — is an allowed additive field, observed)',
      kind: 'field',
      anchor: 'Access and KYC state are not echoed; they appear only as 403 codes.',
    },
    'POOLS-BAL-RESERVE-DEBIT': {
      title: 'Transact draws on the pre-funded balance: the reservation takes from it (the balance goes down; by how much is not stated: observed)',
      kind: 'transition',
      section: 'What the service does',
      anchor: ['Trades draw on a pre-funded partner fiat balance (EUR only).', '| quoted | transact | quote accepted and balance reserved | reserved |'],
    },
    'POOLS-BAL-REJECT-NO-MONEY': {
      title: 'Rejecting a quote moves no money',
      kind: 'transition',
      section: 'States and transitions > Quote',
      anchor: '| active | POST reject | quote active | rejected | `rejectedAt` set; no money moved |',
    },
    'POOLS-BAL-RETURNED-REFUND': {
      title:
        'returned credits the balance once (idempotent refund: it goes up while polling to returned, and not on a further poll; by how much is not stated: observed)',
      kind: 'transition',
      section: 'States and transitions > Trade',
      anchor: RETURNED_ROW,
    },
    'POOLS-BAL-RELEASED-UNWOUND': {
      title: 'A released trade had its reservation unwound: the balance gets the reserved amount back, once',
      kind: 'transition',
      section: 'States and transitions > Trade',
      anchor: '`released` means the reservation was unwound without settling.',
      needs: ['poolsTradeOutcome'],
    },
    'POOLS-LEDGER-BUY-DEBIT': {
      title: 'The ledger shows the reservation as buy_debit',
      kind: 'field',
      section: 'Resources and their fields > Ledger entry',
      anchor: ENTRY_TYPES,
    },
    'POOLS-LEDGER-BUY-REFUND': {
      title: 'A returned trade shows exactly one buy_refund in the ledger',
      kind: 'field',
      section: 'Resources and their fields > Ledger entry',
      anchor: [
        ENTRY_TYPES,
        RETURNED_ROW,
        'The `returned` state must be reconciled via polling or the ledger.',
        'Observe them through the status poll, the trade reads, the ledger and the quote read.',
      ],
    },
    'POOLS-LEDGER-PAYIN-CREDIT': {
      title: 'A pay-in credits the balance (it goes up; by how much is not stated: observed) and shows in the ledger as one payin_credit',
      kind: 'field',
      section: 'Resources and their fields > Ledger entry',
      anchor: [ENTRY_TYPES, 'reconcile through trades, balance, funding and ledger'],
      needs: ['poolsBalanceCredit'],
    },
    'POOLS-LEDGER-PARTNER-SCOPED': {
      title: "GET /pools/ledger never shows another partner's balance movements",
      kind: 'pagination',
      section: 'Endpoints',
      anchor: [LEDGER_ROW, 'All responses are partner-scoped.'],
    },
    'POOLS-LEDGER-CURSOR': {
      title:
        'The ledger is cursor-paginated: following its next cursor continues the list, no entry shows on two pages (query and shape not shown: judged where the cursor is found and honoured, observed otherwise)',
      kind: 'pagination',
      section: 'Endpoints',
      anchor: LEDGER_ROW,
    },
    'POOLS-FUND-SHAPE': {
      title: 'Funding carries currency EUR, iban (string or null), reference, instructions',
      kind: 'field',
      section: 'Resources and their fields > Funding',
      anchor: ['`currency` (`EUR`), `iban` (string or null until provisioned), `reference`, `instructions`.', FUNDING_ROW],
    },
    'POOLS-FUND-IBAN-UNPROVISIONED-NULL': {
      title: 'iban is null for a partner whose IBAN is not provisioned',
      kind: 'field',
      section: 'Resources and their fields > Funding',
      anchor: ['`iban` (string or null until provisioned)', '`iban` null when not provisioned'],
      needs: ['poolsIbanUnprovisioned'],
    },
    'POOLS-FUND-DEFAULT-EUR': { title: 'GET /pools/funding currency defaults to EUR', kind: 'field', section: 'Endpoints', anchor: FUNDING_ROW },
    'POOLS-FUND-NON-EUR-400': {
      title: 'A funding currency other than EUR gives 400',
      kind: 'error',
      section: 'Limits',
      anchor: ['Funding currency: EUR only.', FUNDING_ROW, 'non-EUR funding currency'],
    },
    'POOLS-FUND-GATE-OFF-404': {
      title: 'GET /pools/funding gives 404 when the balance gate is off',
      kind: 'error',
      section: 'Endpoints',
      anchor: ['404 when the balance gate is off', 'funding when balance gate is off'],
    },
  },
});

export default area;

declare module '../define.js' {
  interface CatalogueAreas {
    'pools/balanceFunding': typeof area.entries;
  }
}
