// Gate session resource (GateSession) and its list envelope.
import { z } from 'zod';
import { Decimal, Iso4217, Timestamp, listOf } from '../common.js';
import { decimal, open, ref, same, stable, type ResourceRelations } from '../../relations.js';

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

/**
 * What two answers about one session share when the same sequence made and moved it (rampart explore): the terms
 * the partner sent, the status the transitions gave, the mode of the key; the id by the session it names; the
 * partner id the same in every answer of one side. The rest (timestamps, expires_at, flow when unsent — one value or
 * null, both documented) is left to each side.
 */
export const GATE_SESSION_RELATIONS: ResourceRelations = {
  requirement: 'GATE-SESS-RETRIEVE',
  fields: {
    id: ref('GATE-SESS-RETRIEVE'),
    object: same('GATE-SESS-CREATE-SHAPE'),
    status: same('GATE-SESS-RETRIEVE-NO-STATUS-CHANGE'),
    mode: same('GATE-SESS-MODE-OF-KEY'),
    amount: decimal('GATE-SESS-ECHO-TERMS'),
    currency: same('GATE-SESS-CURRENCY-UPPERCASE'),
    return_url: same('GATE-SESS-ECHO-TERMS'),
    cancel_url: same('GATE-SESS-UNSENT-TERMS-NULL'),
    target_token: same('GATE-SESS-UNSENT-TERMS-NULL'),
    target_network: same('GATE-SESS-UNSENT-TERMS-NULL'),
    wallet_address: same('GATE-SESS-UNSENT-TERMS-NULL'),
    user_reference: same('GATE-SESS-ECHO-TERMS'),
    metadata: same('GATE-SESS-METADATA-VERBATIM'),
    kyc_pre_verified: same('GATE-SESS-KYC-PRE-VERIFIED'),
    partner_id: stable('GATE-SESS-RETRIEVE'),
    flow: open(),
    expires_at: open(),
    created_at: open(),
  },
};
