// Gate Branding: the response (five tokens, all present, null when unset).
import { z } from 'zod';

export const BRANDING_TOKENS = ['logo_url', 'primary_color', 'secondary_color', 'accent_color', 'brand_name'] as const;
export type BrandingToken = (typeof BRANDING_TOKENS)[number];

const color = z.string().regex(/^#[0-9a-fA-F]{6}$/, 'color #rrggbb');

/** Every token is required in the response (nullable, never omitted). */
export const Branding = z.looseObject({
  object: z.literal('branding'),
  logo_url: z.string().nullable(),
  primary_color: color.nullable(),
  secondary_color: color.nullable(),
  accent_color: color.nullable(),
  brand_name: z.string().nullable(),
});
export type Branding = z.infer<typeof Branding>;
