// Gate rail_pay_out.
import { z } from 'zod';
import { Decimal, Iso4217, Timestamp } from '../common.js';

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
