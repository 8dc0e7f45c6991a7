// The embedded target's economics: one spread and fee for every pool, inside
// the approved bounds that capabilities report.
import type { Profile } from '../../profile/schema.js';
import { choiceOf } from '../kit/dialect.js';

export const PRICING = {
  spreadBps: 25,
  feeBps: 10,
  spreadCapBps: 50,
  /** Order bounds in USDT equivalent. The maximum sits above the profile's oversized amount so that it reaches the 402 balance rule. */
  minOrderUsdt: '1.00',
  maxOrderUsdt: '5000000.00',
} as const;

/** The per-order bounds this world reads out (pools.capabilities.orderBounds): the catalogue's, or narrower ones. */
export function orderBounds(profile: Profile): { minOrderUsdt: string; maxOrderUsdt: string } {
  return choiceOf(profile, 'pools.capabilities.orderBounds') === '5-2000000'
    ? { minOrderUsdt: '5.00', maxOrderUsdt: '2000000.00' }
    : { minOrderUsdt: PRICING.minOrderUsdt, maxOrderUsdt: PRICING.maxOrderUsdt };
}
