// Open points of the Gate spec's rails: signed quotes, pay-ins and pay-outs (Endpoints > Quotes and transactions,
// Rails; Resources and their fields > Rail pay-out, Other resources; States and transitions > Other; Limits).
import { defineOpenPoints } from '../define.js';

const area = defineOpenPoints({
  spec: 'gate',
  section: 'Endpoints > Rails',
  entries: {
    'gate.signedQuote.provider': {
      kind: 'not-shown',
      passage: 'Request and response of POST /quotes and GET /quotes/{id}: not shown.',
      what: 'whether a signed quote carries provider: "Rail responses carry a provider field" stands in the pay-out rules, and the quote\'s fields are not shown',
      choices: ['present', 'absent'],
      readBy: ['conformance/gate/quotesTransactions.ts', 'support/gate/rails.ts'],
    },
    'gate.payIn.fields': {
      kind: 'not-shown',
      passage: 'Pay-in record fields: not shown.',
      what: "a pay-in's fields: the pay-out's shape, or fewer (no kind, method, session, reference or metadata); provider stays (the Rails rule)",
      choices: ['rail-like', 'minimal'],
      readBy: ['conformance/gate/rails.ts'],
    },
    'gate.payIn.createStatus': {
      kind: 'success-status',
      passage: 'Redeems a signed quote into a pay-in (`Idempotency-Key`). Request and response: not shown.',
      what: 'the success status of POST /rails/pay_ins',
      choices: ['201', '200'],
      readBy: ['conformance/gate/rails.ts', 'support/gate/accountBlocked.ts'],
    },
    'gate.payOut.transitions': {
      kind: 'not-shown',
      passage: 'Transitions between pay-out states: not shown.',
      what: 'whether a pay-out moves on its own: it stays pending, or it reads settled from its first read on',
      choices: ['stays-pending', 'settles-on-read'],
      readBy: ['conformance/gate/rails.ts', 'src/model/schemas/gate/rails.ts', 'relation:RAIL_PAY_OUT_RELATIONS'],
    },
    'gate.rails.volumeCap': {
      kind: 'value',
      passage: 'Per-user cumulative volume cap on rails exists; its value: not shown.',
      what: "the per-user volume cap's value (a partner's railVolumeCap in the profile declares it): the profile's own, or a tenth of it",
      choices: ['declared', 'tenth'],
      readBy: ['support/gate/accountBlocked.ts', 'src/needs/gate/railVolumeCap.ts'],
    },
    'gate.rails.validationOrder': {
      kind: 'validation-order',
      passage: 'Any money field or identity/payout-instruction field in the body gives 400.',
      what: 'which error a pay-out with a refused body field and a quote_id naming no quote gets: 400 (the body first) or 404 (the quote first)',
      choices: ['400-first', '404-first'],
      readBy: ['conformance/gate/rails.ts'],
    },
  },
});

export default area;

declare module '../define.js' {
  interface OpenPointAreas {
    'gate/rails': typeof area.entries;
  }
}
