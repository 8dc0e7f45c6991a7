// Pools quote creation: firm, indicative, unavailable, the quote body and the
// destination-address rules.
import { defineArea } from '../define.js';

const area = defineArea({
  service: 'pools',
  section: 'Endpoints > Quote body',
  entries: {
    'POOLS-QUOTE-FIRM-SHAPE': { title: 'A firm quote has quoteId, expiresAt, rate, spreadBps, feeBps, available true, executable true', kind: 'field', section: 'Resources and their fields > Quote creation response' },
    'POOLS-QUOTE-FIRM-DEFAULT': { title: 'type defaults to firm', kind: 'field' },
    'POOLS-QUOTE-INDICATIVE': { title: 'An indicative quote is available true, executable false, with no quoteId', kind: 'field', section: 'Resources and their fields > Quote creation response' },
    'POOLS-QUOTE-UNAVAILABLE': { title: 'An unavailable route answers 200 with available false, unavailableReason in pool_dry|engine_unavailable|rate_unavailable, and no quoteId (never a lock)', kind: 'status', section: 'Resources and their fields > Quote creation response' },
    'POOLS-QUOTE-NETWORK-DEFAULT-TRON': { title: 'cryptoNetwork defaults to tron', kind: 'field' },
    'POOLS-QUOTE-BODY-REQUIRED-400': { title: 'A quote body missing side, fiatCurrency, cryptoCurrency or amount gives 400', kind: 'error' },
    'POOLS-QUOTE-DESTNETWORK-ALLOWLIST': { title: 'destNetwork must come from the EVM allowlist in supportedNetworks; a non-EVM network gives 400', kind: 'field' },
    'POOLS-ADDR-REQUIRED-ON-RAMP-400': { title: 'Missing destAddress on an on_ramp quote gives 400', kind: 'error' },
    'POOLS-ADDR-FORMAT-400': { title: 'destAddress must be 0x + 40 hex; anything else gives 400', kind: 'field' },
    'POOLS-ADDR-EIP55-VALID': { title: 'A mixed-case destAddress with a valid EIP-55 checksum is accepted', kind: 'field' },
    'POOLS-ADDR-EIP55-INVALID-400': { title: 'A mixed-case destAddress failing EIP-55 gives 400', kind: 'field' },
    'POOLS-ADDR-SINGLE-CASE': { title: 'All-lowercase and all-uppercase destAddress pass on format alone', kind: 'field' },
    'POOLS-ADDR-LOCKED-AT-QUOTE': { title: 'The delivery address is locked at quote time and never read from the transact body', kind: 'field' },
  },
});

export default area;

declare module '../define.js' {
  interface CatalogueAreas {
    'pools/quotes': typeof area.entries;
  }
}
