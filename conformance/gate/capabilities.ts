// Gate "Endpoints > Capabilities": lists, the single asset and its 404 rules,
// payment methods. Fixture data (countries, currencies, assets) comes from
// profile.gate.catalog.
import { randomUUID } from 'node:crypto';
import { defineSuite, type CheckContext } from '../../src/runner/check.js';
import { AssetList, PaymentMethodList, SingleAsset, UnshapedList } from '../../src/model/schemas/gate/capabilities.js';

const catalog = (ctx: CheckContext) => ctx.profile.gate.catalog;
const assetPath = (symbol: string) => `/capabilities/assets/${encodeURIComponent(symbol)}`;

/** USDC → usdc, Usdc → uSDC: a spelling that differs from the profile's in every letter. */
function swapCase(s: string): string {
  return [...s].map((ch) => (ch === ch.toUpperCase() ? ch.toLowerCase() : ch.toUpperCase())).join('');
}

/** A symbol no catalogue has. */
const unknownSymbol = () => `NOSUCH${randomUUID().replace(/[^a-f]/g, '').slice(0, 6).toUpperCase()}`;

export default defineSuite({
  service: 'gate',
  section: 'Endpoints > Capabilities',
  checks: [
    {
      name: 'countries and currencies answer list envelopes',
      requirements: ['GATE-CAP-LISTS-ENVELOPE'],
      needs: ['gate.partner'],
      async run(ctx: CheckContext) {
        const R = 'GATE-CAP-LISTS-ENVELOPE';
        const { client } = ctx.gate.partner();
        for (const path of ['/capabilities/countries', '/capabilities/currencies']) {
          const ex = ctx.expect.status(await client.get(path), 200, R);
          ctx.expect.schema(ex, UnshapedList, R);
        }
        // Query parameters and response shape of payout-methods are not shown.
        const payout = await client.get('/capabilities/payout-methods');
        ctx.observe('gate-capabilities-payout-methods-status', payout.status);
      },
    },
    {
      name: 'the assets list is a list of Asset',
      requirements: ['GATE-CAP-ASSETS-LIST'],
      needs: ['gate.partner'],
      async run(ctx: CheckContext) {
        const R = 'GATE-CAP-ASSETS-LIST';
        const ex = ctx.expect.status(await ctx.gate.partner().client.get('/capabilities/assets'), 200, R);
        const list = ctx.expect.schema(ex, AssetList, R);
        ctx.expect.that(list.data.length > 0, 'the assets list names at least one asset', { requirement: R, exchange: ex });
      },
    },
    {
      name: 'a single asset is an unwrapped Asset with currency, and its symbol is case-insensitive',
      requirements: ['GATE-CAP-ASSET-SINGLE', 'GATE-CAP-ASSET-SYMBOL-CASE-INSENSITIVE'],
      needs: ['gate.partner', 'gate.catalog.asset'],
      async run(ctx: CheckContext) {
        const symbol = catalog(ctx).activeAsset!;
        const { client } = ctx.gate.partner();
        const ex = ctx.expect.status(await client.get(assetPath(symbol)), 200, 'GATE-CAP-ASSET-SINGLE');
        const asset = ctx.expect.schema(ex, SingleAsset, 'GATE-CAP-ASSET-SINGLE');
        ctx.expect.equal(asset.symbol.toUpperCase(), symbol.toUpperCase(), 'the asset answered is the one asked for', { requirement: 'GATE-CAP-ASSET-SINGLE', exchange: ex });
        ctx.expect.equal(asset.active, true, 'an asset served by symbol is active', { requirement: 'GATE-CAP-ASSET-SINGLE', exchange: ex });

        const R = 'GATE-CAP-ASSET-SYMBOL-CASE-INSENSITIVE';
        const other = ctx.expect.status(await client.get(assetPath(swapCase(symbol))), 200, R);
        const same = ctx.expect.schema(other, SingleAsset, R);
        ctx.expect.equal(same.symbol, asset.symbol, 'another spelling of the symbol names the same asset', { requirement: R, exchange: other });
      },
    },
    {
      name: 'side defaults to on_ramp; an on_ramp-only asset gives 404 on off_ramp',
      requirements: ['GATE-CAP-ASSET-SIDE-DEFAULT', 'GATE-CAP-ASSET-SIDE-404'],
      needs: ['gate.partner', 'gate.catalog.onRampOnlyAsset'],
      async run(ctx: CheckContext) {
        const symbol = catalog(ctx).onRampOnlyAsset!;
        const { client } = ctx.gate.partner();
        const R = 'GATE-CAP-ASSET-SIDE-DEFAULT';
        const ex = ctx.expect.status(await client.get(assetPath(symbol)), 200, R);
        const asset = ctx.expect.schema(ex, SingleAsset, R);
        ctx.expect.equal(asset.side, 'on_ramp', 'without a side query the on_ramp asset is answered', { requirement: R, exchange: ex });
        const off = await client.get(assetPath(symbol), { side: 'off_ramp' });
        ctx.expect.error(off, 404, 'not_found', { requirement: 'GATE-CAP-ASSET-SIDE-404' });
      },
    },
    {
      name: 'an unknown asset symbol gives 404',
      requirements: ['GATE-CAP-ASSET-UNKNOWN-404'],
      needs: ['gate.partner'],
      async run(ctx: CheckContext) {
        const ex = await ctx.gate.partner().client.get(assetPath(unknownSymbol()));
        ctx.expect.error(ex, 404, 'not_found', { requirement: 'GATE-CAP-ASSET-UNKNOWN-404' });
      },
    },
    {
      name: 'an inactive asset symbol gives 404',
      requirements: ['GATE-CAP-ASSET-INACTIVE-404'],
      needs: ['gate.partner', 'gate.catalog.inactiveAsset'],
      async run(ctx: CheckContext) {
        const ex = await ctx.gate.partner().client.get(assetPath(catalog(ctx).inactiveAsset!));
        ctx.expect.error(ex, 404, 'not_found', { requirement: 'GATE-CAP-ASSET-INACTIVE-404' });
      },
    },
    {
      name: 'an asset is 404 in a region where it is not offered and 200 where it is',
      requirements: ['GATE-CAP-ASSET-REGION-404'],
      needs: ['gate.partner', 'gate.catalog.asset', 'gate.catalog.country'],
      async run(ctx: CheckContext) {
        const R = 'GATE-CAP-ASSET-REGION-404';
        const { activeAsset, supportedCountry, unsupportedCountry } = catalog(ctx);
        const { client } = ctx.gate.partner();
        // The region resolves as on eligibility: country_code, else the edge country header; both name the same country here.
        const inRegion = (country: string) => client.get(assetPath(activeAsset!), { country_code: country }, { headers: { 'cf-ipcountry': country } });
        ctx.expect.status(await inRegion(supportedCountry!), 200, R);
        ctx.expect.error(await inRegion(unsupportedCountry!), 404, 'not_found', { requirement: R });
      },
    },
    {
      name: 'payment methods of a currency: a list of payment_method in that currency, has_more false',
      requirements: ['GATE-CAP-PM-LIST', 'GATE-CAP-PM-HAS-MORE-FALSE', 'GATE-CAP-PM-CURRENCY'],
      needs: ['gate.partner', 'gate.catalog.currency'],
      async run(ctx: CheckContext) {
        const currency = catalog(ctx).supportedCurrency!;
        const ex = ctx.expect.status(await ctx.gate.partner().client.get('/capabilities/payment-methods', { currency }), 200, 'GATE-CAP-PM-LIST');
        const has = (ex.json as { has_more?: unknown } | undefined)?.has_more;
        ctx.expect.equal(has, false, 'has_more is always false on payment methods', { requirement: 'GATE-CAP-PM-HAS-MORE-FALSE', exchange: ex });
        const list = ctx.expect.schema(ex, PaymentMethodList, 'GATE-CAP-PM-LIST');
        ctx.expect.that(list.data.length > 0, `the supported currency ${currency} has at least one payment method`, { requirement: 'GATE-CAP-PM-CURRENCY', exchange: ex });
        for (const m of list.data) {
          ctx.expect.equal(m.currency.toUpperCase(), currency.toUpperCase(), `payment method ${m.id} is in the requested currency`, { requirement: 'GATE-CAP-PM-CURRENCY', exchange: ex });
        }
      },
    },
    {
      name: 'payment methods of a country resolve its default fiat',
      requirements: ['GATE-CAP-PM-COUNTRY-DEFAULT-FIAT'],
      needs: ['gate.partner', 'gate.catalog.country'],
      async run(ctx: CheckContext) {
        const R = 'GATE-CAP-PM-COUNTRY-DEFAULT-FIAT';
        const { supportedCountry, supportedCountryCurrency } = catalog(ctx);
        const ex = ctx.expect.status(await ctx.gate.partner().client.get('/capabilities/payment-methods', { country_code: supportedCountry! }), 200, R);
        const list = ctx.expect.schema(ex, PaymentMethodList, R);
        ctx.expect.that(list.data.length > 0, `${supportedCountry} resolves ${supportedCountryCurrency}, which has payment methods`, { requirement: R, exchange: ex });
        for (const m of list.data) {
          ctx.expect.equal(m.currency.toUpperCase(), supportedCountryCurrency!.toUpperCase(), `payment method ${m.id} is in the country's default fiat`, { requirement: R, exchange: ex });
        }
      },
    },
    {
      name: 'payment methods: currency takes precedence over country_code',
      requirements: ['GATE-CAP-PM-CURRENCY-PRECEDENCE'],
      needs: ['gate.partner', 'gate.catalog.currency', 'gate.catalog.noMethods'],
      async run(ctx: CheckContext) {
        const R = 'GATE-CAP-PM-CURRENCY-PRECEDENCE';
        const { supportedCurrency, countryWithoutMethods } = catalog(ctx);
        // The country alone would resolve to no method; the currency must win.
        const ex = ctx.expect.status(
          await ctx.gate.partner().client.get('/capabilities/payment-methods', { currency: supportedCurrency!, country_code: countryWithoutMethods! }),
          200,
          R,
        );
        const list = ctx.expect.schema(ex, PaymentMethodList, R);
        ctx.expect.that(list.data.length > 0, `currency ${supportedCurrency} wins over country_code ${countryWithoutMethods} (which has no method)`, { requirement: R, exchange: ex });
        for (const m of list.data) {
          ctx.expect.equal(m.currency.toUpperCase(), supportedCurrency!.toUpperCase(), `payment method ${m.id} is in the currency asked for`, { requirement: R, exchange: ex });
        }
      },
    },
    {
      name: 'payment methods: 200 with empty data when no currency resolves',
      requirements: ['GATE-CAP-PM-EMPTY-200'],
      needs: ['gate.partner', 'gate.catalog.noMethods', 'gate.catalog.country'],
      async run(ctx: CheckContext) {
        const R = 'GATE-CAP-PM-EMPTY-200';
        const { countryWithoutMethods, unsupportedCountry } = catalog(ctx);
        const { client } = ctx.gate.partner();
        for (const country of [countryWithoutMethods!, unsupportedCountry!]) {
          const ex = ctx.expect.status(await client.get('/capabilities/payment-methods', { country_code: country }), 200, R);
          const list = ctx.expect.schema(ex, PaymentMethodList, R);
          ctx.expect.equal(list.data.length, 0, `country ${country} resolves no payment method: data is empty`, { requirement: R, exchange: ex });
        }
      },
    },
  ],
});
