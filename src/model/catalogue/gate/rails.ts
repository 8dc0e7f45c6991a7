// Gate "Endpoints > Rails" (pay-out rules) and the rail_pay_out resource.
import type { Requirement } from '../types.js';

const EP = 'Endpoints > Rails';
const RES = 'Resources and their fields > Rail pay-out';
const r = (id: string, section: string, title: string, kind: Requirement['kind'], roles: Requirement['roles'] = ['gate.rails']): Requirement => ({
  id,
  service: 'gate',
  section,
  title,
  kind,
  roles,
  suite: 'conformance',
});

export const requirements: Requirement[] = [
  r('GATE-RAIL-PAYOUT-201', EP, 'POST /rails/pay_outs answers 201 with a rail_pay_out (id, kind pay_out, status, gate_session_id, quote_id, method, amount, currency, reference, created_at)', 'status'),
  r('GATE-RAIL-PAYOUT-AMOUNT-FROM-QUOTE', RES, "The pay-out amount equals the quote's fiat_pay_or_receive", 'field'),
  r('GATE-RAIL-PROVIDER-FIELD', 'Endpoints > Rails > Pay-out rules', 'Rail responses carry a provider field (reconciliation data only)', 'field'),
  r('GATE-RAIL-PAYOUT-READ', EP, 'GET /rails/pay_outs/{id} answers the rail_pay_out', 'status'),
  r('GATE-RAIL-PAYOUT-FOREIGN-404', 'Errors', "GET /rails/pay_outs/{id} of another partner's pay-out gives 404 (never 403)", 'auth', ['gate.rails', 'gate.secondPartner']),
  r('GATE-RAIL-PAYOUT-IDEMPOTENT-REPLAY', EP, 'A repeat with the same Idempotency-Key and body returns the original pay-out', 'idempotency'),
  r('GATE-RAIL-PAYOUT-IDEMPOTENCY-REQUIRED', EP, 'POST /rails/pay_outs without an Idempotency-Key gives 400', 'idempotency'),
  r('GATE-RAIL-PAYOUT-REQUIRED-400', EP, 'A pay-out without gate_session_id or quote_id gives 400', 'error'),
  r('GATE-RAIL-PAYOUT-MONEY-FIELD-400', EP, 'Any money field in the pay-out body (amount, currency, method, fee…) gives 400', 'error'),
  r('GATE-RAIL-PAYOUT-IDENTITY-FIELD-400', EP, 'Any identity or payout-instruction field in the pay-out body (iban, account_number, name, email…) gives 400', 'error'),
  r('GATE-RAIL-PAYOUT-ID-MAX', 'Limits', 'gate_session_id and quote_id longer than 64 chars give 400', 'limit'),
  r('GATE-RAIL-PAYOUT-REFERENCE-MAX', 'Limits', 'reference of 128 chars is accepted, 129 gives 400', 'limit'),
  r('GATE-RAIL-PAYIN-REDEEMS', EP, 'POST /rails/pay_ins redeems the signed quote: a later pay-out on it gives 409', 'transition', ['gate.rails', 'gate.payIn']),
  r('GATE-RAIL-ENTITLEMENT-403', 'Errors', 'A rail call without rail access gives 403 forbidden', 'auth', ['gate.noRails']),
];
