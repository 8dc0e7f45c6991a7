// Gate Customer and its soft-delete marker.
import { z } from 'zod';
import { Timestamp, listOf } from '../common.js';

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
