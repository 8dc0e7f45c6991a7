// Open points of the pools spec's webhooks: the payload, the signature recipe and the retry schedule with its
// dead-letter threshold (Events).
import { defineOpenPoints } from '../define.js';

const area = defineOpenPoints({
  spec: 'pools',
  section: 'Events',
  entries: {
    'pools.events.payload': {
      kind: 'not-shown',
      passage: 'Payload shape and other envelope fields: not shown.',
      what: "a pools event's payload: { eventId, type, createdAt, data: Trade }, or { id, event, created, trade } holding only the trade's identity and status",
      choices: ['event-id-data', 'id-event-trade'],
      readBy: ['conformance/pools/events.ts', 'chaos/pools/settlementWebhooks.ts', 'support/pools/pools.ts'],
    },
    'pools.events.signature': {
      kind: 'not-shown',
      passage: "Signature recipe for this service's events: not shown.",
      what: "how pools events are signed: the Gate recipe (Gate-Signature t=,v1= over t + '.' + body, declared by the profile), or another the profile does not declare (v1= over the body alone)",
      choices: ['gate-recipe', 'body-only'],
      readBy: ['conformance/pools/events.ts', 'support/pools/pools.ts'],
    },
    'pools.events.retry': {
      kind: 'not-shown',
      passage: 'Retry schedule and dead-letter threshold for these events: not shown.',
      what: "the pools events' retry schedule and dead-letter threshold: the Gate schedule (1m, 5m, 30m, 2h; 5 attempts), or the world's own (a longer first gap, fewer attempts: 2m, 10m, 1h; 4 attempts); the profile declares it",
      choices: ['gate-schedule', 'longer-fewer'],
      readBy: ['chaos/pools/settlementWebhooks.ts'],
    },
  },
});

export default area;

declare module '../define.js' {
  interface OpenPointAreas {
    'pools/events': typeof area.entries;
  }
}
