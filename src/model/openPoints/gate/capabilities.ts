// Open points of the Gate spec's capability discovery: the country, currency and payout-method objects and the
// queries of their lists (Endpoints > Capabilities; Resources and their fields > Other resources).
import { defineOpenPoints } from '../define.js';

const area = defineOpenPoints({
  spec: 'gate',
  section: 'Endpoints > Capabilities',
  entries: {
    'gate.capabilities.objects': {
      kind: 'not-shown',
      passage: 'Country, currency and payout-method objects: not shown.',
      what: "the fields of a country, currency or payout-method item: the reference's code and name, or others (alpha2/alpha3, label)",
      choices: ['code-name', 'alpha-label'],
      readBy: ['conformance/gate/capabilities.ts', 'conformance/gate/rails.ts'],
    },
    'gate.capabilities.countryList': {
      kind: 'not-shown',
      passage: 'List responses. Query parameters and response shape: not shown.',
      what: 'which countries and currencies the lists hold: every one the service knows (unsupported ones marked), or the supported ones only',
      choices: ['every-known', 'supported-only'],
      readBy: ['conformance/gate/capabilities.ts', 'src/needs/gate/countries.ts'],
    },
    'gate.capabilities.payoutMethodsQuery': {
      kind: 'not-shown',
      passage: 'Sell-side methods. Query parameters and response shape: not shown.',
      what: 'whether GET /capabilities/payout-methods needs a query: none, or a currency or country_code (400 without)',
      choices: ['query-optional', 'currency-required'],
      readBy: ['conformance/gate/capabilities.ts', 'conformance/gate/rails.ts', 'support/gate/unshownInput.ts'],
      note: "the reference.undocumentedInputs knob ('strict') still applies",
    },
  },
});

export default area;

declare module '../define.js' {
  interface OpenPointAreas {
    'gate/capabilities': typeof area.entries;
  }
}
