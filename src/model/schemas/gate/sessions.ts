// Gate session resource (GateSession) and its list envelope.
import { z } from 'zod';
import { Decimal, Iso4217, Timestamp, listOf } from '../common.js';

export const SESSION_STATUSES = ['open', 'completed', 'expired', 'cancelled'] as const;
export const TERMINAL_SESSION_STATUSES = ['completed', 'expired', 'cancelled'] as const;

export const GateSession = z.looseObject({
  id: z.string().min(1),
  object: z.literal('gate_session'),
  partner_id: z.string(),
  mode: z.enum(['test', 'live']),
  amount: Decimal,
  currency: Iso4217,
  return_url: z.string(),
  cancel_url: z.string().nullable(),
  status: z.enum(SESSION_STATUSES),
  expires_at: Timestamp,
  created_at: Timestamp.nullable(),
  flow: z.string().nullable(),
  target_token: z.string().nullable(),
  target_network: z.string().nullable(),
  wallet_address: z.string().nullable(),
  user_reference: z.string().nullable(),
  metadata: z.record(z.string(), z.unknown()),
  kyc_pre_verified: z.boolean(),
});
export type GateSession = z.infer<typeof GateSession>;

/** The creation response: a GateSession plus its client_secret. */
export const CreatedGateSession = GateSession.extend({ client_secret: z.string().regex(/^gsec_/, 'client_secret starts with gsec_') });

export const GateSessionList = listOf(GateSession);
