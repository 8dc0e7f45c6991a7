// Gate webhook resources: WebhookDelivery, its list, the event envelope, and
// the data of each event type the catalogue lists (Events > Catalogue).
import { z } from 'zod';
import { Timestamp, listOf } from '../common.js';
import { open, ref, same, type ResourceRelations } from '../../relations.js';
import { Customer, DeletedCustomer } from './customers.js';
import { GateSession } from './sessions.js';

export const DELIVERY_STATUSES = ['pending', 'in_flight', 'succeeded', 'dead_lettered'] as const;
export const TERMINAL_DELIVERY_STATUSES = ['succeeded', 'dead_lettered'] as const;

export const WebhookDelivery = z.looseObject({
  object: z.literal('webhook_delivery'),
  id: z.string().min(1),
  event_id: z.string().min(1),
  event_type: z.string().min(1),
  target_url: z.string(),
  status: z.enum(DELIVERY_STATUSES),
  attempts: z.number().int().min(0).max(5),
  last_response_status: z.number().int().nullable(),
  last_error: z.string().nullable(),
  next_attempt_at: Timestamp.nullable(),
  delivered_at: Timestamp.nullable(),
  created_at: Timestamp.nullable(),
  updated_at: Timestamp.nullable(),
});
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;

export const WebhookDeliveryList = listOf(WebhookDelivery);

/**
 * Two answers about one webhook delivery the same sequence made (rampart explore). A delivery moves on its own,
 * each side on its own clock and its own retries, so only what does not move is related across the sides: the
 * object, the event type, the URL it goes to (the one the sequence configured on both), the id by the delivery it
 * names. Status, attempts and times are each side's (judged against that side's own earlier answers); the event id
 * is each side's own, new per POST /webhooks/test and kept by the delivery.
 */
export const WEBHOOK_DELIVERY_RELATIONS: ResourceRelations = {
  requirement: 'GATE-WHOPS-DELIVERY-SHAPE',
  fields: {
    id: ref('GATE-WHOPS-DELIVERY-SHAPE'),
    object: same('GATE-WHOPS-DELIVERY-SHAPE'),
    event_type: same('GATE-WHOPS-DELIVERY-SHAPE'),
    target_url: same('GATE-WHOPS-DELIVERY-TARGET-URL'),
    event_id: open(),
    status: open(),
    attempts: open(),
    last_response_status: open(),
    last_error: open(),
    next_attempt_at: open(),
    delivered_at: open(),
    created_at: open(),
    updated_at: open(),
  },
};

/** The answer of POST /webhooks/test: a delivery of a webhook.test event, pending, to the configured webhook_url. */
export const WEBHOOK_TEST_RELATIONS: ResourceRelations = {
  requirement: 'GATE-WHOPS-TEST-PENDING',
  fields: { ...WEBHOOK_DELIVERY_RELATIONS.fields, event_type: same('GATE-WHOPS-TEST-PENDING'), status: same('GATE-WHOPS-TEST-PENDING') },
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The Gate event envelope: other envelope fields are not shown (tolerated). */
export const GateEventEnvelope = z.looseObject({
  id: z.string().regex(UUID, 'the event id is a UUID'),
  type: z.string().min(1),
  created_at: z.number().int(),
  data: z.record(z.string(), z.unknown()),
});
export type GateEventEnvelope = z.infer<typeof GateEventEnvelope>;

/** webhook.test data: livemode false and a message string. */
export const WebhookTestData = z.looseObject({ livemode: z.literal(false), message: z.string() });

/** gate_session.completed: the session object plus tx_refid. */
export const SessionCompletedData = GateSession.extend({ tx_refid: z.string().min(1) });

/** kyc.required: gate_session_id, kyc_status, user_reference (types not shown beyond "string" ids; user_reference may be null as on the session). */
export const KycRequiredData = z.looseObject({
  gate_session_id: z.string().min(1),
  kyc_status: z.string(),
  user_reference: z.string().nullable(),
});

/** customer.deleted: the customer object, the deleted marker, or the customer's id. */
export const CustomerDeletedData = z.union([Customer, DeletedCustomer, z.looseObject({ id: z.string().min(1) })]);

/**
 * Data schema per documented event type. kyc_package_accepted ("redacted record"),
 * the quota counters and the six unlisted contracts have no documented shape:
 * only the envelope rule (data is an object) applies to them.
 */
export const EVENT_DATA_SCHEMAS: Readonly<Record<string, z.ZodType>> = {
  'gate_session.created': GateSession,
  'gate_session.processing': GateSession,
  'gate_session.completed': SessionCompletedData,
  'gate_session.failed': GateSession,
  'gate_session.expired': GateSession,
  'gate_session.cancelled': GateSession,
  'kyc.required': KycRequiredData,
  'customer.created': Customer,
  'customer.updated': Customer,
  'customer.deleted': CustomerDeletedData,
  'webhook.test': WebhookTestData,
};
