// What the pools spec leaves open of its webhooks, as this world takes it (src/model/openPoints/pools/events.ts):
// the payload's shape, the signature recipe, and the retry schedule with its dead-letter threshold.
import type { Profile } from '../../profile/schema.js';
import { GATE_LIMITS } from '../../model/limits.js';
import type { DeliveryPolicy } from '../kit/outbox.js';
import { choiceOf } from '../kit/dialect.js';

/** The world's own retry policy (pools.events.retry 'longer-fewer'): a longer first gap, fewer attempts. */
export const LONGER_FEWER_RETRY = { attempts: 4, scheduleSeconds: [120, 600, 3600] } as const;

/** The event's body: { eventId, type, createdAt, data: Trade }, or { id, event, created, trade } naming the trade only. */
export function eventPayload(profile: Profile, createdAt: string, eventId: string, type: string, data: unknown): Record<string, unknown> {
  if (choiceOf(profile, 'pools.events.payload') === 'event-id-data') return { eventId, type, createdAt, data };
  const trade = data && typeof data === 'object' ? (data as Record<string, unknown>) : {};
  const identity = Object.fromEntries(['transactId', 'quoteId', 'status'].filter((k) => k in trade).map((k) => [k, trade[k]]));
  return { id: eventId, event: type, created: createdAt, trade: Object.keys(identity).length ? identity : data };
}

/** How the outbox retries and signs this world's pools events: the Gate policy (undefined), or the world's own. */
export function deliveryPolicy(profile: Profile): DeliveryPolicy | undefined {
  const retry = choiceOf(profile, 'pools.events.retry') === 'longer-fewer' ? LONGER_FEWER_RETRY : undefined;
  const bodyOnly = choiceOf(profile, 'pools.events.signature') === 'body-only';
  if (!retry && !bodyOnly) return undefined;
  // Where only the recipe is the world's own, the retries are the Gate ones the outbox keeps for every service.
  return {
    attempts: retry?.attempts ?? GATE_LIMITS.webhook.maxAttempts,
    scheduleMs: retry ? retry.scheduleSeconds.map((s) => s * 1000) : GATE_LIMITS.webhook.retryScheduleMs,
    ...(bodyOnly ? { recipe: 'body-only' as const } : {}),
  };
}
