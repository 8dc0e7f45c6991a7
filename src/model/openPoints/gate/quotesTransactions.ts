// Open points of the Gate spec's quotes and transactions: the preview, the signed quote's record, lifetime and
// transitions, the transaction record and its list (Endpoints > Quotes and transactions; Resources and their
// fields > Other resources; States and transitions > Other).
import { defineOpenPoints } from '../define.js';

const area = defineOpenPoints({
  spec: 'gate',
  section: 'Endpoints > Quotes and transactions',
  entries: {
    'gate.preview.body': {
      kind: 'not-shown',
      passage: 'Indicative options before the user picks a method. Body and response: not shown.',
      what: 'the body POST /quotes/preview needs: an amount and currency, or a side too (400 without)',
      choices: ['amount-currency', 'side-required'],
      readBy: ['conformance/gate/quotesTransactions.ts', 'support/gate/unshownInput.ts'],
      note: "the reference.undocumentedInputs knob ('strict') still applies",
    },
    'gate.signedQuote.fields': {
      kind: 'not-shown',
      passage: 'Signed quote record fields: not shown beyond `fiat_pay_or_receive` and the states consumed and expired.',
      what: "a signed quote's fields: the reference's whole record (state, currency, method, …), or only its id, fiat_pay_or_receive, expiry and its state under status",
      choices: ['full', 'minimal'],
      readBy: ['support/gate/rails.ts', 'conformance/gate/rails.ts', 'src/needs/gate/signedQuote.ts'],
    },
    'gate.signedQuote.lockStatus': {
      kind: 'success-status',
      passage: 'Request and response of POST /quotes and GET /quotes/{id}: not shown.',
      what: 'the success status of POST /quotes',
      choices: ['201', '200'],
      readBy: ['src/needs/gate/signedQuote.ts'],
    },
    'gate.signedQuote.lifetime': {
      kind: 'value',
      passage: 'Locks a signed one-time quote.',
      what: "a signed quote's lifetime (not stated; the world's profile then declares timing.signedQuoteLifetimeSeconds)",
      choices: ['600', '30'],
      readBy: ['support/gate/rails.ts', 'src/needs/gate/expireSignedQuote.ts', 'chaos/gate/lostResponses.ts'],
    },
    'gate.signedQuote.transitions': {
      kind: 'not-shown',
      passage: 'Transitions of signed quote states: not shown.',
      what: 'what becomes of an unredeemed signed quote when its session ends (cancelled, completed, expired): it keeps its state, or it expires',
      choices: ['kept', 'expires-with-session'],
      readBy: ['support/gate/rails.ts', 'conformance/gate/quotesTransactions.ts'],
    },
    'gate.transactions.fields': {
      kind: 'not-shown',
      passage: 'Transaction record fields (identified by `refid`): not shown.',
      what: "a transaction record's fields: the reference's (refid, gate_session_id, status, flow, amount, …), or only its refid and status",
      choices: ['recorded', 'minimal'],
      readBy: ['conformance/gate/quotesTransactions.ts'],
    },
    'gate.transactions.list': {
      kind: 'not-shown',
      passage: 'Cursor-style list for reconciliation. Query parameters and response: not shown.',
      what: "what the transaction list's cursor (starting_after) takes: the refid, or an id of the record's own beside it",
      choices: ['refid-cursor', 'id-cursor'],
      readBy: ['support/gate/lists.ts', 'conformance/gate/quotesTransactions.ts'],
    },
  },
});

export default area;

declare module '../define.js' {
  interface OpenPointAreas {
    'gate/quotesTransactions': typeof area.entries;
  }
}
