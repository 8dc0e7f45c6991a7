// Gate capability resources: Asset, Payment method, Eligibility (loose objects, strict documented types).
import { z } from 'zod';
import { Decimal, Iso4217, listOf } from '../common.js';

export const ASSET_SIDES = ['on_ramp', 'off_ramp'] as const;

export const AssetNetwork = z.looseObject({
  chain: z.string(),
  name: z.string(),
  /** null for a native asset. */
  contract_address: z.string().nullable(),
});

export const Asset = z.looseObject({
  object: z.literal('asset'),
  symbol: z.string().min(1),
  /** Falls back to the symbol, so never empty. */
  name: z.string().min(1),
  side: z.enum(ASSET_SIDES),
  active: z.boolean(),
  icon_url: z.string().nullable(),
  networks: z.array(AssetNetwork),
  min_amount: Decimal.nullable(),
  max_amount: Decimal.nullable(),
  currency: Iso4217.nullable().optional(),
});
export type Asset = z.infer<typeof Asset>;

/** The single-asset response: currency is present there (ISO 4217 or null). */
export const SingleAsset = Asset.extend({ currency: Iso4217.nullable() });

export const AssetList = listOf(Asset);

export const PaymentMethod = z.looseObject({
  object: z.literal('payment_method'),
  id: z.string().min(1),
  name: z.string(),
  currency: Iso4217,
  side: z.literal('on_ramp'),
  icon_url: z.string().nullable(),
  fees: z.record(z.string(), z.unknown()),
});
export type PaymentMethod = z.infer<typeof PaymentMethod>;

/** has_more is always false on this list. */
export const PaymentMethodList = listOf(PaymentMethod).extend({ has_more: z.literal(false) });

/** Countries and currencies: list envelope only, item shape not shown. */
export const UnshapedList = listOf(z.unknown());

export const GEO_SOURCES = ['explicit', 'ip', 'none'] as const;
export const UNAVAILABLE_REASONS = ['country_unresolved', 'country_not_supported', 'currency_not_supported', 'asset_not_supported'] as const;

export const Eligibility = z.looseObject({
  object: z.literal('eligibility'),
  country_code: z
    .string()
    .regex(/^[A-Za-z]{2}$/, 'ISO 3166-1 alpha-2')
    .nullable(),
  eligible: z.boolean(),
  supported: z.boolean(),
  default_currency: Iso4217.nullable(),
  currency_supported: z.boolean().nullable(),
  asset_supported: z.boolean().nullable(),
  geo_source: z.enum(GEO_SOURCES),
  unavailable_reason: z.enum(UNAVAILABLE_REASONS).nullable(),
});
export type Eligibility = z.infer<typeof Eligibility>;
