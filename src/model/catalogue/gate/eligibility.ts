// Gate "Endpoints > Capabilities": GET /capabilities/eligibility (the Eligibility resource).
// The ip-geo rules need rampart to choose (or omit) the edge country header: gateEdgeCountry.
import { defineArea } from '../define.js';

const area = defineArea({
  service: 'gate',
  section: 'Endpoints > Capabilities',
  entries: {
    'GATE-ELIG-SHAPE': { title: 'GET /capabilities/eligibility answers an Eligibility (object eligibility, country_code, eligible, supported, default_currency, currency_supported, asset_supported, geo_source, unavailable_reason)', kind: 'envelope', section: 'Resources and their fields > Eligibility' },
    'GATE-ELIG-GEO-SOURCE-EXPLICIT': { title: 'With query country_code, geo_source is explicit and country_code is that country', kind: 'enum', section: 'Resources and their fields > Eligibility' },
    'GATE-ELIG-GEO-SOURCE-IP': { title: 'Without country_code the edge header cf-ipcountry is used: geo_source ip', kind: 'enum', section: 'Resources and their fields > Eligibility', needs: ['gateEdgeCountry'] },
    'GATE-ELIG-COUNTRY-UNRESOLVED': { title: 'With neither, geo_source none, country_code null, eligible false, unavailable_reason country_unresolved', kind: 'enum', section: 'Resources and their fields > Eligibility', needs: ['gateEdgeCountry'] },
    'GATE-ELIG-EXPLICIT-OVER-IP': { title: 'The edge country header is used only without country_code: the query parameter wins', kind: 'field', needs: ['gateEdgeCountry'] },
    'GATE-ELIG-COUNTRY-NOT-SUPPORTED': { title: 'An unsupported region: eligible false, supported false, unavailable_reason country_not_supported', kind: 'enum', section: 'Resources and their fields > Eligibility' },
    'GATE-ELIG-CURRENCY-NOT-SUPPORTED': { title: 'An unsupported currency in a supported region: currency_supported false, eligible false, unavailable_reason currency_not_supported', kind: 'enum', section: 'Resources and their fields > Eligibility' },
    'GATE-ELIG-ASSET-NOT-SUPPORTED': { title: 'An unknown or inactive asset: asset_supported false, eligible false, unavailable_reason asset_not_supported', kind: 'enum', section: 'Resources and their fields > Eligibility' },
    'GATE-ELIG-ELIGIBLE': { title: 'eligible true only when the region is supported and every requested refinement passed; unavailable_reason null then', kind: 'field', section: 'Resources and their fields > Eligibility' },
    'GATE-ELIG-REFINEMENTS-NULL': { title: 'currency_supported and asset_supported are null when no currency / asset was supplied', kind: 'field', section: 'Resources and their fields > Eligibility' },
    'GATE-ELIG-DEFAULT-CURRENCY': { title: 'default_currency is the resolved region default ISO 4217 currency', kind: 'field', section: 'Resources and their fields > Eligibility' },
  },
});

export default area;

declare module '../define.js' {
  interface CatalogueAreas {
    'gate/eligibility': typeof area.entries;
  }
}
