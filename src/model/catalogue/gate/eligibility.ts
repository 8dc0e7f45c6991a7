// Gate "Endpoints > Capabilities": GET /capabilities/eligibility (the Eligibility resource).
// The ip-geo rules need rampart to choose (or omit) the edge country header: gateEdgeCountry.
import { defineArea } from '../define.js';

const area = defineArea({
  service: 'gate',
  section: 'Endpoints > Capabilities',
  entries: {
    'GATE-ELIG-SHAPE': {
      title:
        'GET /capabilities/eligibility answers an Eligibility (object eligibility, country_code, eligible, supported, default_currency, currency_supported, asset_supported, geo_source, unavailable_reason)',
      kind: 'envelope',
      section: 'Resources and their fields > Eligibility',
      anchor: ['| object | string | `eligibility` |', 'Response: Eligibility.', 'Single-object responses carry an `object` discriminator string.'],
    },
    'GATE-ELIG-GEO-SOURCE-EXPLICIT': {
      title: 'With query country_code, geo_source is explicit and country_code is that country',
      kind: 'enum',
      section: 'Resources and their fields > Eligibility',
      anchor: [
        '| geo_source | string | `explicit` (query parameter)',
        '| country_code | string or null | resolved ISO 3166-1 alpha-2; null when unresolved |',
        '| /capabilities/eligibility | Query `country_code`, `currency`, `asset` (all optional).',
      ],
    },
    'GATE-ELIG-GEO-SOURCE-IP': {
      title: 'Without country_code the edge header cf-ipcountry is used: geo_source ip',
      kind: 'enum',
      section: 'Resources and their fields > Eligibility',
      needs: ['gateEdgeCountry'],
      anchor: ['`ip` (edge country header `cf-ipcountry`)', 'Without `country_code`, the edge country header is used.'],
    },
    'GATE-ELIG-COUNTRY-UNRESOLVED': {
      title: 'With neither, geo_source none, country_code null, eligible false, unavailable_reason country_unresolved',
      kind: 'enum',
      section: 'Resources and their fields > Eligibility',
      needs: ['gateEdgeCountry'],
      anchor: [
        '`ip` (edge country header `cf-ipcountry`), `none` |',
        'null when unresolved',
        'An unsupported or unresolved region returns eligible false with `unavailable_reason`.',
      ],
    },
    'GATE-ELIG-EXPLICIT-OVER-IP': {
      title: 'The edge country header is used only without country_code: the query parameter wins',
      kind: 'field',
      needs: ['gateEdgeCountry'],
      anchor: 'Without `country_code`, the edge country header is used.',
    },
    'GATE-ELIG-COUNTRY-NOT-SUPPORTED': {
      title: 'An unsupported region: eligible false, supported false, unavailable_reason country_not_supported',
      kind: 'enum',
      section: 'Resources and their fields > Eligibility',
      anchor: [
        '| supported | boolean | whether the region is an on/off-ramp corridor |',
        'An unsupported or unresolved region returns eligible false with `unavailable_reason`.',
        '| unavailable_reason | string or null | `country_unresolved`, `country_not_supported`, `currency_not_supported`, `asset_not_supported`; null when eligible |',
      ],
    },
    'GATE-ELIG-CURRENCY-NOT-SUPPORTED': {
      title: 'An unsupported currency in a supported region: currency_supported false, eligible false, unavailable_reason currency_not_supported',
      kind: 'enum',
      section: 'Resources and their fields > Eligibility',
      anchor: ['| currency_supported | boolean or null | null when no currency was supplied |', '`currency_not_supported`'],
    },
    'GATE-ELIG-ASSET-NOT-SUPPORTED': {
      title: 'An unknown or inactive asset: asset_supported false, eligible false, unavailable_reason asset_not_supported',
      kind: 'enum',
      section: 'Resources and their fields > Eligibility',
      anchor: ['| asset_supported | boolean or null | whether the asset exists and is active; null when no asset was supplied |', '`asset_not_supported`'],
    },
    'GATE-ELIG-ELIGIBLE': {
      title: 'eligible true only when the region is supported and every requested refinement passed; unavailable_reason null then',
      kind: 'field',
      section: 'Resources and their fields > Eligibility',
      anchor: ['| eligible | boolean | true only when the region is supported and every requested refinement (currency, asset) passed |', 'null when eligible'],
    },
    'GATE-ELIG-REFINEMENTS-NULL': {
      title: 'currency_supported and asset_supported are null when no currency / asset was supplied',
      kind: 'field',
      section: 'Resources and their fields > Eligibility',
      anchor: ['null when no currency was supplied', 'null when no asset was supplied'],
    },
    'GATE-ELIG-DEFAULT-CURRENCY': {
      title: 'default_currency is the resolved region default ISO 4217 currency',
      kind: 'field',
      section: 'Resources and their fields > Eligibility',
      anchor: '| default_currency | string or null | ISO 4217 |',
    },
  },
});

export default area;

declare module '../define.js' {
  interface CatalogueAreas {
    'gate/eligibility': typeof area.entries;
  }
}
