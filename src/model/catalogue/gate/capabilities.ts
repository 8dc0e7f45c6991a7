// Gate "Endpoints > Capabilities" with the Asset, Payment method and Eligibility resources.
import type { Requirement } from '../types.js';

const CAP = 'Endpoints > Capabilities';
const ELIG = 'Resources and their fields > Eligibility';
const r = (id: string, section: string, title: string, kind: Requirement['kind'], roles: Requirement['roles']): Requirement => ({
  id,
  service: 'gate',
  section,
  title,
  kind,
  roles,
  suite: 'conformance',
});

export const requirements: Requirement[] = [
  r('GATE-CAP-LISTS-ENVELOPE', CAP, 'GET /capabilities/countries and /capabilities/currencies answer list responses (object list, data, has_more, url)', 'envelope', ['gate.partner']),
  r('GATE-CAP-ASSETS-LIST', CAP, 'GET /capabilities/assets answers a list of Asset (object asset, symbol, name, side on_ramp|off_ramp, active, icon_url, networks[], min_amount, max_amount)', 'envelope', ['gate.partner']),
  r('GATE-CAP-ASSET-SINGLE', CAP, 'GET /capabilities/assets/{symbol} answers a single Asset, not wrapped, with currency present', 'status', ['gate.partner', 'gate.catalog.asset']),
  r('GATE-CAP-ASSET-SYMBOL-CASE-INSENSITIVE', CAP, 'The path symbol of GET /capabilities/assets/{symbol} is case-insensitive', 'field', ['gate.partner', 'gate.catalog.asset']),
  r('GATE-CAP-ASSET-SIDE-DEFAULT', CAP, 'Query side defaults to on_ramp (off_ramp is the other value)', 'field', ['gate.partner', 'gate.catalog.onRampOnlyAsset']),
  r('GATE-CAP-ASSET-UNKNOWN-404', CAP, 'An unknown symbol gives 404', 'error', ['gate.partner']),
  r('GATE-CAP-ASSET-INACTIVE-404', CAP, 'An inactive symbol gives 404', 'error', ['gate.partner', 'gate.catalog.inactiveAsset']),
  r('GATE-CAP-ASSET-SIDE-404', CAP, 'A symbol not transactable on the requested side gives 404', 'error', ['gate.partner', 'gate.catalog.onRampOnlyAsset']),
  r('GATE-CAP-ASSET-REGION-404', CAP, 'A symbol not offered in the resolved region gives 404', 'error', ['gate.partner', 'gate.catalog.asset', 'gate.catalog.country']),
  r('GATE-CAP-PM-LIST', CAP, 'GET /capabilities/payment-methods answers a list of payment_method (id, name, currency, side on_ramp, icon_url, fees object) ', 'envelope', ['gate.partner', 'gate.catalog.currency']),
  r('GATE-CAP-PM-HAS-MORE-FALSE', CAP, 'The payment-methods list has has_more always false', 'pagination', ['gate.partner', 'gate.catalog.currency']),
  r('GATE-CAP-PM-CURRENCY', CAP, 'Query currency selects the payment methods of that currency', 'field', ['gate.partner', 'gate.catalog.currency']),
  r('GATE-CAP-PM-COUNTRY-DEFAULT-FIAT', CAP, 'Query country_code resolves the country default fiat', 'field', ['gate.partner', 'gate.catalog.country']),
  r('GATE-CAP-PM-CURRENCY-PRECEDENCE', CAP, 'When both are given, currency takes precedence over country_code', 'field', ['gate.partner', 'gate.catalog.country', 'gate.catalog.currency', 'gate.catalog.noMethods']),
  r('GATE-CAP-PM-EMPTY-200', CAP, 'When no currency resolves (or it has no method), 200 with empty data', 'status', ['gate.partner', 'gate.catalog.noMethods']),
  r('GATE-ELIG-SHAPE', ELIG, 'GET /capabilities/eligibility answers an Eligibility (object eligibility, country_code, eligible, supported, default_currency, currency_supported, asset_supported, geo_source, unavailable_reason)', 'envelope', ['gate.partner', 'gate.catalog.country']),
  r('GATE-ELIG-GEO-SOURCE-EXPLICIT', ELIG, 'With query country_code, geo_source is explicit and country_code is that country', 'enum', ['gate.partner', 'gate.catalog.country']),
  r('GATE-ELIG-GEO-SOURCE-IP', ELIG, 'Without country_code the edge header cf-ipcountry is used: geo_source ip', 'enum', ['gate.partner', 'gate.catalog.country']),
  r('GATE-ELIG-COUNTRY-UNRESOLVED', ELIG, 'With neither, geo_source none, country_code null, eligible false, unavailable_reason country_unresolved', 'enum', ['gate.partner']),
  r('GATE-ELIG-EXPLICIT-OVER-IP', CAP, 'The edge country header is used only without country_code: the query parameter wins', 'field', ['gate.partner', 'gate.catalog.country']),
  r('GATE-ELIG-COUNTRY-NOT-SUPPORTED', ELIG, 'An unsupported region: eligible false, supported false, unavailable_reason country_not_supported', 'enum', ['gate.partner', 'gate.catalog.country']),
  r('GATE-ELIG-CURRENCY-NOT-SUPPORTED', ELIG, 'An unsupported currency in a supported region: currency_supported false, eligible false, unavailable_reason currency_not_supported', 'enum', ['gate.partner', 'gate.catalog.country', 'gate.catalog.currency']),
  r('GATE-ELIG-ASSET-NOT-SUPPORTED', ELIG, 'An unknown or inactive asset: asset_supported false, eligible false, unavailable_reason asset_not_supported', 'enum', ['gate.partner', 'gate.catalog.country', 'gate.catalog.inactiveAsset']),
  r('GATE-ELIG-ELIGIBLE', ELIG, 'eligible true only when the region is supported and every requested refinement passed; unavailable_reason null then', 'field', ['gate.partner', 'gate.catalog.country', 'gate.catalog.currency', 'gate.catalog.asset']),
  r('GATE-ELIG-REFINEMENTS-NULL', ELIG, 'currency_supported and asset_supported are null when no currency / asset was supplied', 'field', ['gate.partner', 'gate.catalog.country']),
  r('GATE-ELIG-DEFAULT-CURRENCY', ELIG, 'default_currency is the resolved region default ISO 4217 currency', 'field', ['gate.partner', 'gate.catalog.country']),
];
