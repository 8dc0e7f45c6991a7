// Eligibility: GET /capabilities/eligibility on the capabilities catalogue
// (capabilities.ts). The region is the explicit country_code, else the edge
// country header cf-ipcountry, else unresolved; then the currency and asset
// refinements.
//
// Not shown — chosen:
// - cf-ipcountry values that are not two letters, and Cloudflare's XX/T1 placeholders, count as
//   unresolved. A malformed explicit country_code or currency gives 400.
// - unavailable_reason names the first failed refinement in the order region, currency, asset.
// - default_currency is null for a region that is not supported.
import { HttpError } from '../kit/http.js';
import { countryParam, CURRENCY_RE, currencySupported, findAsset, findCountry, ipCountry } from './capabilities.js';
import type { GateArea } from './world.js';

export const area: GateArea = {
  name: 'eligibility',
  faults: [
    {
      name: 'elig-object-missing',
      service: 'gate',
      requirements: ['GATE-ELIG-SHAPE'],
      description: 'The Eligibility response carries no object discriminator.',
      suite: 'conformance',
    },
    {
      name: 'elig-explicit-reported-ip',
      service: 'gate',
      requirements: ['GATE-ELIG-GEO-SOURCE-EXPLICIT'],
      description: 'eligibility resolved from the country_code query reports geo_source ip.',
      suite: 'conformance',
    },
    {
      name: 'elig-ip-reported-explicit',
      service: 'gate',
      requirements: ['GATE-ELIG-GEO-SOURCE-IP'],
      description: 'eligibility resolved from cf-ipcountry reports geo_source explicit.',
      suite: 'conformance',
    },
    {
      name: 'elig-ip-over-explicit',
      service: 'gate',
      requirements: ['GATE-ELIG-EXPLICIT-OVER-IP'],
      description: 'eligibility prefers the cf-ipcountry header over an explicit country_code.',
      suite: 'conformance',
    },
    {
      name: 'elig-unresolved-no-reason',
      service: 'gate',
      requirements: ['GATE-ELIG-COUNTRY-UNRESOLVED'],
      description: 'eligibility without any country reports unavailable_reason null.',
      suite: 'conformance',
    },
    {
      name: 'elig-unsupported-reported-unresolved',
      service: 'gate',
      requirements: ['GATE-ELIG-COUNTRY-NOT-SUPPORTED'],
      description: 'An unsupported country reports unavailable_reason country_unresolved instead of country_not_supported.',
      suite: 'conformance',
    },
    {
      name: 'elig-ignores-currency',
      service: 'gate',
      requirements: ['GATE-ELIG-CURRENCY-NOT-SUPPORTED'],
      description: 'eligibility stays eligible with an unsupported currency (currency_supported true, no unavailable_reason).',
      suite: 'conformance',
    },
    {
      name: 'elig-inactive-asset-supported',
      service: 'gate',
      requirements: ['GATE-ELIG-ASSET-NOT-SUPPORTED'],
      description: 'asset_supported only checks that the asset exists: an inactive asset reads as supported.',
      suite: 'conformance',
    },
    {
      name: 'elig-eligible-ignores-asset',
      service: 'gate',
      requirements: ['GATE-ELIG-ELIGIBLE'],
      description: 'eligible is true although the asset refinement failed (asset_supported false).',
      suite: 'conformance',
    },
    {
      name: 'elig-refinements-false',
      service: 'gate',
      requirements: ['GATE-ELIG-REFINEMENTS-NULL'],
      description: 'currency_supported and asset_supported are false instead of null when no currency or asset was supplied.',
      suite: 'conformance',
    },
    {
      name: 'elig-default-currency-null',
      service: 'gate',
      requirements: ['GATE-ELIG-DEFAULT-CURRENCY'],
      description: 'default_currency is null for a supported region.',
      suite: 'conformance',
    },
  ],
  register(router, world) {
    const f = world.faults;
    router.on('GET', '/capabilities/eligibility', (req) => {
      world.authSecret(req);
      const explicitQ = countryParam(req);
      const explicit = f.has('elig-ip-over-explicit') && ipCountry(req) ? null : explicitQ;
      const ip = explicit ? null : ipCountry(req);
      const code = explicit ?? ip;
      let geo: 'explicit' | 'ip' | 'none' = explicit ? 'explicit' : ip ? 'ip' : 'none';
      if (geo === 'ip' && f.has('elig-ip-reported-explicit')) geo = 'explicit';
      else if (geo === 'explicit' && f.has('elig-explicit-reported-ip')) geo = 'ip';
      const country = code ? findCountry(code) : undefined;
      const supported = !!country?.supported;

      const curQ = req.query.get('currency');
      if (curQ !== null && curQ !== '' && !CURRENCY_RE.test(curQ)) throw new HttpError(400, 'currency must be an ISO 4217 code', 'invalid_currency');
      let currencyOk: boolean | null = curQ ? currencySupported(curQ) : null;
      if (currencyOk === false && f.has('elig-ignores-currency')) currencyOk = true;
      const assetQ = req.query.get('asset');
      const asset = assetQ ? findAsset(assetQ) : undefined;
      const assetOk: boolean | null = assetQ ? !!asset && (asset.active || f.has('elig-inactive-asset-supported')) : null;

      let reason: string | null = null;
      if (!code) reason = f.has('elig-unresolved-no-reason') ? null : 'country_unresolved';
      else if (!supported) reason = f.has('elig-unsupported-reported-unresolved') ? 'country_unresolved' : 'country_not_supported';
      else if (currencyOk === false) reason = 'currency_not_supported';
      else if (assetOk === false) reason = 'asset_not_supported';
      const eligible = !!code && supported && currencyOk !== false && (assetOk !== false || f.has('elig-eligible-ignores-asset'));
      const unset = f.has('elig-refinements-false') ? false : null;
      const body: Record<string, unknown> = {
        object: 'eligibility',
        country_code: code,
        eligible,
        supported,
        default_currency: supported && !f.has('elig-default-currency-null') ? (country?.defaultCurrency ?? null) : null,
        currency_supported: currencyOk ?? unset,
        asset_supported: assetOk ?? unset,
        geo_source: geo,
        unavailable_reason: eligible ? null : reason,
      };
      if (f.has('elig-object-missing')) delete body.object;
      return { status: 200, body };
    });
  },
};
