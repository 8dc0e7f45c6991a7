// Gate "Endpoints > Capabilities": lists, the single asset and its 404 rules,
// payment methods. Fixture data (countries, currencies, assets) comes from the
// profile's gate.catalog through the catalog needs. Success statuses are not
// shown (any 2xx) except the documented "200 with empty data".
import { check, defineSuite, type CheckTools } from '../../src/runner/check.js';
import { AssetList, PaymentMethodList, SingleAsset, UnshapedList } from '../../src/model/schemas/gate/capabilities.js';
import { expect2xx } from '../../support/expect.js';
import { sharedAssets, unlistedSymbol } from '../../support/gate/capabilities.js';
import { expectGateError } from '../../support/gate/errors.js';
import { expectListUrl } from '../../support/gate/lists.js';
import { sessionBody } from '../../support/gate/sessions.js';
import { firstAnswered } from '../../support/gate/unshownInput.js';

const assetPath = (symbol: string) => `/capabilities/assets/${encodeURIComponent(symbol)}`;

/** USDC → usdc, Usdc → uSDC: a spelling that differs from the profile's in every letter. */
function swapCase(s: string): string {
  return [...s].map((ch) => (ch === ch.toUpperCase() ? ch.toLowerCase() : ch.toUpperCase())).join('');
}

export default defineSuite({
  service: 'gate',
  section: 'Endpoints > Capabilities',
  checks: [
    check({
      name: 'countries and currencies answer list envelopes',
      requirements: ['GATE-CAP-LISTS-ENVELOPE'],
      needs: ['gatePartner'],
      async run({ gatePartner: actor }, t: CheckTools) {
        const R = 'GATE-CAP-LISTS-ENVELOPE';
        for (const path of ['/capabilities/countries', '/capabilities/currencies']) {
          const ex = expect2xx(t, await actor.client.get(path), R);
          t.expect.schema(ex, UnshapedList, R);
          expectListUrl(t, ex, path, R);
        }
      },
    }),
    check({
      name: 'GET /capabilities/payout-methods answers a secret key (any 2xx, or a 4xx about the query it was sent: its query and shape are not shown)',
      requirements: ['GATE-CAP-PAYOUT-METHODS-SK'],
      needs: ['gatePartner'],
      async run({ gatePartner: actor }, t: CheckTools) {
        const R = 'GATE-CAP-PAYOUT-METHODS-SK';
        // Capabilities are "all GET, SK": the secret key is accepted; the query is not shown. No query first, then the
        // currency a session binds, as the payment methods take it, for a list that wants one.
        const currency = String(sessionBody(t).currency ?? 'EUR').toUpperCase();
        const ex = await firstAnswered(
          t,
          [undefined, { currency }],
          (query) => actor.client.get('/capabilities/payout-methods', query),
          R,
          'GET /capabilities/payout-methods with the secret key',
          'gate-capabilities-payout-methods-query',
        );
        t.observe(
          'gate-capabilities-payout-methods',
          ex ? { status: ex.status, keys: Object.keys(ex.json ?? {}).sort() } : 'every query guessed got a 4xx about it',
          'query parameters and response shape are not shown',
        );
      },
    }),
    check({
      name: 'the assets list is a list of Asset',
      requirements: ['GATE-CAP-ASSETS-LIST'],
      needs: ['gatePartner'],
      async run({ gatePartner: actor }, t: CheckTools) {
        const R = 'GATE-CAP-ASSETS-LIST';
        const ex = expect2xx(t, await sharedAssets(t, actor), R);
        const list = t.expect.schema(ex, AssetList, R);
        t.expect.that(list.data.length > 0, 'the assets list names at least one asset', { requirement: R, exchange: ex });
        expectListUrl(t, ex, '/capabilities/assets', R);
      },
    }),
    check({
      name: 'an asset without a display name is named by its symbol, in the list and by symbol',
      requirements: ['GATE-CAP-ASSET-NAME-FALLBACK'],
      needs: ['gatePartner', 'gateNamelessAsset'],
      async run({ gatePartner: actor, gateNamelessAsset: symbol }, t: CheckTools) {
        const R = 'GATE-CAP-ASSET-NAME-FALLBACK';
        const one = expect2xx(t, await actor.client.get(assetPath(symbol)), R, `GET ${assetPath(symbol)} (the nameless asset)`);
        const asset = t.expect.schema(one, SingleAsset, R);
        t.expect.equal(asset.name, asset.symbol, `${symbol} has no display name: its name falls back to its symbol`, { requirement: R, exchange: one });
        const allEx = expect2xx(t, await sharedAssets(t, actor), R);
        const all = t.expect.schema(allEx, AssetList, R);
        const listed = all.data.filter((a) => a.symbol.toUpperCase() === symbol.toUpperCase());
        if (listed.length === 0) t.unverified(`the assets list does not show ${symbol} (its region may leave it out): only the single asset was judged`);
        for (const a of listed)
          t.expect.equal(a.name, a.symbol, `the listed ${a.side} entry of ${symbol} is named by its symbol`, { requirement: R, exchange: allEx });
      },
    }),
    check({
      name: 'a single asset is an unwrapped Asset with currency, and its symbol is case-insensitive',
      requirements: ['GATE-CAP-ASSET-SINGLE', 'GATE-CAP-ASSET-SYMBOL-CASE-INSENSITIVE'],
      needs: ['gatePartner', 'gateActiveAsset'],
      async run({ gatePartner: actor, gateActiveAsset: symbol }, t: CheckTools) {
        const ex = expect2xx(t, await actor.client.get(assetPath(symbol)), 'GATE-CAP-ASSET-SINGLE');
        const asset = t.expect.schema(ex, SingleAsset, 'GATE-CAP-ASSET-SINGLE');
        t.expect.equal(asset.symbol.toUpperCase(), symbol.toUpperCase(), 'the asset answered is the one asked for', {
          requirement: 'GATE-CAP-ASSET-SINGLE',
          exchange: ex,
        });
        t.expect.equal(asset.active, true, 'an asset served by symbol is active (an inactive one is 404)', {
          requirement: 'GATE-CAP-ASSET-SINGLE',
          exchange: ex,
        });

        const R = 'GATE-CAP-ASSET-SYMBOL-CASE-INSENSITIVE';
        const same = t.expect.schema(expect2xx(t, await actor.client.get(assetPath(swapCase(symbol))), R), SingleAsset, R);
        t.expect.equal(same.symbol, asset.symbol, 'another spelling of the symbol names the same asset', { requirement: R });
      },
    }),
    check({
      name: 'side defaults to on_ramp; an on_ramp-only asset gives 404 on off_ramp',
      requirements: ['GATE-CAP-ASSET-SIDE-DEFAULT', 'GATE-CAP-ASSET-SIDE-404'],
      needs: ['gatePartner', 'gateOnRampOnlyAsset'],
      async run({ gatePartner: actor, gateOnRampOnlyAsset: symbol }, t: CheckTools) {
        const R = 'GATE-CAP-ASSET-SIDE-DEFAULT';
        const ex = expect2xx(t, await actor.client.get(assetPath(symbol)), R, `GET ${assetPath(symbol)} without side (an on_ramp-only asset)`);
        const asset = t.expect.schema(ex, SingleAsset, R);
        t.expect.equal(asset.side, 'on_ramp', 'without a side query the on_ramp asset is answered', { requirement: R, exchange: ex });
        expectGateError(t, await actor.client.get(assetPath(symbol), { side: 'off_ramp' }), 404, 'GATE-CAP-ASSET-SIDE-404');
      },
    }),
    check({
      name: "side=off_ramp answers the asset's off-ramp entry",
      requirements: ['GATE-CAP-ASSET-SIDE-OFF-RAMP'],
      needs: ['gatePartner', 'gateOffRampAsset'],
      async run({ gatePartner: actor, gateOffRampAsset: symbol }, t: CheckTools) {
        const R = 'GATE-CAP-ASSET-SIDE-OFF-RAMP';
        const ex = expect2xx(t, await actor.client.get(assetPath(symbol), { side: 'off_ramp' }), R, `GET ${assetPath(symbol)}?side=off_ramp`);
        const asset = t.expect.schema(ex, SingleAsset, R);
        t.expect.equal(asset.symbol.toUpperCase(), symbol.toUpperCase(), 'the asset answered is the one asked for', { requirement: R, exchange: ex });
        t.expect.equal(asset.side, 'off_ramp', 'side=off_ramp answers the off_ramp entry', { requirement: R, exchange: ex });
      },
    }),
    check({
      name: 'an unknown asset symbol gives 404',
      requirements: ['GATE-CAP-ASSET-UNKNOWN-404'],
      needs: ['gatePartner'],
      async run({ gatePartner: actor }, t: CheckTools) {
        const R = 'GATE-CAP-ASSET-UNKNOWN-404';
        // A well-formed symbol the catalogue does not name (not an invented format a target could call malformed).
        const symbol = await unlistedSymbol(t, actor, R);
        expectGateError(t, await actor.client.get(assetPath(symbol)), 404, R);
      },
    }),
    check({
      name: 'an inactive asset symbol gives 404',
      requirements: ['GATE-CAP-ASSET-INACTIVE-404'],
      needs: ['gatePartner', 'gateInactiveAsset'],
      async run({ gatePartner: actor, gateInactiveAsset: symbol }, t: CheckTools) {
        expectGateError(t, await actor.client.get(assetPath(symbol)), 404, 'GATE-CAP-ASSET-INACTIVE-404');
      },
    }),
    check({
      name: 'an asset is 404 in a region (edge country) where it is not offered and 2xx where it is',
      requirements: ['GATE-CAP-ASSET-REGION-404'],
      needs: ['gatePartner', 'gateActiveAsset', 'gateCountries'],
      async run({ gatePartner: actor, gateActiveAsset: symbol, gateCountries: countries, gateEdgeCountry: edge }, t: CheckTools) {
        const R = 'GATE-CAP-ASSET-REGION-404';
        // The resolved region is the caller's: the edge country header (the single-asset route takes no country query).
        const inRegion = (country: string) => actor.client.get(assetPath(symbol), undefined, { headers: edge(country) });
        expect2xx(t, await inRegion(countries.supported), R, `GET ${assetPath(symbol)} from ${countries.supported}`);
        expectGateError(t, await inRegion(countries.unsupported), 404, R);
      },
    }),
    check({
      name: 'payment methods of a currency: a list of payment_method in that currency, has_more false',
      requirements: ['GATE-CAP-PM-LIST', 'GATE-CAP-PM-HAS-MORE-FALSE', 'GATE-CAP-PM-CURRENCY'],
      needs: ['gatePartner', 'gateCurrencies'],
      async run({ gatePartner: actor, gateCurrencies: currencies }, t: CheckTools) {
        const currency = currencies.supported;
        const ex = expect2xx(t, await actor.client.get('/capabilities/payment-methods', { currency }), 'GATE-CAP-PM-LIST');
        expectListUrl(t, ex, '/capabilities/payment-methods', 'GATE-CAP-PM-LIST');
        t.expect.equal((ex.json as { has_more?: unknown } | undefined)?.has_more, false, 'has_more is always false on payment methods', {
          requirement: 'GATE-CAP-PM-HAS-MORE-FALSE',
          exchange: ex,
        });
        const list = t.expect.schema(ex, PaymentMethodList, 'GATE-CAP-PM-LIST');
        t.expect.that(list.data.length > 0, `the supported currency ${currency} has at least one payment method`, {
          requirement: 'GATE-CAP-PM-CURRENCY',
          exchange: ex,
        });
        for (const m of list.data) {
          t.expect.equal(m.currency.toUpperCase(), currency.toUpperCase(), `payment method ${m.id} is in the requested currency`, {
            requirement: 'GATE-CAP-PM-CURRENCY',
            exchange: ex,
          });
        }
      },
    }),
    check({
      name: 'payment methods of a country resolve its default fiat',
      requirements: ['GATE-CAP-PM-COUNTRY-DEFAULT-FIAT'],
      needs: ['gatePartner', 'gateCountries'],
      async run({ gatePartner: actor, gateCountries: countries }, t: CheckTools) {
        const R = 'GATE-CAP-PM-COUNTRY-DEFAULT-FIAT';
        const { supported, supportedCurrency } = countries;
        const list = t.expect.schema(
          expect2xx(t, await actor.client.get('/capabilities/payment-methods', { country_code: supported }), R),
          PaymentMethodList,
          R,
        );
        t.expect.that(list.data.length > 0, `${supported} resolves ${supportedCurrency}, which has payment methods`, { requirement: R });
        for (const m of list.data) {
          t.expect.equal(m.currency.toUpperCase(), supportedCurrency.toUpperCase(), `payment method ${m.id} is in the country's default fiat`, {
            requirement: R,
          });
        }
      },
    }),
    check({
      name: 'payment methods: currency takes precedence over country_code',
      requirements: ['GATE-CAP-PM-CURRENCY-PRECEDENCE'],
      needs: ['gatePartner', 'gateCurrencies', 'gateCountryWithoutMethods'],
      async run({ gatePartner: actor, gateCurrencies: currencies, gateCountryWithoutMethods: country }, t: CheckTools) {
        const R = 'GATE-CAP-PM-CURRENCY-PRECEDENCE';
        const currency = currencies.supported;
        // The country alone would resolve to no method; the currency must win.
        const ex = expect2xx(t, await actor.client.get('/capabilities/payment-methods', { currency, country_code: country }), R);
        const list = t.expect.schema(ex, PaymentMethodList, R);
        t.expect.that(list.data.length > 0, `currency ${currency} wins over country_code ${country} (which has no method)`, { requirement: R, exchange: ex });
        for (const m of list.data) {
          t.expect.equal(m.currency.toUpperCase(), currency.toUpperCase(), `payment method ${m.id} is in the currency asked for`, {
            requirement: R,
            exchange: ex,
          });
        }
      },
    }),
    check({
      name: 'payment methods: 200 with empty data when no currency resolves',
      requirements: ['GATE-CAP-PM-EMPTY-200'],
      needs: ['gatePartner', 'gateCountryWithoutMethods', 'gateCountries'],
      async run({ gatePartner: actor, gateCountryWithoutMethods: withoutMethods, gateCountries: countries }, t: CheckTools) {
        const R = 'GATE-CAP-PM-EMPTY-200';
        for (const country of [withoutMethods, countries.unsupported]) {
          const ex = t.expect.status(await actor.client.get('/capabilities/payment-methods', { country_code: country }), 200, R);
          const list = t.expect.schema(ex, PaymentMethodList, R);
          t.expect.equal(list.data.length, 0, `country ${country} resolves no payment method: data is empty`, { requirement: R, exchange: ex });
        }
      },
    }),
  ],
});
