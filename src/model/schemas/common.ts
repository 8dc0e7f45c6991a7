// Shapes shared by both specs. Objects are loose (z.looseObject): unknown
// response fields are tolerated, documented ones are strict on type.
import { z } from 'zod';
import { parseIso8601DateTime, parseRfc3339 } from './timestamps.js';

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
/** Gate timestamps ("ISO 8601 / RFC 3339"): an RFC 3339 date-time, parsed strictly (timestamps.ts). */
export const Timestamp = z.string().refine((s) => parseRfc3339(s) !== null, 'RFC 3339 date-time (e.g. 2026-12-01T10:00:00Z)');
/** Pools timestamps ("ISO 8601"): a complete date and time with a UTC designator or offset, extended or basic format (timestamps.ts). */
export const IsoTimestamp = z.string().refine((s) => parseIso8601DateTime(s) !== null, 'ISO 8601 date and time with a designator (e.g. 2026-12-01T10:00:00Z)');
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
