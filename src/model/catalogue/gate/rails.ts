// Gate "Endpoints > Rails" (pay-out rules) and the rail_pay_out resource.
import { defineArea } from '../define.js';

const area = defineArea({
  service: 'gate',
  section: 'Endpoints > Rails',
  entries: {
    'GATE-RAIL-PAYOUT-201': { title: 'POST /rails/pay_outs answers 201 with a rail_pay_out (id, kind pay_out, status, gate_session_id, quote_id, method, amount, currency, reference, created_at)', kind: 'status' },
    'GATE-RAIL-PAYOUT-AMOUNT-FROM-QUOTE': { title: 'The pay-out amount equals the quote\'s fiat_pay_or_receive', kind: 'field', section: 'Resources and their fields > Rail pay-out' },
    'GATE-RAIL-PROVIDER-FIELD': { title: 'Rail responses carry a provider field (reconciliation data only)', kind: 'field', section: 'Endpoints > Rails > Pay-out rules' },
    'GATE-RAIL-PAYOUT-READ': { title: 'GET /rails/pay_outs/{id} answers the rail_pay_out', kind: 'status' },
    'GATE-RAIL-PAYOUT-FOREIGN-404': { title: 'GET /rails/pay_outs/{id} of another partner\'s pay-out gives 404 (never 403)', kind: 'auth', section: 'Errors' },
    'GATE-RAIL-PAYOUT-FOREIGN-QUOTE': { title: 'A pay-out naming another partner\'s session and signed quote is refused (403 or 404: the spec gives both for another partner\'s session) and leaves the quote redeemable by its owner', kind: 'auth', section: 'Authentication' },
    'GATE-RAIL-PAYOUT-IDEMPOTENT-REPLAY': { title: 'A repeat with the same Idempotency-Key and body returns the original pay-out', kind: 'idempotency' },
    'GATE-RAIL-PAYOUT-IDEMPOTENCY-REQUIRED': { title: 'POST /rails/pay_outs without an Idempotency-Key gives 400', kind: 'idempotency' },
    'GATE-RAIL-PAYOUT-REQUIRED-400': { title: 'A pay-out without gate_session_id or quote_id gives 400', kind: 'error' },
    'GATE-RAIL-PAYOUT-MONEY-FIELD-400': { title: 'Any money field in the pay-out body (amount, currency, method, fee…) gives 400', kind: 'error' },
    'GATE-RAIL-PAYOUT-IDENTITY-FIELD-400': { title: 'Any identity or payout-instruction field in the pay-out body (iban, account_number, name, email…) gives 400', kind: 'error' },
    'GATE-RAIL-PAYOUT-ID-MAX': { title: 'gate_session_id and quote_id longer than 64 chars give 400', kind: 'limit', section: 'Limits' },
    'GATE-RAIL-PAYOUT-REFERENCE-MAX': { title: 'reference of 128 chars is accepted, 129 gives 400', kind: 'limit', section: 'Limits' },
    'GATE-RAIL-PAYIN-REDEEMS': { title: 'POST /rails/pay_ins redeems the signed quote: a later pay-out on it gives 409', kind: 'transition' },
    'GATE-RAIL-ENTITLEMENT-403': { title: 'A rail call without rail access gives 403 forbidden', kind: 'auth', section: 'Errors' },
  },
});

export default area;

declare module '../define.js' {
  interface CatalogueAreas {
    'gate/rails': typeof area.entries;
  }
}
