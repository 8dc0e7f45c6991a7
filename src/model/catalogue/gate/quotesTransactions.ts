// Gate "Endpoints > Quotes and transactions" and the signed quote states.
import { defineArea } from '../define.js';

const area = defineArea({
  service: 'gate',
  section: 'Endpoints > Quotes and transactions',
  entries: {
    'GATE-QUOTE-LOCK': {
      title: 'POST /quotes locks a signed one-time quote carrying fiat_pay_or_receive',
      kind: 'status',
      anchor: ['| POST | /quotes | rail | Locks a signed one-time quote. |', 'Signed quote record fields: not shown beyond `fiat_pay_or_receive`'],
    },
    'GATE-QUOTE-PREVIEW-SK': {
      title:
        'POST /quotes/preview answers a secret key: any 2xx, or a 4xx about the body rampart guessed (its body and response are not shown; 400 for a missing or malformed field is documented), never 401, 403, 404, 405 or a 5xx',
      kind: 'auth',
      anchor: '| POST | /quotes/preview | SK | Indicative options before the user picks a method.',
    },
    'GATE-QUOTE-GET-NO-REDEEM': {
      title: 'GET /quotes/{id} inspects a signed quote without redeeming it',
      kind: 'transition',
      anchor: 'Inspects a signed quote without redeeming it.',
    },
    'GATE-QUOTE-CONSUMED-409': {
      title: 'A consumed signed quote cannot be redeemed: 409 conflict',
      kind: 'error',
      section: 'States and transitions > Other',
      anchor: ['Signed quote: consumed and expired are named states, and a consumed or expired quote cannot be redeemed (409).', 'consumed or expired quote'],
    },
    'GATE-QUOTE-EXPIRED-409': {
      title: 'An expired signed quote cannot be redeemed: 409 conflict',
      kind: 'error',
      section: 'States and transitions > Other',
      anchor: [
        'Signed quote: consumed and expired are named states, and a consumed or expired quote cannot be redeemed (409).',
        '| 409 | conflict | cancelling a terminal session',
      ],
    },
    'GATE-QUOTE-NO-ENTITLEMENT-403': {
      title: 'POST /quotes without rail access gives 403 forbidden',
      kind: 'auth',
      section: 'Errors',
      anchor: ['| POST | /quotes | rail |', 'rail access not enabled', 'rail = SK plus rail entitlement'],
    },
    'GATE-TXN-READ': {
      title: 'GET /transactions/{refid} answers one partner transaction (the tx_refid of a completed session)',
      kind: 'status',
      anchor: [
        '| GET | /transactions/{refid} | SK | One partner transaction. |',
        'Transaction record fields (identified by `refid`)',
        'Single-object responses carry an `object` discriminator string.',
      ],
    },
    'GATE-TXN-FOREIGN-404': {
      title: "GET /transactions/{refid} of another partner's transaction gives 404 (never 403)",
      kind: 'auth',
      section: 'Errors',
      anchor: ['| GET | /transactions/{refid} | SK | One partner transaction. |', 'Partner-scoped ids of another partner return 404.'],
    },
    'GATE-TXN-404': {
      title: 'GET /transactions/{refid} of an unknown refid gives 404',
      kind: 'error',
      section: 'Errors',
      anchor: '| GET | /transactions/{refid} | SK | One partner transaction. |',
    },
    'GATE-QUOTE-GET-NO-ENTITLEMENT-403': {
      title: 'GET /quotes/{id} without rail access gives 403 forbidden',
      kind: 'auth',
      section: 'Errors',
      anchor: ['| GET | /quotes/{id} | rail |', 'rail access not enabled'],
    },
    'GATE-TXN-LIST': {
      title:
        "GET /transactions answers a cursor-style list for reconciliation: the list envelope (object list, data, has_more, url the list's path), and the partner's completed transaction is in it when the page holds the whole list",
      kind: 'envelope',
      anchor: [
        '| GET | /transactions | SK | Cursor-style list for reconciliation.',
        'Transaction record fields (identified by `refid`)',
        'List envelope: `object` = `list`, `data` (array), `has_more` (boolean), `url` (string, path of the list).',
      ],
    },
    'GATE-TXN-LIST-TENANT': {
      title: "GET /transactions never lists another partner's transaction",
      kind: 'auth',
      section: 'What the service does',
      anchor: [
        '| GET | /transactions | SK | Cursor-style list for reconciliation.',
        'Every resource is scoped to the partner and the environment (test or live) of the credential.',
      ],
    },
  },
});

export default area;

declare module '../define.js' {
  interface CatalogueAreas {
    'gate/quotesTransactions': typeof area.entries;
  }
}
