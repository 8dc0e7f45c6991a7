// Shapes shared by both specs. Objects are loose (z.looseObject): unknown
// response fields are tolerated, documented ones are strict on type.
import { z } from 'zod';

export const ERROR_TYPES = ['invalid_request', 'not_found', 'conflict', 'unauthorized', 'forbidden', 'rate_limited', 'server_error'] as const;

/** Error envelope, both specs: { type, code, message, request_id, doc_url, statusCode }. */
export const ErrorEnvelope = z.looseObject({
  type: z.enum(ERROR_TYPES),
  code: z.string(),
  message: z.string(),
  request_id: z.string().min(1),
  doc_url: z.string().nullable(),
  statusCode: z.number().int(),
});
export type ErrorEnvelope = z.infer<typeof ErrorEnvelope>;

/** Decimal string: money and rates. */
export const Decimal = z.string().regex(/^-?\d+(\.\d+)?$/, 'decimal string');
/** ISO 8601 / RFC 3339 timestamp string. */
export const Timestamp = z.string().refine((s) => !Number.isNaN(Date.parse(s)), 'ISO 8601 timestamp');
export const Iso4217 = z.string().regex(/^[A-Z]{3}$/, 'uppercase ISO 4217');

/** Gate list envelope: object=list, data[], has_more, url. */
export function listOf<T extends z.ZodType>(item: T) {
  return z.looseObject({
    object: z.literal('list'),
    data: z.array(item),
    has_more: z.boolean(),
    url: z.string(),
  });
}
