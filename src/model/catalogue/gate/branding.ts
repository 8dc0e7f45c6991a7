// Gate "Endpoints > Branding" with the Branding resource and its limits.
import { defineArea } from '../define.js';

const area = defineArea({
  service: 'gate',
  section: 'Resources and their fields > Branding',
  entries: {
    'GATE-BRAND-GET-SHAPE': { title: 'GET /branding answers object branding with logo_url, primary_color, secondary_color, accent_color, brand_name all present (null when unset)', kind: 'envelope' },
    'GATE-BRAND-PATCH-MERGE': { title: 'PATCH /branding merges supplied tokens onto current branding; omitted tokens are kept; the response is Branding', kind: 'field', section: 'Endpoints > Branding' },
    'GATE-BRAND-PATCH-UNKNOWN-400': { title: 'A BrandingUpdate with an unknown property gives 400 invalid_request', kind: 'error' },
    'GATE-BRAND-NAME-MAX-64': { title: 'brand_name of 64 chars is accepted, 65 gives 400', kind: 'limit', section: 'Limits' },
    'GATE-BRAND-LOGO-MAX-2048': { title: 'logo_url of 2048 chars is accepted, 2049 gives 400', kind: 'limit', section: 'Limits' },
    'GATE-BRAND-LOGO-HTTPS': { title: 'logo_url must be an absolute https URI: http:// and relative URIs give 400', kind: 'field' },
    'GATE-BRAND-COLOR-PATTERN': { title: 'primary_color, secondary_color and accent_color match ^#[0-9a-fA-F]{6}$; others give 400', kind: 'field' },
  },
});

export default area;

declare module '../define.js' {
  interface CatalogueAreas {
    'gate/branding': typeof area.entries;
  }
}
