// A request template (a sandbox trigger, a webhook wiring): the requests a profile declares for rampart to send,
// with its placeholders, the sandbox's own words for rampart's values and the steps that arm it.
import { z } from 'zod';
import { comment } from './common.js';

/** One request of a template: where it goes, with what, and what its answer must be. */
const requestFields = {
  ...comment,
  method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']),
  /** Path relative to the service base URL (…/v1), or an absolute URL (a control outside the API). */
  path: z.string().min(1),
  /** Which base URL a relative path hangs off (default: the service the trigger is declared under). */
  base: z.enum(['gate', 'pools']).optional(),
  /** Which credential goes into Authorization: the acting partner's secret key, or none. */
  auth: z.enum(['secret', 'none']).default('secret'),
  headers: z.record(z.string(), z.string()).optional(),
  body: z.unknown().optional(),
  /** Status codes that mean the request worked (default: any 2xx). */
  expectStatus: z.array(z.number().int()).optional(),
  /** Dotted path of a value to take from the JSON response (e.g. the signed quote id). */
  extract: z.record(z.string(), z.string()).optional(),
};

/**
 * A request that arms the sandbox before the request the trigger is judged by (a control that makes the
 * partner's next request fail, say). It must answer as its expectStatus says (default any 2xx); what it
 * extracts is filled into the steps after it.
 */
export const ArmStep = z.object(requestFields).strict();
export type ArmStep = z.infer<typeof ArmStep>;

/**
 * A request the harness sends to drive something only a real user, bank or
 * operator could cause (a sandbox trigger), or to wire webhooks. Strings may
 * carry {{placeholders}}: {{sessionId}}, {{quoteId}}, {{outcome}},
 * {{webhookUrl}}, {{secretKey}}, {{partner}}, {{random}}; pools triggers add {{poolId}},
 * {{state}}, {{amount}} and {{currency}}.
 */
export const RequestTemplate = z
  .object({
    ...requestFields,
    values: z
      .record(z.string(), z.record(z.string(), z.string()))
      .optional()
      .describe(
        'The sandbox\'s own words for rampart\'s values, per placeholder: { "state": { "pool_dry": "dry" } } fills {{state}} with dry where rampart means pool_dry. A value not listed is sent as rampart names it.',
      ),
    arm: z
      .array(ArmStep)
      .min(1)
      .max(3)
      .optional()
      .describe(
        "Requests sent first, in order, to arm the sandbox (each must answer as its expectStatus says, default any 2xx): then this template's own request is sent, and its answer is the trigger's (a control that makes the partner's next request fail is armed here, and the request it fails is this one).",
      ),
  })
  .strict();
export type RequestTemplate = z.infer<typeof RequestTemplate>;
