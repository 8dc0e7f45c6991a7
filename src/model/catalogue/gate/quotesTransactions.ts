// Gate "Endpoints > Quotes and transactions" and the signed quote states.
import { defineArea } from '../define.js';

const area = defineArea({
  service: 'gate',
  section: 'Endpoints > Quotes and transactions',
  entries: {
    'GATE-QUOTE-LOCK': { title: 'POST /quotes locks a signed one-time quote carrying fiat_pay_or_receive', kind: 'status' },
    'GATE-QUOTE-GET-NO-REDEEM': { title: 'GET /quotes/{id} inspects a signed quote without redeeming it', kind: 'transition' },
    'GATE-QUOTE-CONSUMED-409': { title: 'A consumed signed quote cannot be redeemed: 409 conflict', kind: 'error', section: 'States and transitions > Other' },
    'GATE-QUOTE-EXPIRED-409': { title: 'An expired signed quote cannot be redeemed: 409 conflict', kind: 'error', section: 'States and transitions > Other' },
    'GATE-QUOTE-NO-ENTITLEMENT-403': { title: 'POST /quotes without rail access gives 403 forbidden', kind: 'auth', section: 'Errors' },
    'GATE-TXN-READ': { title: 'GET /transactions/{refid} answers one partner transaction (the tx_refid of a completed session)', kind: 'status' },
    'GATE-TXN-FOREIGN-404': { title: 'GET /transactions/{refid} of another partner\'s transaction gives 404 (never 403)', kind: 'auth', section: 'Errors' },
    'GATE-TXN-404': { title: 'GET /transactions/{refid} of an unknown refid gives 404', kind: 'error', section: 'Errors' },
  },
});

export default area;

declare module '../define.js' {
  interface CatalogueAreas {
    'gate/quotesTransactions': typeof area.entries;
  }
}
