// Gate "Endpoints > Branding" with the Branding resource and its limits.
import { defineArea } from '../define.js';

const area = defineArea({
  service: 'gate',
  section: 'Resources and their fields > Branding',
  entries: {
    'GATE-BRAND-GET-SHAPE': {
      title: 'GET /branding answers object branding with logo_url, primary_color, secondary_color, accent_color, brand_name all present (null when unset)',
      kind: 'envelope',
      anchor: [
        'Response object: `object` = `branding`, plus `logo_url`, `primary_color`, `secondary_color`, `accent_color`, `brand_name`.',
        'All five are required in the response and are null when unset.',
        '| GET | /branding | SK | Branding. |',
        'Single-object responses carry an `object` discriminator string.',
      ],
    },
    'GATE-BRAND-UNSET-NULL': {
      title: 'a token never set reads null: a partner that never set its branding reads all five null, the default branding',
      kind: 'field',
      anchor: ['All five are required in the response and are null when unset.', 'All-null means default branding.'],
      needs: ['gateBrandingUnset'],
    },
    'GATE-BRAND-PATCH-MERGE': {
      title: 'PATCH /branding merges supplied tokens onto current branding; omitted tokens are kept; the response is Branding',
      kind: 'field',
      section: 'Endpoints > Branding',
      anchor: ['Merges supplied tokens onto current branding; omitted tokens are kept.', 'Update object: all fields optional and no other properties allowed.'],
    },
    'GATE-BRAND-PATCH-UNKNOWN-400': {
      title: 'A BrandingUpdate with an unknown property gives 400 invalid_request',
      kind: 'error',
      anchor: ['Unknown properties give 400.', 'Update object: all fields optional and no other properties allowed.'],
    },
    'GATE-BRAND-NAME-MAX-64': {
      title: 'brand_name of 64 chars is accepted, 65 gives 400',
      kind: 'limit',
      section: 'Limits',
      anchor: ['`brand_name` has at most 64 chars.', 'Branding: `logo_url` ≤ 2048 chars, `brand_name` ≤ 64 chars.'],
    },
    'GATE-BRAND-LOGO-MAX-2048': {
      title: 'logo_url of 2048 chars is accepted, 2049 gives 400',
      kind: 'limit',
      section: 'Limits',
      anchor: ['`logo_url` is an absolute https URI of at most 2048 chars.', 'Branding: `logo_url` ≤ 2048 chars'],
    },
    'GATE-BRAND-LOGO-HTTPS': {
      title: 'logo_url must be an absolute https URI: http:// and relative URIs give 400',
      kind: 'field',
      anchor: '`logo_url` is an absolute https URI',
    },
    'GATE-BRAND-COLOR-PATTERN': {
      title: 'primary_color, secondary_color and accent_color match ^#[0-9a-fA-F]{6}$; others give 400',
      kind: 'field',
      anchor: 'The three colors match `^#[0-9a-fA-F]{6}$`.',
    },
    'GATE-BRAND-TENANT': {
      title: "Branding is the partner's own: one partner's PATCH /branding never shows in another partner's GET /branding",
      kind: 'auth',
      section: 'What the service does',
      anchor: ['Every resource is scoped to the partner and the environment (test or live) of the credential.', 'Body: BrandingUpdate.'],
    },
  },
});

export default area;

declare module '../define.js' {
  interface CatalogueAreas {
    'gate/branding': typeof area.entries;
  }
}
