// Open points of the Gate spec's rails: signed quotes, pay-ins and pay-outs (Endpoints > Quotes and transactions,
// Rails; Resources and their fields > Rail pay-out, Other resources).
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
  },
});

export default area;

declare module '../define.js' {
  interface OpenPointAreas {
    'gate/rails': typeof area.entries;
  }
}
