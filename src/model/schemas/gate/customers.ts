// Gate Customer and its soft-delete marker.
import { z } from 'zod';
import { Timestamp, listOf } from '../common.js';
import { open, ref, same, stable, type ResourceRelations } from '../../relations.js';

export const Customer = z.looseObject({
  id: z.string().min(1),
  object: z.literal('customer'),
  partner_id: z.string(),
  mode: z.enum(['test', 'live']),
  livemode: z.boolean(),
  external_id: z.string(),
  email: z.string(),
  phone: z.string(),
  first_name: z.string().max(128).nullable(),
  last_name: z.string().max(128).nullable(),
  country_code: z
    .string()
    .regex(/^[A-Za-z]{2}$/)
    .nullable(),
  /** Allowed values: not shown. */
  kyc_status: z.string(),
  metadata: z.record(z.string(), z.unknown()),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type Customer = z.infer<typeof Customer>;

export const CustomerList = listOf(Customer);

export const DeletedCustomer = z.looseObject({
  id: z.string().min(1),
  object: z.literal('customer'),
  deleted: z.literal(true),
  deleted_at: Timestamp.nullable(),
});
export type DeletedCustomer = z.infer<typeof DeletedCustomer>;

/**
 * Two answers about one customer after the same sequence (rampart explore): the fields the partner set and the
 * PATCHes moved, the identity fields fixed at creation, the id by the customer it names. kyc_status is
 * server-managed and informational (it may move on its own), timestamps are each side's.
 */
export const GATE_CUSTOMER_RELATIONS: ResourceRelations = {
  requirement: 'GATE-CUST-GET',
  fields: {
    id: ref('GATE-CUST-GET'),
    object: same('GATE-CUST-GET'),
    mode: same('GATE-CUST-GET'),
    livemode: same('GATE-CUST-GET'),
    external_id: same('GATE-CUST-PATCH-IMMUTABLE-400'),
    email: same('GATE-CUST-PATCH-IMMUTABLE-400'),
    phone: same('GATE-CUST-PATCH-IMMUTABLE-400'),
    first_name: same('GATE-CUST-PATCH-SET'),
    last_name: same('GATE-CUST-PATCH-SET'),
    country_code: same('GATE-CUST-PATCH-SET'),
    metadata: same('GATE-CUST-PATCH-METADATA-REPLACE'),
    partner_id: stable('GATE-CUST-GET'),
    kyc_status: open(),
    created_at: open(),
    updated_at: open(),
  },
};

/** The soft-delete marker: the customer it names, deleted true; deleted_at each side's. */
export const GATE_DELETED_CUSTOMER_RELATIONS: ResourceRelations = {
  requirement: 'GATE-CUST-DELETE-MARKER',
  fields: { id: ref('GATE-CUST-DELETE-MARKER'), object: same('GATE-CUST-DELETE-MARKER'), deleted: same('GATE-CUST-DELETE-MARKER'), deleted_at: open() },
};
