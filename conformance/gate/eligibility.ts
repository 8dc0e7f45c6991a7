// Gate "GET /capabilities/eligibility": geo_source (explicit, ip, none), each
// unavailable_reason, and eligible only when every refinement passed. The
// ip-geo checks choose or omit the edge country header (need gateEdgeCountry,
// declared by their catalogue entries); the response status is not shown (any 2xx).
import type { Exchange } from '../../src/client/types.js';
import type { GateActor } from '../../src/needs/define.js';
import { check, defineSuite, type CheckTools, type RequirementId } from '../../src/runner/check.js';
import { Eligibility } from '../../src/model/schemas/gate/capabilities.js';
import { expect2xx } from '../../support/expect.js';
import { unlistedSymbol } from '../../support/gate/capabilities.js';

const PATH = '/capabilities/eligibility';

async function eligibility(t: CheckTools, actor: GateActor, query: Record<string, string>, requirement: RequirementId, headers: Record<string, string> = {}) {
  const ex = expect2xx(t, await actor.client.get(PATH, query, { headers }), requirement);
  return { ex, e: t.expect.schema(ex, Eligibility, requirement) };
}

/** Assert several fields of one answer under one requirement (codes compared case-insensitively). */
function fields(t: CheckTools, ex: Exchange, actual: Record<string, unknown>, expected: Record<string, unknown>, requirement: RequirementId): void {
  for (const [k, v] of Object.entries(expected)) {
    const got = typeof actual[k] === 'string' && typeof v === 'string' ? (actual[k] as string).toUpperCase() : actual[k];
    const want = typeof v === 'string' ? v.toUpperCase() : v;
    t.expect.equal(got, want, `eligibility.${k}`, { requirement, exchange: ex });
  }
}

export default defineSuite({
  service: 'gate',
  section: 'Resources and their fields > Eligibility',
  checks: [
    check({
      name: 'explicit supported country: geo_source explicit, default currency, refinements null',
      requirements: ['GATE-ELIG-SHAPE', 'GATE-ELIG-GEO-SOURCE-EXPLICIT', 'GATE-ELIG-REFINEMENTS-NULL', 'GATE-ELIG-DEFAULT-CURRENCY'],
      needs: ['gatePartner', 'gateCountries'],
      async run({ gatePartner: actor, gateCountries: c }, t: CheckTools) {
        const { ex, e } = await eligibility(t, actor, { country_code: c.supported }, 'GATE-ELIG-SHAPE');
        fields(t, ex, e, { geo_source: 'explicit', country_code: c.supported, supported: true }, 'GATE-ELIG-GEO-SOURCE-EXPLICIT');
        fields(t, ex, e, { currency_supported: null, asset_supported: null }, 'GATE-ELIG-REFINEMENTS-NULL');
        fields(t, ex, e, { default_currency: c.supportedCurrency }, 'GATE-ELIG-DEFAULT-CURRENCY');
      },
    }),
    check({
      name: 'without country_code the cf-ipcountry header resolves the region: geo_source ip',
      requirements: ['GATE-ELIG-GEO-SOURCE-IP'],
      needs: ['gatePartner', 'gateCountries'],
      async run({ gatePartner: actor, gateCountries: c, gateEdgeCountry: edge }, t: CheckTools) {
        const R = 'GATE-ELIG-GEO-SOURCE-IP';
        const { ex, e } = await eligibility(t, actor, {}, R, edge(c.supported));
        fields(t, ex, e, { geo_source: 'ip', country_code: c.supported, supported: true }, R);
      },
    }),
    check({
      name: 'country_code wins over the cf-ipcountry header',
      requirements: ['GATE-ELIG-EXPLICIT-OVER-IP'],
      needs: ['gatePartner', 'gateCountries'],
      async run({ gatePartner: actor, gateCountries: c, gateEdgeCountry: edge }, t: CheckTools) {
        const R = 'GATE-ELIG-EXPLICIT-OVER-IP';
        const { ex, e } = await eligibility(t, actor, { country_code: c.supported }, R, edge(c.unsupported));
        fields(t, ex, e, { geo_source: 'explicit', country_code: c.supported, supported: true, eligible: true }, R);
      },
    }),
    check({
      name: 'no country at all: geo_source none, country_code null, country_unresolved',
      requirements: ['GATE-ELIG-COUNTRY-UNRESOLVED'],
      needs: ['gatePartner'],
      async run({ gatePartner: actor, gateEdgeCountry: edge }, t: CheckTools) {
        const R = 'GATE-ELIG-COUNTRY-UNRESOLVED';
        const { ex, e } = await eligibility(t, actor, {}, R, edge());
        fields(t, ex, e, { geo_source: 'none', country_code: null, eligible: false, unavailable_reason: 'country_unresolved' }, R);
      },
    }),
    check({
      name: 'an unsupported country: supported false, eligible false, country_not_supported',
      requirements: ['GATE-ELIG-COUNTRY-NOT-SUPPORTED'],
      needs: ['gatePartner', 'gateCountries'],
      async run({ gatePartner: actor, gateCountries: c }, t: CheckTools) {
        const R = 'GATE-ELIG-COUNTRY-NOT-SUPPORTED';
        const { ex, e } = await eligibility(t, actor, { country_code: c.unsupported }, R);
        fields(t, ex, e, { geo_source: 'explicit', supported: false, eligible: false, unavailable_reason: 'country_not_supported' }, R);
      },
    }),
    check({
      name: 'an unsupported currency in a supported country: currency_supported false, currency_not_supported',
      requirements: ['GATE-ELIG-CURRENCY-NOT-SUPPORTED'],
      needs: ['gatePartner', 'gateCountries', 'gateCurrencies'],
      async run({ gatePartner: actor, gateCountries: c, gateCurrencies: cur }, t: CheckTools) {
        const R = 'GATE-ELIG-CURRENCY-NOT-SUPPORTED';
        const { ex, e } = await eligibility(t, actor, { country_code: c.supported, currency: cur.unsupported }, R);
        fields(
          t,
          ex,
          e,
          { supported: true, currency_supported: false, asset_supported: null, eligible: false, unavailable_reason: 'currency_not_supported' },
          R,
        );
      },
    }),
    check({
      name: 'an inactive or unknown asset: asset_supported false, asset_not_supported',
      requirements: ['GATE-ELIG-ASSET-NOT-SUPPORTED'],
      needs: ['gatePartner', 'gateCountries', 'gateInactiveAsset'],
      async run({ gatePartner: actor, gateCountries: c, gateInactiveAsset: inactive }, t: CheckTools) {
        const R = 'GATE-ELIG-ASSET-NOT-SUPPORTED';
        for (const asset of [inactive, await unlistedSymbol(t, actor, R)]) {
          const { ex, e } = await eligibility(t, actor, { country_code: c.supported, asset }, R);
          fields(
            t,
            ex,
            e,
            { supported: true, currency_supported: null, asset_supported: false, eligible: false, unavailable_reason: 'asset_not_supported' },
            R,
          );
        }
      },
    }),
    check({
      name: 'eligible true, reason null, only when every requested refinement passed: supported country, currency and asset; an inactive asset makes it false',
      requirements: ['GATE-ELIG-ELIGIBLE'],
      needs: ['gatePartner', 'gateCountries', 'gateCurrencies', 'gateActiveAsset', 'gateInactiveAsset'],
      async run({ gatePartner: actor, gateCountries: c, gateCurrencies: cur, gateActiveAsset: active, gateInactiveAsset: inactive }, t: CheckTools) {
        const R = 'GATE-ELIG-ELIGIBLE';
        const ok = await eligibility(t, actor, { country_code: c.supported, currency: cur.supported, asset: active }, R);
        fields(t, ok.ex, ok.e, { supported: true, currency_supported: true, asset_supported: true, eligible: true, unavailable_reason: null }, R);
        const one = await eligibility(t, actor, { country_code: c.supported, currency: cur.supported, asset: inactive }, R);
        fields(t, one.ex, one.e, { eligible: false }, R);
      },
    }),
  ],
});
