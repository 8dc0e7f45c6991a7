// Gate request bodies the spec documents. Strict (unknown keys refused) only
// where the spec says unknown properties give 400; elsewhere open, because what
// the service does with extra keys is not shown.
import { z } from 'zod';
import { GATE_LIMITS } from '../../limits.js';
import { Decimal } from '../common.js';

const Metadata = z.record(z.string(), z.unknown());
/** An ISO 4217 alphabetic code as a request carries it (the session stores it uppercased). */
const CURRENCY_CODE = /^[A-Za-z]{3}$/;
/** A field the spec says the partner cannot set: present, it is refused (JSON Schema `not: {}`). */
const NotAccepted = (why: string) => z.never().describe(why).optional();

/** A URL the browser is sent to: an absolute URI (format uri). */
const RedirectUrl = z.url();

/**
 * POST /gate_sessions: amount, currency and return_url in every example, and required; the rest optional.
 * Extra keys: what the service does with them is not shown (the object stays open).
 */
export const CreateGateSessionBody = z.looseObject({
  amount: Decimal,
  currency: z.string().regex(CURRENCY_CODE, 'ISO 4217').describe('ISO 4217 alphabetic code; the session holds it uppercased'),
  return_url: RedirectUrl.describe('success redirect'),
  cancel_url: RedirectUrl.describe('cancel redirect').optional(),
  flow: z.string().describe('locked flow: on_ramp is one value; the full set is not shown').optional(),
  target_token: z.string().describe('token constraint').optional(),
  target_network: z.string().describe('network constraint').optional(),
  wallet_address: z.string().describe('pre-filled wallet').optional(),
  user_reference: z.string().describe('opaque partner correlation id').optional(),
  metadata: Metadata.describe('returned verbatim').optional(),
  kyc_package: z.unknown().describe('shape not shown').optional(),
});

/** POST /embed/bootstrap: the session's client_secret (prefix gsec_), optional. */
export const EmbedBootstrapBody = z.looseObject({
  clientSecret: z
    .string()
    .regex(/^gsec_/, 'client_secret starts with gsec_')
    .describe('the session client_secret binding the bootstrap to one session')
    .optional(),
});

const color = z.string().regex(GATE_LIMITS.branding.colorPattern, 'color #rrggbb');

/** PATCH /branding: every token optional, no other properties allowed. */
export const BrandingUpdate = z.strictObject({
  logo_url: z
    .url()
    .max(GATE_LIMITS.branding.logoUrlMax)
    .regex(/^https:\/\//, 'absolute https URI')
    // zod keeps the pattern and drops the url format when both are set: name it again.
    .meta({ format: 'uri' })
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

/**
 * POST /customers. The spec shows no request body, but documents what a creation carries: every Customer has
 * external_id, email and phone as strings that are immutable after creation (and PATCH refuses them), so the
 * creation sets them; duplicates of email or external_id give 409. kyc_status and mode are server-managed and
 * cannot be set by the partner. The names and country take the Customer's bounds. Other fields: not shown.
 */
export const CreateCustomerBody = z.looseObject({
  external_id: z.string().describe("the partner's id of the customer; immutable after creation; unique (409)"),
  email: z.string().describe('immutable after creation; unique (409)'),
  phone: z.string().describe('immutable after creation'),
  first_name: name.optional(),
  last_name: name.optional(),
  country_code: z.string().regex(GATE_LIMITS.customers.countryCodePattern, 'ISO 3166-1 alpha-2').nullable().optional(),
  metadata: Metadata.describe('free-form key/value').optional(),
  kyc_status: NotAccepted('server-managed, informational: cannot be set by the partner'),
  mode: NotAccepted('server-managed'),
});

/** POST /rails/pay_outs: amount, currency and method come from the quote and are not accepted. */
export const PayOutBody = z.looseObject({
  gate_session_id: z.string().max(GATE_LIMITS.payOut.gateSessionIdMax),
  quote_id: z.string().max(GATE_LIMITS.payOut.quoteIdMax),
  reference: z.string().max(GATE_LIMITS.payOut.referenceMax).optional(),
  metadata: Metadata.optional(),
  amount: NotAccepted('comes from the locked quote: not accepted in the body (400)'),
  currency: NotAccepted('comes from the locked quote: not accepted in the body (400)'),
  method: NotAccepted('comes from the locked quote: not accepted in the body (400)'),
});
