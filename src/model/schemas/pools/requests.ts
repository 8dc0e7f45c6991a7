// Pools request bodies the spec documents. Open objects: what the service does
// with extra keys is not shown.
import { z } from 'zod';
import { POOLS_LIMITS } from '../../limits.js';
import { Decimal } from '../common.js';
import { CryptoNetwork } from './resources.js';

/**
 * 0x + 40 hex; mixed case must pass EIP-55, all-lowercase or all-uppercase pass on format. A pattern cannot
 * say EIP-55: the format names the rule (generators: single-case forms, or checksummed mixed case).
 */
const EvmAddress = z
  .string()
  .regex(POOLS_LIMITS.evmAddressPattern, 'EVM 0x + 40 hex')
  .meta({ format: 'evm-address' })
  .describe('EVM 0x + 40 hex; mixed case must pass EIP-55, all-lowercase or all-uppercase pass on format; locked at quote time');

const quoteFields = {
  fiatCurrency: z
    .string()
    .regex(/^[A-Z]{3}$/, 'ISO 4217')
    .describe('ISO 4217 (a leg of the pool)'),
  cryptoCurrency: z.string().describe('asset symbol (a leg of the pool)'),
  amount: Decimal.describe("on_ramp: fiat paid in; off_ramp: crypto sold; within the pool's minOrderUsdt and maxOrderUsdt, read at runtime"),
  type: z.enum(['firm', 'indicative']).default('firm'),
  cryptoNetwork: CryptoNetwork.default(POOLS_LIMITS.defaultCryptoNetwork),
  destNetwork: z.string().describe('from the EVM allowlist in supportedNetworks').optional(),
};

/** POST /pools/{id}/quote: destAddress is required for on_ramp (missing gives 400). */
export const QuoteBody = z.discriminatedUnion('side', [
  z.looseObject({ side: z.literal('on_ramp'), ...quoteFields, destAddress: EvmAddress }),
  z.looseObject({ side: z.literal('off_ramp'), ...quoteFields, destAddress: EvmAddress.optional() }),
]);

/** POST /pools/{id}/transact: { quoteId } only; the delivery address is never read from it. */
export const TransactBody = z.looseObject({ quoteId: z.string().describe('a firm quote of this pool') });
