// Gate "Endpoints > Branding" with the Branding resource and its limits.
import type { Requirement } from '../types.js';

const EP = 'Endpoints > Branding';
const RES = 'Resources and their fields > Branding';
const r = (id: string, section: string, title: string, kind: Requirement['kind']): Requirement => ({
  id,
  service: 'gate',
  section,
  title,
  kind,
  roles: ['gate.partner'],
  suite: 'conformance',
});

export const requirements: Requirement[] = [
  r('GATE-BRAND-GET-SHAPE', RES, 'GET /branding answers object branding with logo_url, primary_color, secondary_color, accent_color, brand_name all present (null when unset)', 'envelope'),
  r('GATE-BRAND-PATCH-MERGE', EP, 'PATCH /branding merges supplied tokens onto current branding; omitted tokens are kept; the response is Branding', 'field'),
  r('GATE-BRAND-PATCH-UNKNOWN-400', RES, 'A BrandingUpdate with an unknown property gives 400 invalid_request', 'error'),
  r('GATE-BRAND-NAME-MAX-64', 'Limits', 'brand_name of 64 chars is accepted, 65 gives 400', 'limit'),
  r('GATE-BRAND-LOGO-MAX-2048', 'Limits', 'logo_url of 2048 chars is accepted, 2049 gives 400', 'limit'),
  r('GATE-BRAND-LOGO-HTTPS', RES, 'logo_url must be an absolute https URI: http:// and relative URIs give 400', 'field'),
  r('GATE-BRAND-COLOR-PATTERN', RES, 'primary_color, secondary_color and accent_color match ^#[0-9a-fA-F]{6}$; others give 400', 'field'),
];
