// Gate capability discovery: countries, currencies, assets, payment and payout
// methods (eligibility is eligibility.ts, on the same catalogue). A static catalogue that agrees with the embedded
// profile's gate.catalog fixtures (DE/EUR supported, KP unsupported, JPY
// unsupported, USDC active both sides, LUNA inactive, SOL on_ramp only, CH
// supported but CHF has no payment method).
//
// Not shown — chosen:
// - Country object: { object: 'country', code, name, supported, default_currency }; currency
//   object: { object: 'currency', code, name, decimals }. Both lists take no query parameters,
//   have_more false, and list every country/currency the catalogue knows (unsupported ones
//   with supported: false).
// - GET /capabilities/assets accepts `side` (on_ramp|off_ramp), `active` (true|false) and
//   `country_code` (or the cf-ipcountry header) to filter; one Asset per (symbol, side).
//   An invalid `side`, `active` or malformed `country_code` gives 400.
// - GET /capabilities/assets/{symbol}: an invalid `side` gives 400; no resolved region means no
//   region filter; `currency` on the single asset echoes the `currency` query (uppercased) or null.
// - Payment/payout methods: a malformed `currency` (not 3 letters) or `country_code` (not 2 letters)
//   gives 400; a well-formed but unknown/unsupported one resolves to no methods (200, empty data).
// - Payout-method object: { object: 'payout_method', id, name, currency, side: 'off_ramp', icon_url, fees }.
import { choiceOf } from '../kit/dialect.js';
import { HttpError, type Reply, type Req } from '../kit/http.js';
import type { GateArea, GateWorld } from './world.js';

interface CountryDef {
  code: string;
  name: string;
  supported: boolean;
  defaultCurrency: string | null;
}
interface CurrencyDef {
  code: string;
  name: string;
  decimals: number;
  supported: boolean;
}
interface AssetDef {
  symbol: string;
  name: string | null;
  sides: Array<'on_ramp' | 'off_ramp'>;
  active: boolean;
  /** Supported countries where it is offered; null = every supported country. */
  regions: string[] | null;
  networks: Array<{ chain: string; name: string; contract_address: string | null }>;
  min: string | null;
  max: string | null;
}
interface MethodDef {
  id: string;
  name: string;
  currency: string;
  fees: Record<string, string>;
}

export const COUNTRIES: CountryDef[] = [
  { code: 'DE', name: 'Germany', supported: true, defaultCurrency: 'EUR' },
  { code: 'FR', name: 'France', supported: true, defaultCurrency: 'EUR' },
  { code: 'NL', name: 'Netherlands', supported: true, defaultCurrency: 'EUR' },
  { code: 'GB', name: 'United Kingdom', supported: true, defaultCurrency: 'GBP' },
  { code: 'US', name: 'United States', supported: true, defaultCurrency: 'USD' },
  { code: 'CH', name: 'Switzerland', supported: true, defaultCurrency: 'CHF' },
  { code: 'JP', name: 'Japan', supported: false, defaultCurrency: 'JPY' },
  { code: 'KP', name: 'North Korea', supported: false, defaultCurrency: null },
];

export const CURRENCIES: CurrencyDef[] = [
  { code: 'EUR', name: 'Euro', decimals: 2, supported: true },
  { code: 'USD', name: 'US Dollar', decimals: 2, supported: true },
  { code: 'GBP', name: 'Pound Sterling', decimals: 2, supported: true },
  { code: 'CHF', name: 'Swiss Franc', decimals: 2, supported: true },
  { code: 'JPY', name: 'Japanese Yen', decimals: 0, supported: false },
];

const EVM = (contract: string | null) => [{ chain: 'ethereum', name: 'Ethereum', contract_address: contract }];

export const ASSETS: AssetDef[] = [
  {
    symbol: 'USDC',
    name: 'USD Coin',
    sides: ['on_ramp', 'off_ramp'],
    active: true,
    regions: null,
    networks: [
      ...EVM('0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48'),
      { chain: 'polygon', name: 'Polygon', contract_address: '0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359' },
    ],
    min: '10.00',
    max: '10000.00',
  },
  { symbol: 'ETH', name: 'Ether', sides: ['on_ramp', 'off_ramp'], active: true, regions: null, networks: EVM(null), min: '20.00', max: '10000.00' },
  {
    symbol: 'SOL',
    name: 'Solana',
    sides: ['on_ramp'],
    active: true,
    regions: null,
    networks: [{ chain: 'solana', name: 'Solana', contract_address: null }],
    min: '10.00',
    max: '5000.00',
  },
  {
    symbol: 'USDT',
    name: null,
    sides: ['on_ramp'],
    active: true,
    regions: ['US', 'GB'],
    networks: EVM('0xdAC17F958D2ee523a2206206994597C13D831ec7'),
    min: null,
    max: null,
  },
  {
    symbol: 'LUNA',
    name: 'Terra Classic',
    sides: ['on_ramp', 'off_ramp'],
    active: false,
    regions: null,
    networks: [{ chain: 'terra', name: 'Terra', contract_address: null }],
    min: null,
    max: null,
  },
];

export const PAYMENT_METHODS: MethodDef[] = [
  { id: 'card', name: 'Card', currency: 'EUR', fees: { percent: '2.50' } },
  { id: 'sepa_bank_transfer', name: 'SEPA bank transfer', currency: 'EUR', fees: { fixed: '0.50' } },
  { id: 'sepa_instant', name: 'SEPA Instant', currency: 'EUR', fees: {} },
  { id: 'card', name: 'Card', currency: 'USD', fees: { percent: '2.90' } },
  { id: 'ach', name: 'ACH bank transfer', currency: 'USD', fees: {} },
  { id: 'card', name: 'Card', currency: 'GBP', fees: { percent: '2.50' } },
  { id: 'faster_payments', name: 'Faster Payments', currency: 'GBP', fees: {} },
];

export const PAYOUT_METHODS: MethodDef[] = [
  { id: 'sepa_credit_transfer', name: 'SEPA credit transfer', currency: 'EUR', fees: { fixed: '1.00' } },
  { id: 'ach_payout', name: 'ACH payout', currency: 'USD', fees: { fixed: '1.00' } },
  { id: 'faster_payments_payout', name: 'Faster Payments payout', currency: 'GBP', fees: {} },
];

export function findCountry(code: string): CountryDef | undefined {
  const c = code.toUpperCase();
  return COUNTRIES.find((x) => x.code === c);
}
export function currencySupported(code: string): boolean {
  const c = code.toUpperCase();
  return CURRENCIES.some((x) => x.code === c && x.supported);
}
export function findAsset(symbol: string, caseSensitive = false): AssetDef | undefined {
  return ASSETS.find((a) => (caseSensitive ? a.symbol === symbol : a.symbol === symbol.toUpperCase()));
}
/** The default rail method of a currency and side (quotes derive their method from it). */
export function defaultMethod(currency: string, side: 'on_ramp' | 'off_ramp'): MethodDef | undefined {
  const c = currency.toUpperCase();
  return (side === 'on_ramp' ? PAYMENT_METHODS : PAYOUT_METHODS).find((m) => m.currency === c);
}

const COUNTRY_RE = /^[A-Za-z]{2}$/;
export const CURRENCY_RE = /^[A-Za-z]{3}$/;

function list(url: string, data: unknown[]): Reply {
  return { status: 200, body: { object: 'list', data, has_more: false, url: `/v1${url}` } };
}

function sideParam(req: Req, fallback: 'on_ramp' | 'off_ramp' | null): 'on_ramp' | 'off_ramp' | null {
  const s = req.query.get('side');
  if (s === null || s === '') return fallback;
  if (s !== 'on_ramp' && s !== 'off_ramp') throw new HttpError(400, 'side must be on_ramp or off_ramp', 'invalid_side');
  return s;
}

export function countryParam(req: Req): string | null {
  const c = req.query.get('country_code');
  if (c === null || c === '') return null;
  if (!COUNTRY_RE.test(c)) throw new HttpError(400, 'country_code must match ^[A-Za-z]{2}$', 'invalid_country_code');
  return c.toUpperCase();
}

/** The edge country header, when it names a real two-letter country. */
export function ipCountry(req: Req): string | null {
  const h = req.headers['cf-ipcountry'];
  const v = Array.isArray(h) ? h[0] : h;
  if (!v || !COUNTRY_RE.test(v.trim())) return null;
  const c = v.trim().toUpperCase();
  return c === 'XX' || c === 'T1' ? null : c;
}

function assetView(a: AssetDef, side: 'on_ramp' | 'off_ramp', currency?: string | null, nameFallback = true) {
  const view: Record<string, unknown> = {
    object: 'asset',
    symbol: a.symbol,
    name: a.name ?? (nameFallback ? a.symbol : null),
    side,
    active: a.active,
    icon_url: `https://assets.gate.example/icons/${a.symbol.toLowerCase()}.svg`,
    networks: a.networks.map((n) => ({ ...n })),
    min_amount: a.min,
    max_amount: a.max,
  };
  if (currency !== undefined) view.currency = currency;
  return view;
}

/** An asset's amount bounds as the world writes money (gate.money.precision). */
function assetMoney(world: GateWorld, view: Record<string, unknown>): Record<string, unknown> {
  for (const k of ['min_amount', 'max_amount']) if (typeof view[k] === 'string') view[k] = world.money(view[k] as string);
  return view;
}

function offeredIn(a: AssetDef, country: string | null): boolean {
  if (country === null) return true;
  const c = findCountry(country);
  if (!c || !c.supported) return false;
  return a.regions === null || a.regions.includes(c.code);
}

function methodView(m: MethodDef, side: 'on_ramp' | 'off_ramp', emptyFeesNull = false, ownWords = false) {
  // A payout method in the world's own words (its object is not shown): label and a fee schedule.
  if (ownWords) return { object: 'payout_method', id: m.id, label: m.name, currency: m.currency, side, fee_schedule: { ...m.fees } };
  return {
    object: side === 'on_ramp' ? 'payment_method' : 'payout_method',
    id: m.id,
    name: m.name,
    currency: m.currency,
    side,
    icon_url: null,
    fees: emptyFeesNull && Object.keys(m.fees).length === 0 ? null : { ...m.fees },
  };
}

export const area: GateArea = {
  name: 'capabilities',
  faults: [
    {
      name: 'cap-asset-symbol-case-sensitive',
      service: 'gate',
      requirements: ['GATE-CAP-ASSET-SYMBOL-CASE-INSENSITIVE'],
      description: 'GET /capabilities/assets/{symbol} matches the symbol case-sensitively (usdc → 404).',
      suite: 'conformance',
    },
    {
      name: 'cap-inactive-asset-served',
      service: 'gate',
      requirements: ['GATE-CAP-ASSET-INACTIVE-404'],
      description: 'GET /capabilities/assets/{symbol} returns an inactive asset instead of 404.',
      suite: 'conformance',
    },
    {
      name: 'cap-asset-side-ignored',
      service: 'gate',
      requirements: ['GATE-CAP-ASSET-SIDE-404'],
      description: 'GET /capabilities/assets/{symbol}?side=off_ramp returns an on_ramp-only asset instead of 404.',
      suite: 'conformance',
    },
    {
      name: 'cap-payment-methods-country-precedence',
      service: 'gate',
      requirements: ['GATE-CAP-PM-CURRENCY-PRECEDENCE'],
      description: 'payment-methods lets country_code override an explicit currency.',
      suite: 'conformance',
    },
    {
      name: 'cap-payment-methods-unresolved-404',
      service: 'gate',
      requirements: ['GATE-CAP-PM-EMPTY-200'],
      description: 'payment-methods answers 404 instead of 200 with empty data when no currency resolves.',
      suite: 'conformance',
    },
    {
      name: 'cap-payment-methods-has-more',
      service: 'gate',
      requirements: ['GATE-CAP-PM-HAS-MORE-FALSE'],
      description: 'payment-methods reports has_more true.',
      suite: 'conformance',
    },
    {
      name: 'cap-asset-region-ignored',
      service: 'gate',
      requirements: ['GATE-CAP-ASSET-REGION-404'],
      description: 'GET /capabilities/assets/{symbol} returns an asset in a region where it is not offered instead of 404.',
      suite: 'conformance',
    },
    {
      name: 'cap-countries-bare-array',
      service: 'gate',
      requirements: ['GATE-CAP-LISTS-ENVELOPE'],
      description: 'GET /capabilities/countries answers a bare array instead of a list envelope.',
      suite: 'conformance',
    },
    {
      name: 'cap-asset-name-null',
      service: 'gate',
      requirements: ['GATE-CAP-ASSETS-LIST'],
      description: 'An asset without a display name has name null instead of falling back to its symbol.',
      suite: 'conformance',
    },
    {
      name: 'cap-asset-single-wrapped',
      service: 'gate',
      requirements: ['GATE-CAP-ASSET-SINGLE'],
      description: 'GET /capabilities/assets/{symbol} wraps the Asset as { data: Asset }.',
      suite: 'conformance',
    },
    {
      name: 'cap-asset-side-default-off-ramp',
      service: 'gate',
      requirements: ['GATE-CAP-ASSET-SIDE-DEFAULT'],
      description: 'Without a side query the single asset is looked up on off_ramp.',
      suite: 'conformance',
    },
    {
      name: 'cap-unknown-asset-200',
      service: 'gate',
      requirements: ['GATE-CAP-ASSET-UNKNOWN-404'],
      description: 'An unknown symbol answers 200 with an inactive placeholder asset instead of 404.',
      suite: 'conformance',
    },
    {
      name: 'cap-payment-methods-currency-ignored',
      service: 'gate',
      requirements: ['GATE-CAP-PM-CURRENCY'],
      description: 'payment-methods?currency= answers the methods of every currency.',
      suite: 'conformance',
    },
    {
      name: 'cap-payment-methods-country-ignored',
      service: 'gate',
      requirements: ['GATE-CAP-PM-COUNTRY-DEFAULT-FIAT'],
      description: 'payment-methods?country_code= does not resolve the default fiat (empty data).',
      suite: 'conformance',
    },
    {
      name: 'cap-payment-method-fees-null',
      service: 'gate',
      requirements: ['GATE-CAP-PM-LIST'],
      description: 'A payment method without fees carries fees null instead of an empty object.',
      suite: 'conformance',
    },
    {
      name: 'cap-asset-off-ramp-answers-on-ramp',
      service: 'gate',
      requirements: ['GATE-CAP-ASSET-SIDE-OFF-RAMP'],
      description: 'GET /capabilities/assets/{symbol}?side=off_ramp answers the on_ramp entry of an asset offered on both sides.',
      suite: 'conformance',
    },
    {
      name: 'cap-asset-name-fallback-lowercased',
      service: 'gate',
      requirements: ['GATE-CAP-ASSET-NAME-FALLBACK'],
      description: 'An asset without a display name is named by its symbol lowercased (usdt), not by its symbol.',
      suite: 'conformance',
    },
    {
      name: 'cap-payout-methods-secret-key-refused',
      service: 'gate',
      requirements: ['GATE-CAP-PAYOUT-METHODS-SK'],
      description: 'GET /capabilities/payout-methods refuses a secret key with 403.',
      suite: 'conformance',
    },
    {
      name: 'cap-lists-url-wrong',
      service: 'gate',
      requirements: ['GATE-CAP-LISTS-ENVELOPE'],
      description: 'The countries and currencies lists carry url /v1/capabilities instead of the path of the list.',
      suite: 'conformance',
    },
    {
      name: 'cap-assets-list-url-wrong',
      service: 'gate',
      requirements: ['GATE-CAP-ASSETS-LIST'],
      description: 'The assets list carries url /v1/capabilities/asset instead of the path of the list.',
      suite: 'conformance',
    },
    {
      name: 'cap-pm-list-url-wrong',
      service: 'gate',
      requirements: ['GATE-CAP-PM-LIST'],
      description: 'The payment-methods list carries url /v1/capabilities instead of the path of the list.',
      suite: 'conformance',
    },
  ],
  register(router, world) {
    // Readings: the country, currency and payout-method objects are not shown (gate.capabilities.objects), nor which of
    // them the lists hold (gate.capabilities.countryList).
    const ownWords = choiceOf(world.profile, 'gate.capabilities.objects') === 'alpha-label';
    const supportedOnly = choiceOf(world.profile, 'gate.capabilities.countryList') === 'supported-only';
    router.on('GET', '/capabilities/countries', (req) => {
      world.authSecret(req);
      const countries = COUNTRIES.filter((c) => !supportedOnly || c.supported).map((c) =>
        ownWords
          ? { object: 'country', alpha2: c.code, label: c.name, supported: c.supported, default_currency: c.defaultCurrency }
          : { object: 'country', code: c.code, name: c.name, supported: c.supported, default_currency: c.defaultCurrency },
      );
      if (world.faults.has('cap-countries-bare-array')) return { status: 200, body: countries };
      return list(world.faults.has('cap-lists-url-wrong') ? '/capabilities' : '/capabilities/countries', countries);
    });

    router.on('GET', '/capabilities/currencies', (req) => {
      world.authSecret(req);
      return list(
        world.faults.has('cap-lists-url-wrong') ? '/capabilities' : '/capabilities/currencies',
        CURRENCIES.filter((c) => !supportedOnly || c.supported).map((c) =>
          ownWords
            ? { object: 'currency', alpha3: c.code, label: c.name, minor_units: c.decimals, supported: c.supported }
            : { object: 'currency', code: c.code, name: c.name, decimals: c.decimals, supported: c.supported },
        ),
      );
    });

    router.on('GET', '/capabilities/assets', (req) => {
      world.authSecret(req);
      const side = sideParam(req, null);
      const activeQ = req.query.get('active');
      if (activeQ !== null && activeQ !== 'true' && activeQ !== 'false') {
        throw new HttpError(400, 'active must be true or false', 'invalid_active');
      }
      const region = countryParam(req) ?? ipCountry(req);
      const data: unknown[] = [];
      for (const a of ASSETS) {
        if (activeQ !== null && a.active !== (activeQ === 'true')) continue;
        if (!offeredIn(a, region)) continue;
        for (const s of a.sides)
          if (side === null || s === side) data.push(assetMoney(world, nameFaults(assetView(a, s, undefined, !world.faults.has('cap-asset-name-null')), a)));
      }
      return list(world.faults.has('cap-assets-list-url-wrong') ? '/capabilities/asset' : '/capabilities/assets', data);
    });

    router.on('GET', '/capabilities/assets/:symbol', (req) => {
      world.authSecret(req);
      const side = sideParam(req, world.faults.has('cap-asset-side-default-off-ramp') ? 'off_ramp' : 'on_ramp')!;
      const region = countryParam(req) ?? ipCountry(req);
      const cur = req.query.get('currency');
      if (cur !== null && !CURRENCY_RE.test(cur)) throw new HttpError(400, 'currency must be an ISO 4217 code', 'invalid_currency');
      const a = findAsset(req.params.symbol!, world.faults.has('cap-asset-symbol-case-sensitive'));
      const missing = () => new HttpError(404, `No asset ${req.params.symbol} is offered`, 'asset_not_found');
      if (!a && world.faults.has('cap-unknown-asset-200')) {
        const symbol = req.params.symbol!.toUpperCase();
        return {
          status: 200,
          body: assetView({ symbol, name: null, sides: [side], active: false, regions: null, networks: [], min: null, max: null }, side, null),
        };
      }
      if (!a) throw missing();
      if (!a.active && !world.faults.has('cap-inactive-asset-served')) throw missing();
      if (!a.sides.includes(side) && !world.faults.has('cap-asset-side-ignored')) throw missing();
      if (!offeredIn(a, region) && !world.faults.has('cap-asset-region-ignored')) throw missing();
      // Fault: an asset offered on both sides answers its on_ramp entry to side=off_ramp.
      const shown = side === 'off_ramp' && a.sides.includes('on_ramp') && world.faults.has('cap-asset-off-ramp-answers-on-ramp') ? 'on_ramp' : side;
      const asset = assetMoney(world, nameFaults(assetView(a, shown, cur ? cur.toUpperCase() : null, !world.faults.has('cap-asset-name-null')), a));
      return { status: 200, body: world.faults.has('cap-asset-single-wrapped') ? { data: asset } : asset };
    });

    /** Fault: a nameless asset falls back to its symbol lowercased instead of the symbol. */
    const nameFaults = (view: Record<string, unknown>, a: AssetDef) => {
      if (a.name === null && view.name === a.symbol && world.faults.has('cap-asset-name-fallback-lowercased')) view.name = a.symbol.toLowerCase();
      return view;
    };
    const methods =
      (side: 'on_ramp' | 'off_ramp', url: string) =>
      (req: Req): Reply => {
        const caller = world.authSecret(req);
        if (side === 'off_ramp' && world.faults.has('cap-payout-methods-secret-key-refused') && caller) {
          throw new HttpError(403, 'Payout methods are not available to this credential.', 'forbidden');
        }
        const cur = req.query.get('currency');
        if (cur !== null && cur !== '' && !CURRENCY_RE.test(cur)) {
          throw new HttpError(400, 'currency must be an ISO 4217 code', 'invalid_currency');
        }
        const country = countryParam(req);
        // Reading (gate.capabilities.payoutMethodsQuery, or the undocumentedInputs knob 'strict'): the payout methods (query not shown) need a currency or a country.
        const queryNeeded =
          choiceOf(world.profile, 'gate.capabilities.payoutMethodsQuery') === 'currency-required' || world.profile.reference?.undocumentedInputs === 'strict';
        if (side === 'off_ramp' && queryNeeded && !cur && !country) {
          throw new HttpError(400, 'currency or country_code is required', 'parameter_missing');
        }
        const resolvesCountry = !(side === 'on_ramp' && world.faults.has('cap-payment-methods-country-ignored'));
        const fromCountry = country && resolvesCountry ? (findCountry(country)?.supported ? findCountry(country)!.defaultCurrency : null) : null;
        let resolved: string | null = cur ? cur.toUpperCase() : fromCountry;
        if (side === 'on_ramp' && world.faults.has('cap-payment-methods-country-precedence') && fromCountry) resolved = fromCountry;
        const pool = side === 'on_ramp' ? PAYMENT_METHODS : PAYOUT_METHODS;
        const emptyFeesNull = side === 'on_ramp' && world.faults.has('cap-payment-method-fees-null');
        const anyCurrency = side === 'on_ramp' && !!cur && world.faults.has('cap-payment-methods-currency-ignored');
        const data =
          resolved && currencySupported(resolved)
            ? pool.filter((m) => anyCurrency || m.currency === resolved).map((m) => methodView(m, side, emptyFeesNull, side === 'off_ramp' && ownWords))
            : [];
        if (side === 'on_ramp' && data.length === 0 && world.faults.has('cap-payment-methods-unresolved-404')) {
          throw new HttpError(404, 'No payment methods', 'not_found');
        }
        const reply = list(side === 'on_ramp' && world.faults.has('cap-pm-list-url-wrong') ? '/capabilities' : url, data);
        if (side === 'on_ramp' && world.faults.has('cap-payment-methods-has-more')) (reply.body as { has_more: boolean }).has_more = true;
        return reply;
      };
    router.on('GET', '/capabilities/payment-methods', methods('on_ramp', '/capabilities/payment-methods'));
    router.on('GET', '/capabilities/payout-methods', methods('off_ramp', '/capabilities/payout-methods'));
  },
};
