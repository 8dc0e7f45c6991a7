// Gate rail_pay_out.
import { z } from 'zod';
import { Decimal, Iso4217, Timestamp } from '../common.js';
import { open, ref, same, type ResourceRelations } from '../../relations.js';

export const PAY_OUT_STATUSES = ['pending', 'processing', 'settled', 'failed', 'cancelled'] as const;

export const RailPayOut = z.looseObject({
  object: z.literal('rail_pay_out'),
  id: z.string().min(1),
  kind: z.literal('pay_out'),
  status: z.enum(PAY_OUT_STATUSES),
  gate_session_id: z.string(),
  quote_id: z.string(),
  method: z.string(),
  amount: Decimal,
  currency: Iso4217,
  reference: z.string().nullable(),
  created_at: Timestamp,
  /** Present only when true. */
  account_blocked: z.literal(true).optional(),
});
export type RailPayOut = z.infer<typeof RailPayOut>;

/**
 * Two answers about one pay-out the same sequence made (rampart explore): the session and quote it redeemed, by the
 * objects they name; its kind; its currency, the locked quote's (the session's, which both sides were sent alike); the
 * reference sent. Its amount is each side's quote's fiat_pay_or_receive (related within a side, never across: prices
 * are each side's), its method the quote's (a target's catalog is its own), its status not shown in transition.
 */
export const RAIL_PAY_OUT_RELATIONS: ResourceRelations = {
  requirement: 'GATE-RAIL-PAYOUT-201',
  fields: {
    id: ref('GATE-RAIL-PAYOUT-201'),
    object: same('GATE-RAIL-PAYOUT-201'),
    kind: same('GATE-RAIL-PAYOUT-201'),
    gate_session_id: ref('GATE-RAIL-PAYOUT-201'),
    quote_id: ref('GATE-RAIL-PAYOUT-201'),
    // The locked quote's (its case open: gate.rails.currencyCase), else the session's: judged on each side against its
    // own quote and session (src/explore/commands/gate/rails.ts), never against the oracle's spelling.
    currency: open(),
    reference: same('GATE-RAIL-PAYOUT-201'),
    amount: open(),
    method: open(),
    status: open(),
    created_at: open(),
  },
};
