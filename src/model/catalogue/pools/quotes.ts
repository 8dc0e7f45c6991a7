// Pools quote creation: firm, indicative, unavailable, the quote body and the
// destination-address rules.
import type { Requirement } from '../types.js';

type Entry = Omit<Requirement, 'service' | 'suite'> & { suite?: Requirement['suite'] };
const entry = (e: Entry): Requirement => ({ service: 'pools', suite: 'conformance', ...e });

const RESP = 'Resources and their fields > Quote creation response';
const BODY = 'Endpoints > Quote body';

export const requirements: Requirement[] = [
  entry({ id: 'POOLS-QUOTE-FIRM-SHAPE', section: RESP, title: 'A firm quote has quoteId, expiresAt, rate, spreadBps, feeBps, available true, executable true', kind: 'field', roles: ['pools.partner'] }),
  entry({ id: 'POOLS-QUOTE-FIRM-DEFAULT', section: BODY, title: 'type defaults to firm', kind: 'field', roles: ['pools.partner'] }),
  entry({ id: 'POOLS-QUOTE-INDICATIVE', section: RESP, title: 'An indicative quote is available true, executable false, with no quoteId', kind: 'field', roles: ['pools.partner'] }),
  entry({ id: 'POOLS-QUOTE-UNAVAILABLE', section: RESP, title: 'An unavailable route answers 200 with available false, unavailableReason in pool_dry|engine_unavailable|rate_unavailable, and no quoteId (never a lock)', kind: 'status', roles: ['pools.partner', 'pools.dryPool'] }),
  entry({ id: 'POOLS-QUOTE-NETWORK-DEFAULT-TRON', section: BODY, title: 'cryptoNetwork defaults to tron', kind: 'field', roles: ['pools.partner'] }),
  entry({ id: 'POOLS-QUOTE-BODY-REQUIRED-400', section: BODY, title: 'A quote body missing side, fiatCurrency, cryptoCurrency or amount gives 400', kind: 'error', roles: ['pools.partner'] }),
  entry({ id: 'POOLS-QUOTE-DESTNETWORK-ALLOWLIST', section: BODY, title: 'destNetwork must come from the EVM allowlist in supportedNetworks; a non-EVM network gives 400', kind: 'field', roles: ['pools.partner'] }),
  entry({ id: 'POOLS-ADDR-REQUIRED-ON-RAMP-400', section: BODY, title: 'Missing destAddress on an on_ramp quote gives 400', kind: 'error', roles: ['pools.partner'] }),
  entry({ id: 'POOLS-ADDR-FORMAT-400', section: BODY, title: 'destAddress must be 0x + 40 hex; anything else gives 400', kind: 'field', roles: ['pools.partner'] }),
  entry({ id: 'POOLS-ADDR-EIP55-VALID', section: BODY, title: 'A mixed-case destAddress with a valid EIP-55 checksum is accepted', kind: 'field', roles: ['pools.partner'] }),
  entry({ id: 'POOLS-ADDR-EIP55-INVALID-400', section: BODY, title: 'A mixed-case destAddress failing EIP-55 gives 400', kind: 'field', roles: ['pools.partner'] }),
  entry({ id: 'POOLS-ADDR-SINGLE-CASE', section: BODY, title: 'All-lowercase and all-uppercase destAddress pass on format alone', kind: 'field', roles: ['pools.partner'] }),
  entry({ id: 'POOLS-ADDR-LOCKED-AT-QUOTE', section: BODY, title: 'The delivery address is locked at quote time and never read from the transact body', kind: 'field', roles: ['pools.partner'] }),
];
