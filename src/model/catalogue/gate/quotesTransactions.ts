// Gate "Endpoints > Quotes and transactions" and the signed quote states.
import type { Requirement } from '../types.js';

const EP = 'Endpoints > Quotes and transactions';
const ST = 'States and transitions > Other';
const r = (id: string, section: string, title: string, kind: Requirement['kind'], roles: Requirement['roles']): Requirement => ({
  id,
  service: 'gate',
  section,
  title,
  kind,
  roles,
  suite: 'conformance',
});

export const requirements: Requirement[] = [
  r('GATE-QUOTE-LOCK', EP, 'POST /quotes locks a signed one-time quote carrying fiat_pay_or_receive', 'status', ['gate.rails']),
  r('GATE-QUOTE-GET-NO-REDEEM', EP, 'GET /quotes/{id} inspects a signed quote without redeeming it', 'transition', ['gate.rails']),
  r('GATE-QUOTE-CONSUMED-409', ST, 'A consumed signed quote cannot be redeemed: 409 conflict', 'error', ['gate.rails']),
  r('GATE-QUOTE-EXPIRED-409', ST, 'An expired signed quote cannot be redeemed: 409 conflict', 'error', ['gate.rails', 'gate.trigger.expireQuote']),
  r('GATE-QUOTE-NO-ENTITLEMENT-403', 'Errors', 'POST /quotes without rail access gives 403 forbidden', 'auth', ['gate.noRails', 'gate.rails']),
  r('GATE-TXN-READ', EP, 'GET /transactions/{refid} answers one partner transaction (the tx_refid of a completed session)', 'status', ['gate.webhooks', 'gate.trigger.complete']),
  r('GATE-TXN-FOREIGN-404', 'Errors', "GET /transactions/{refid} of another partner's transaction gives 404 (never 403)", 'auth', ['gate.webhooks', 'gate.trigger.complete', 'gate.secondPartner']),
  r('GATE-TXN-404', 'Errors', 'GET /transactions/{refid} of an unknown refid gives 404', 'error', ['gate.partner']),
];
