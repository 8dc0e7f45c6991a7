// Pools quote creation: firm, indicative, unavailable, the quote body, its
// arithmetic and the destination-address rules.
import { defineArea } from '../define.js';

const DEST_ROW =
  '| destAddress | string | required for `on_ramp` | EVM `0x` + 40 hex; mixed-case must pass EIP-55; all-lowercase or all-uppercase pass on format; captured and locked at quote time |';
const QUOTE_ROW = '| POST | /pools/{id}/quote | SK + entitlement | Body below. Response: quote creation response. No idempotency key needed. |';
const RATE = '`rate` is always output-per-input.';

const area = defineArea({
  service: 'pools',
  section: 'Endpoints > Quote body',
  entries: {
    'POOLS-QUOTE-FIRM-SHAPE': {
      title: 'A firm quote has quoteId, expiresAt, rate, spreadBps, feeBps, available true, executable true',
      kind: 'field',
      section: 'Resources and their fields > Quote creation response',
      anchor: ['Firm: `quoteId`, `expiresAt` (about 15 seconds ahead), `rate`, `spreadBps`, `feeBps`, `available` true, `executable` true.', QUOTE_ROW],
    },
    'POOLS-QUOTE-FIRM-DEFAULT': {
      title: 'type defaults to firm',
      kind: 'field',
      anchor: ['| type | string | no | `firm` (default) or `indicative` |', 'request a firm (executable) or indicative (price-only) quote'],
    },
    'POOLS-QUOTE-NO-IDEMPOTENCY-KEY': {
      title: 'A quote needs no Idempotency-Key, and a reject neither a body nor a key: both succeed without them',
      kind: 'idempotency',
      section: 'Endpoints',
      anchor: [QUOTE_ROW, 'No body, no idempotency key.'],
    },
    'POOLS-QUOTE-INDICATIVE': {
      title: 'An indicative quote is available true, executable false, with no quoteId',
      kind: 'field',
      section: 'Resources and their fields > Quote creation response',
      anchor: 'Indicative: `available` true, `executable` false, no `quoteId`',
    },
    'POOLS-QUOTE-INDICATIVE-NOT-PERSISTED': {
      title: 'An indicative quote is not persisted: no handle it carries reads as a stored quote, transacts or rejects',
      kind: 'field',
      section: 'Resources and their fields > Quote creation response',
      anchor: 'not persisted, cannot be transacted or rejected',
    },
    'POOLS-QUOTE-UNAVAILABLE': {
      title:
        'An unavailable route answers 200 with available false, unavailableReason in pool_dry|engine_unavailable|rate_unavailable, and no quoteId (never a lock) — for every documented reason',
      kind: 'status',
      section: 'Resources and their fields > Quote creation response',
      anchor: [
        'Unavailable: HTTP 200 with `available` false, `unavailableReason` in `pool_dry`, `engine_unavailable`, `rate_unavailable`, and no `quoteId`.',
        'Unavailable routes return 200 with `available` false, never a lock.',
      ],
    },
    'POOLS-QUOTE-RATE': {
      title:
        "A quote's own rate is output per input: for on_ramp the stored cryptoAmount = fiatAmount × rate (exact, up to rounding to cryptoAmount's places), the same rate the creation answered",
      kind: 'field',
      section: 'Resources and their fields > Quote creation response',
      anchor: RATE,
    },
    'POOLS-QUOTE-ON-RAMP-AMOUNT': {
      title: "For on_ramp, amount is the fiat paid in: the stored quote's fiatAmount is the requested amount",
      kind: 'field',
      section: 'Resources and their fields > Quote creation response',
      anchor: 'For `on_ramp`, `amount` is the fiat paid in and the output is crypto.',
    },
    'POOLS-QUOTE-OFF-RAMP-ARITHMETIC': {
      title:
        'For off_ramp, amount is the crypto sold and the output is fiat: cryptoAmount is the requested amount and fiatAmount = cryptoAmount × rate (fiat per crypto, up to rounding)',
      kind: 'field',
      section: 'Resources and their fields > Quote creation response',
      anchor: ['For `off_ramp`, `amount` is the crypto sold and the output is fiat.', RATE],
      needs: ['poolsOffRamp'],
    },
    'POOLS-QUOTE-NETWORK-DEFAULT-TRON': { title: 'cryptoNetwork defaults to tron', kind: 'field', anchor: '| cryptoNetwork | string | no | `tron` (default)' },
    'POOLS-QUOTE-NETWORK-VALUES': {
      title: 'cryptoNetwork takes each documented value: a firm quote on ethereum, bsc, polygon or solana is stored with that network',
      kind: 'enum',
      anchor: '`ethereum`, `bsc`, `polygon`, `solana` |',
    },
    'POOLS-QUOTE-BODY-REQUIRED-400': {
      title: 'A quote body missing side, fiatCurrency, cryptoCurrency or amount gives 400',
      kind: 'error',
      anchor: [
        '| side | string | yes | `on_ramp` or `off_ramp` |',
        '| fiatCurrency | string | yes | ISO 4217 |',
        '| cryptoCurrency | string | yes | asset symbol |',
        '| amount | string | yes | decimal string |',
      ],
    },
    'POOLS-QUOTE-AMOUNT-DECIMAL-400': {
      title: 'An amount that is not a decimal string (a number, an exponent, a comma, letters) gives 400',
      kind: 'error',
      anchor: ['| amount | string | yes | decimal string |', 'Money and rate values are decimal strings.'],
    },
    'POOLS-QUOTE-ENUMS-400': {
      title: 'A side, type or cryptoNetwork outside its documented values, or a fiatCurrency that is not ISO 4217, gives 400',
      kind: 'error',
      anchor: [
        '| side | string | yes | `on_ramp` or `off_ramp` |',
        '| fiatCurrency | string | yes | ISO 4217 |',
        '| type | string | no | `firm` (default) or `indicative` |',
        '| cryptoNetwork | string | no | `tron` (default), `ethereum`, `bsc`, `polygon`, `solana` |',
      ],
    },
    'POOLS-QUOTE-DESTNETWORK-ALLOWLIST': {
      title: "destNetwork must come from the EVM allowlist in supportedNetworks: a non-EVM network, or an EVM network outside the pool's list, gives 400",
      kind: 'field',
      anchor: '| destNetwork | string | no | from the EVM allowlist in `supportedNetworks` |',
    },
    'POOLS-ADDR-REQUIRED-ON-RAMP-400': {
      title: 'Missing destAddress on an on_ramp quote gives 400',
      kind: 'error',
      anchor: ['Missing `destAddress` on an `on_ramp` quote gives 400.', '| 400 | validation: missing `destAddress` on on_ramp', DEST_ROW],
    },
    'POOLS-ADDR-FORMAT-400': { title: 'destAddress must be 0x + 40 hex; anything else gives 400', kind: 'field', anchor: DEST_ROW },
    'POOLS-ADDR-EIP55-VALID': { title: 'A mixed-case destAddress with a valid EIP-55 checksum is accepted', kind: 'field', anchor: DEST_ROW },
    'POOLS-ADDR-EIP55-INVALID-400': { title: 'A mixed-case destAddress failing EIP-55 gives 400', kind: 'field', anchor: DEST_ROW },
    'POOLS-ADDR-SINGLE-CASE': { title: 'All-lowercase and all-uppercase destAddress pass on format alone', kind: 'field', anchor: DEST_ROW },
    'POOLS-ADDR-LOCKED-AT-QUOTE': {
      title: 'The delivery address is locked at quote time and never read from the transact body',
      kind: 'field',
      anchor: [DEST_ROW, 'The delivery address is copied from the quote to the trade at transact and is never read from the transact body.'],
    },
  },
});

export default area;

declare module '../define.js' {
  interface CatalogueAreas {
    'pools/quotes': typeof area.entries;
  }
}
