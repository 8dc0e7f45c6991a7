// The pool catalogue of the embedded target: its pools, their legs, mid rates and EVM allowlists (another world's,
// reading pools.capabilities.networks), joined by any pool a profile of another target names.
import type { Profile } from '../../profile/schema.js';
import { choiceOf } from '../kit/dialect.js';

/** One pool of the catalogue, as the world keeps it. */
export interface PoolDef {
  id: string;
  fiatCurrency: string;
  cryptoCurrency: string;
  /** Current state: a dry pool answers quotes with available false (pool_dry). */
  available: boolean;
  /** Mid rate, crypto per one fiat unit. */
  mid: string;
  cryptoDecimals: number;
  supportedNetworks: string[];
}

/** The pool catalogue of the embedded target; the profile names main, dry and not-allowed pools from it. */
export function poolCatalogue(profile: Profile): PoolDef[] {
  const defs: PoolDef[] = [
    {
      id: 'EUR-USDT',
      fiatCurrency: 'EUR',
      cryptoCurrency: 'USDT',
      available: true,
      mid: '1.0850',
      cryptoDecimals: 6,
      supportedNetworks: ['ethereum', 'bsc', 'polygon'],
    },
    {
      id: 'EUR-USDC',
      fiatCurrency: 'EUR',
      cryptoCurrency: 'USDC',
      available: true,
      mid: '1.0845',
      cryptoDecimals: 6,
      supportedNetworks: ['ethereum', 'polygon'],
    },
    { id: 'EUR-BTC', fiatCurrency: 'EUR', cryptoCurrency: 'BTC', available: true, mid: '0.0000112', cryptoDecimals: 8, supportedNetworks: ['ethereum'] },
    {
      id: 'EUR-ETH',
      fiatCurrency: 'EUR',
      cryptoCurrency: 'ETH',
      available: true,
      mid: '0.00032',
      cryptoDecimals: 8,
      supportedNetworks: ['ethereum', 'polygon'],
    },
  ];
  // A profile of another target (the oracle of rampart explore is built from one) may name pools this catalogue lacks:
  // each joins it, pair-shaped as its id, quoting on the network the profile's quote uses.
  const named = profile.pools ? [profile.pools.pools.main, profile.pools.pools.dry, profile.pools.pools.notAllowed] : [];
  for (const id of named) {
    const m = typeof id === 'string' ? /^([A-Za-z]{3})-([A-Za-z0-9]+)$/.exec(id) : null;
    if (!m || defs.some((d) => d.id === id)) continue;
    const network = typeof profile.pools?.quote?.cryptoNetwork === 'string' ? profile.pools.quote.cryptoNetwork : 'ethereum';
    defs.push({
      id: id!,
      fiatCurrency: m[1]!.toUpperCase(),
      cryptoCurrency: m[2]!.toUpperCase(),
      available: true,
      mid: '1.0000',
      cryptoDecimals: 6,
      supportedNetworks: [network],
    });
  }
  const dry = profile.pools?.pools.dry;
  for (const d of defs) if (d.id === dry) d.available = false;
  // Reading (pools.capabilities.networks 'other-evm'): the catalogue's pools allow other EVM chains.
  if (choiceOf(profile, 'pools.capabilities.networks') === 'other-evm')
    for (const d of defs) d.supportedNetworks = OTHER_EVM_NETWORKS[d.id] ?? d.supportedNetworks;
  return defs;
}

/** Another world's EVM allowlists (pools.capabilities.networks 'other-evm'). */
const OTHER_EVM_NETWORKS: Record<string, string[]> = {
  'EUR-USDT': ['polygon', 'arbitrum', 'base'],
  'EUR-USDC': ['arbitrum', 'optimism'],
  'EUR-BTC': ['polygon'],
  'EUR-ETH': ['arbitrum', 'base'],
};
