// Gate "Endpoints > Capabilities" with the Asset, Payment method and Eligibility resources.
import { defineArea } from '../define.js';

const area = defineArea({
  service: 'gate',
  section: 'Endpoints > Capabilities',
  entries: {
    'GATE-CAP-LISTS-ENVELOPE': { title: 'GET /capabilities/countries and /capabilities/currencies answer list responses (object list, data, has_more, url)', kind: 'envelope' },
    'GATE-CAP-ASSETS-LIST': { title: 'GET /capabilities/assets answers a list of Asset (object asset, symbol, name, side on_ramp|off_ramp, active, icon_url, networks[], min_amount, max_amount)', kind: 'envelope' },
    'GATE-CAP-ASSET-SINGLE': { title: 'GET /capabilities/assets/{symbol} answers a single Asset, not wrapped, with currency present', kind: 'status' },
    'GATE-CAP-ASSET-SYMBOL-CASE-INSENSITIVE': { title: 'The path symbol of GET /capabilities/assets/{symbol} is case-insensitive', kind: 'field' },
    'GATE-CAP-ASSET-SIDE-DEFAULT': { title: 'Query side defaults to on_ramp (off_ramp is the other value)', kind: 'field' },
    'GATE-CAP-ASSET-UNKNOWN-404': { title: 'An unknown symbol gives 404', kind: 'error' },
    'GATE-CAP-ASSET-INACTIVE-404': { title: 'An inactive symbol gives 404', kind: 'error' },
    'GATE-CAP-ASSET-SIDE-404': { title: 'A symbol not transactable on the requested side gives 404', kind: 'error' },
    'GATE-CAP-ASSET-REGION-404': {
      title: 'A symbol not offered in the resolved region (the edge country header) gives 404, and 2xx where it is offered',
      kind: 'error',
      // The region is the caller's: reachable only when rampart can choose the edge country.
      needs: ['gateEdgeCountry'],
    },
    'GATE-CAP-PM-LIST': { title: 'GET /capabilities/payment-methods answers a list of payment_method (id, name, currency, side on_ramp, icon_url, fees object) ', kind: 'envelope' },
    'GATE-CAP-PM-HAS-MORE-FALSE': { title: 'The payment-methods list has has_more always false', kind: 'pagination' },
    'GATE-CAP-PM-CURRENCY': { title: 'Query currency selects the payment methods of that currency', kind: 'field' },
    'GATE-CAP-PM-COUNTRY-DEFAULT-FIAT': { title: 'Query country_code resolves the country default fiat', kind: 'field' },
    'GATE-CAP-PM-CURRENCY-PRECEDENCE': { title: 'When both are given, currency takes precedence over country_code', kind: 'field' },
    'GATE-CAP-PM-EMPTY-200': { title: 'When no currency resolves (or it has no method), 200 with empty data', kind: 'status' },
  },
});

export default area;

declare module '../define.js' {
  interface CatalogueAreas {
    'gate/capabilities': typeof area.entries;
  }
}
