// Gate "GET /capabilities/eligibility": geo_source (explicit, ip, none), each
// unavailable_reason, and eligible only when every refinement passed.
import { defineSuite, type CheckContext } from '../../src/runner/check.js';
import { Eligibility } from '../../src/model/schemas/gate/capabilities.js';
import type { Exchange } from '../../src/client/types.js';

const PATH = '/capabilities/eligibility';
const catalog = (ctx: CheckContext) => ctx.profile.gate.catalog;

async function eligibility(ctx: CheckContext, query: Record<string, string>, requirement: string, edgeCountry?: string) {
  const ex = await ctx.gate.partner().client.get(PATH, query, edgeCountry ? { headers: { 'cf-ipcountry': edgeCountry } } : {});
  ctx.expect.status(ex, 200, requirement);
  return { ex, e: ctx.expect.schema(ex, Eligibility, requirement) };
}

/** Assert several fields of one answer, each under its own requirement. */
function fields(ctx: CheckContext, ex: Exchange, actual: Record<string, unknown>, expected: Record<string, unknown>, requirement: string): void {
  for (const [k, v] of Object.entries(expected)) {
    const got = typeof actual[k] === 'string' && typeof v === 'string' ? (actual[k] as string).toUpperCase() : actual[k];
    const want = typeof v === 'string' ? v.toUpperCase() : v;
    ctx.expect.equal(got, want, `eligibility.${k}`, { requirement, exchange: ex });
  }
}

export default defineSuite({
  service: 'gate',
  section: 'Resources and their fields > Eligibility',
  checks: [
    {
      name: 'explicit supported country: geo_source explicit, default currency, refinements null',
      requirements: ['GATE-ELIG-SHAPE', 'GATE-ELIG-GEO-SOURCE-EXPLICIT', 'GATE-ELIG-REFINEMENTS-NULL', 'GATE-ELIG-DEFAULT-CURRENCY'],
      needs: ['gate.partner', 'gate.catalog.country'],
      async run(ctx: CheckContext) {
        const { supportedCountry, supportedCountryCurrency } = catalog(ctx);
        const { ex, e } = await eligibility(ctx, { country_code: supportedCountry! }, 'GATE-ELIG-SHAPE');
        fields(ctx, ex, e, { geo_source: 'explicit', country_code: supportedCountry, supported: true }, 'GATE-ELIG-GEO-SOURCE-EXPLICIT');
        fields(ctx, ex, e, { currency_supported: null, asset_supported: null }, 'GATE-ELIG-REFINEMENTS-NULL');
        fields(ctx, ex, e, { default_currency: supportedCountryCurrency }, 'GATE-ELIG-DEFAULT-CURRENCY');
      },
    },
    {
      name: 'without country_code the cf-ipcountry header resolves the region: geo_source ip',
      requirements: ['GATE-ELIG-GEO-SOURCE-IP'],
      needs: ['gate.partner', 'gate.catalog.country'],
      async run(ctx: CheckContext) {
        const R = 'GATE-ELIG-GEO-SOURCE-IP';
        const { supportedCountry } = catalog(ctx);
        const { ex, e } = await eligibility(ctx, {}, R, supportedCountry!);
        fields(ctx, ex, e, { geo_source: 'ip', country_code: supportedCountry, supported: true }, R);
      },
    },
    {
      name: 'country_code wins over the cf-ipcountry header',
      requirements: ['GATE-ELIG-EXPLICIT-OVER-IP'],
      needs: ['gate.partner', 'gate.catalog.country'],
      async run(ctx: CheckContext) {
        const R = 'GATE-ELIG-EXPLICIT-OVER-IP';
        const { supportedCountry, unsupportedCountry } = catalog(ctx);
        const { ex, e } = await eligibility(ctx, { country_code: supportedCountry! }, R, unsupportedCountry!);
        fields(ctx, ex, e, { geo_source: 'explicit', country_code: supportedCountry, supported: true, eligible: true }, R);
      },
    },
    {
      name: 'no country at all: geo_source none, country_code null, country_unresolved',
      requirements: ['GATE-ELIG-COUNTRY-UNRESOLVED'],
      needs: ['gate.partner'],
      async run(ctx: CheckContext) {
        const R = 'GATE-ELIG-COUNTRY-UNRESOLVED';
        const { ex, e } = await eligibility(ctx, {}, R);
        fields(ctx, ex, e, { geo_source: 'none', country_code: null, eligible: false, unavailable_reason: 'country_unresolved' }, R);
      },
    },
    {
      name: 'an unsupported country: supported false, eligible false, country_not_supported',
      requirements: ['GATE-ELIG-COUNTRY-NOT-SUPPORTED'],
      needs: ['gate.partner', 'gate.catalog.country'],
      async run(ctx: CheckContext) {
        const R = 'GATE-ELIG-COUNTRY-NOT-SUPPORTED';
        const { unsupportedCountry } = catalog(ctx);
        const { ex, e } = await eligibility(ctx, { country_code: unsupportedCountry! }, R);
        fields(ctx, ex, e, { geo_source: 'explicit', supported: false, eligible: false, unavailable_reason: 'country_not_supported' }, R);
      },
    },
    {
      name: 'an unsupported currency in a supported country: currency_supported false, currency_not_supported',
      requirements: ['GATE-ELIG-CURRENCY-NOT-SUPPORTED'],
      needs: ['gate.partner', 'gate.catalog.country', 'gate.catalog.currency'],
      async run(ctx: CheckContext) {
        const R = 'GATE-ELIG-CURRENCY-NOT-SUPPORTED';
        const { supportedCountry, unsupportedCurrency } = catalog(ctx);
        const { ex, e } = await eligibility(ctx, { country_code: supportedCountry!, currency: unsupportedCurrency! }, R);
        fields(ctx, ex, e, { supported: true, currency_supported: false, asset_supported: null, eligible: false, unavailable_reason: 'currency_not_supported' }, R);
      },
    },
    {
      name: 'an inactive or unknown asset: asset_supported false, asset_not_supported',
      requirements: ['GATE-ELIG-ASSET-NOT-SUPPORTED'],
      needs: ['gate.partner', 'gate.catalog.country', 'gate.catalog.inactiveAsset'],
      async run(ctx: CheckContext) {
        const R = 'GATE-ELIG-ASSET-NOT-SUPPORTED';
        const { supportedCountry, inactiveAsset } = catalog(ctx);
        for (const asset of [inactiveAsset!, 'NOSUCHASSETZZ']) {
          const { ex, e } = await eligibility(ctx, { country_code: supportedCountry!, asset }, R);
          fields(ctx, ex, e, { supported: true, currency_supported: null, asset_supported: false, eligible: false, unavailable_reason: 'asset_not_supported' }, R);
        }
      },
    },
    {
      name: 'supported country, currency and asset: eligible true, reason null',
      requirements: ['GATE-ELIG-ELIGIBLE'],
      needs: ['gate.partner', 'gate.catalog.country', 'gate.catalog.currency', 'gate.catalog.asset'],
      async run(ctx: CheckContext) {
        const R = 'GATE-ELIG-ELIGIBLE';
        const { supportedCountry, supportedCurrency, activeAsset } = catalog(ctx);
        const { ex, e } = await eligibility(ctx, { country_code: supportedCountry!, currency: supportedCurrency!, asset: activeAsset! }, R);
        fields(ctx, ex, e, { supported: true, currency_supported: true, asset_supported: true, eligible: true, unavailable_reason: null }, R);
      },
    },
  ],
});
