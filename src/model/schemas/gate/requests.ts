// Gate request bodies the spec documents. Strict (unknown keys refused) only
// where the spec says unknown properties give 400; elsewhere open, because what
// the service does with extra keys is not shown.
import { z } from 'zod';
import { GATE_LIMITS } from '../../limits.js';
import { Decimal } from '../common.js';

const Metadata = z.record(z.string(), z.unknown());

/** POST /gate_sessions: amount, currency and return_url in every example; the rest optional. */
export const CreateGateSessionBody = z.looseObject({
  amount: Decimal,
  currency: z.string().describe('ISO 4217'),
  return_url: z.string(),
  cancel_url: z.string().optional(),
  flow: z.string().describe('on_ramp is one value; the full set is not shown').optional(),
  target_token: z.string().optional(),
  target_network: z.string().optional(),
  wallet_address: z.string().optional(),
  user_reference: z.string().describe('opaque partner correlation id').optional(),
  metadata: Metadata.optional(),
  kyc_package: z.unknown().describe('shape not shown').optional(),
});

/** POST /embed/bootstrap. */
export const EmbedBootstrapBody = z.looseObject({
  clientSecret: z.string().describe('the session client_secret (gsec_…) binding the bootstrap to one session').optional(),
});

const color = z.string().regex(GATE_LIMITS.branding.colorPattern, 'color #rrggbb');

/** PATCH /branding: every token optional, no other properties allowed. */
export const BrandingUpdate = z.strictObject({
  logo_url: z
    .string()
    .max(GATE_LIMITS.branding.logoUrlMax)
    .regex(/^https:\/\//, 'absolute https URI')
    .optional(),
  primary_color: color.optional(),
  secondary_color: color.optional(),
  accent_color: color.optional(),
  brand_name: z.string().max(GATE_LIMITS.branding.brandNameMax).optional(),
});

const name = z.string().max(GATE_LIMITS.customers.nameMax).nullable();

/** PATCH /customers/{id}: null clears, omitted keeps; any other key gives 400. */
export const CustomerUpdate = z.strictObject({
  first_name: name.optional(),
  last_name: name.optional(),
  country_code: z.string().regex(GATE_LIMITS.customers.countryCodePattern, 'ISO 3166-1 alpha-2').nullable().optional(),
  metadata: Metadata.describe('replaces the stored object').optional(),
});

/** POST /rails/pay_outs: amount, currency and method come from the quote and are not accepted. */
export const PayOutBody = z.looseObject({
  gate_session_id: z.string().max(GATE_LIMITS.payOut.gateSessionIdMax),
  quote_id: z.string().max(GATE_LIMITS.payOut.quoteIdMax),
  reference: z.string().max(GATE_LIMITS.payOut.referenceMax).optional(),
  metadata: Metadata.optional(),
});
