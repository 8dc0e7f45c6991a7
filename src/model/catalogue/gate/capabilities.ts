// Gate "Endpoints > Capabilities" with the Asset, Payment method and Eligibility resources.
import { defineArea } from '../define.js';

const area = defineArea({
  service: 'gate',
  section: 'Endpoints > Capabilities',
  entries: {
    'GATE-CAP-LISTS-ENVELOPE': {
      title: 'GET /capabilities/countries and /capabilities/currencies answer list responses (object list, data, has_more, url)',
      kind: 'envelope',
      anchor: [
        '| /capabilities/countries, /capabilities/currencies | List responses.',
        'List envelope: `object` = `list`, `data` (array), `has_more` (boolean), `url` (string, path of the list).',
      ],
    },
    'GATE-CAP-ASSETS-LIST': {
      title:
        'GET /capabilities/assets answers a list of Asset (object asset, symbol, name, side on_ramp|off_ramp, active, icon_url, networks[], min_amount, max_amount)',
      kind: 'envelope',
      anchor: [
        '| /capabilities/assets | List of Asset. |',
        '`object`=`asset`, `symbol`, `name` (falls back to symbol)',
        'List envelope: `object` = `list`, `data` (array), `has_more` (boolean), `url` (string, path of the list).',
      ],
    },
    'GATE-CAP-ASSET-SINGLE': {
      title: 'GET /capabilities/assets/{symbol} answers a single Asset, not wrapped, with currency present',
      kind: 'status',
      anchor: [
        'Response: a single Asset (not wrapped).',
        'present on the single-asset response',
        'Single-object responses carry an `object` discriminator string.',
      ],
    },
    'GATE-CAP-ASSET-SYMBOL-CASE-INSENSITIVE': {
      title: 'The path symbol of GET /capabilities/assets/{symbol} is case-insensitive',
      kind: 'field',
      anchor: 'Path `symbol` (case-insensitive).',
    },
    'GATE-CAP-ASSET-SIDE-DEFAULT': {
      title: 'Query side defaults to on_ramp (off_ramp is the other value)',
      kind: 'field',
      anchor: 'Query `side` (`on_ramp` default, or `off_ramp`).',
    },
    'GATE-CAP-ASSET-SIDE-OFF-RAMP': {
      title: "Query side=off_ramp answers the asset's off-ramp entry (side off_ramp)",
      kind: 'field',
      anchor: ['Query `side` (`on_ramp` default, or `off_ramp`).', '`side` (`on_ramp`/`off_ramp`)'],
      needs: ['gateOffRampAsset'],
    },
    'GATE-CAP-ASSET-NAME-FALLBACK': {
      title: 'An asset without a display name is named by its symbol (name falls back to symbol), in the list and by symbol',
      kind: 'field',
      section: 'Resources and their fields > Asset',
      anchor: '`object`=`asset`, `symbol`, `name` (falls back to symbol)',
      needs: ['gateNamelessAsset'],
    },
    'GATE-CAP-PAYOUT-METHODS-SK': {
      title:
        'GET /capabilities/payout-methods answers a secret key: any 2xx, or a 4xx about the query rampart guessed (its query and shape are not shown; 400 for a missing or malformed field is documented), never 401, 403, 404, 405 or a 5xx',
      kind: 'auth',
      anchor: '| /capabilities/payout-methods | Sell-side methods.',
    },
    'GATE-CAP-ASSET-UNKNOWN-404': { title: 'An unknown symbol gives 404', kind: 'error', anchor: '404 for an unknown or inactive symbol' },
    'GATE-CAP-ASSET-INACTIVE-404': {
      title: 'An inactive symbol gives 404',
      kind: 'error',
      anchor: ['404 for an unknown or inactive symbol', '`active` (false means do not offer)'],
    },
    'GATE-CAP-ASSET-SIDE-404': {
      title: 'A symbol not transactable on the requested side gives 404',
      kind: 'error',
      anchor: 'a symbol not transactable on the side',
    },
    'GATE-CAP-ASSET-REGION-404': {
      title: 'A symbol not offered in the resolved region (the edge country header) gives 404, and 2xx where it is offered',
      kind: 'error',
      // The region is the caller's: reachable only when rampart can choose the edge country.
      needs: ['gateEdgeCountry'],
      anchor: 'or one not offered in the resolved region',
    },
    'GATE-CAP-PM-LIST': {
      title: 'GET /capabilities/payment-methods answers a list of payment_method (id, name, currency, side on_ramp, icon_url, fees object) ',
      kind: 'envelope',
      anchor: [
        '`object`=`payment_method`, `id` (stable slug), `name`, `currency` (ISO 4217), `side` (always `on_ramp`)',
        'Response: list of payment_method',
        'List envelope: `object` = `list`, `data` (array), `has_more` (boolean), `url` (string, path of the list).',
      ],
    },
    'GATE-CAP-PM-HAS-MORE-FALSE': { title: 'The payment-methods list has has_more always false', kind: 'pagination', anchor: '`has_more` always false' },
    'GATE-CAP-PM-CURRENCY': {
      title: 'Query currency selects the payment methods of that currency',
      kind: 'field',
      anchor: '| /capabilities/payment-methods | Query `currency` (ISO 4217, takes precedence)',
    },
    'GATE-CAP-PM-COUNTRY-DEFAULT-FIAT': {
      title: 'Query country_code resolves the country default fiat',
      kind: 'field',
      anchor: '`country_code` (resolves default fiat)',
    },
    'GATE-CAP-PM-CURRENCY-PRECEDENCE': {
      title: 'When both are given, currency takes precedence over country_code',
      kind: 'field',
      anchor: '`currency` (ISO 4217, takes precedence)',
    },
    'GATE-CAP-PM-EMPTY-200': {
      title: 'When no currency resolves (or it has no method), 200 with empty data',
      kind: 'status',
      anchor: 'When no currency resolves: 200 with empty `data`.',
    },
  },
});

export default area;

declare module '../define.js' {
  interface CatalogueAreas {
    'gate/capabilities': typeof area.entries;
  }
}
