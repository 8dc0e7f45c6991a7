// Pools webhooks: the three terminal trade events, their signature header and
// the statuses that never fire a webhook.
import { defineArea } from '../define.js';

const RULE_1 =
  'Deliveries are signed with a `Gate-Signature` header, deduplicated on `eventId`, and delivered at least once with backoff and a dead-letter store.';

const area = defineArea({
  service: 'pools',
  section: 'Events',
  entries: {
    'POOLS-EVT-SETTLED': {
      title: 'pool.transaction.settled fires when a trade settles',
      kind: 'event',
      anchor: '| pool.transaction.settled | trade settles |',
    },
    'POOLS-EVT-FAILED': { title: 'pool.transaction.failed fires when a trade fails', kind: 'event', anchor: '| pool.transaction.failed | trade fails |' },
    'POOLS-EVT-RELEASED': {
      title: 'pool.transaction.released fires when a reservation is released',
      kind: 'event',
      anchor: '| pool.transaction.released | reservation released |',
    },
    'POOLS-EVT-TERMINAL-ONLY': {
      title: 'Webhooks fire only for terminal trade events (none for the reserved trade)',
      kind: 'event',
      anchor: 'Webhooks fire only for terminal trade events:',
    },
    'POOLS-EVT-SIGNED': {
      title: 'Deliveries carry a Gate-Signature header (the recipe is not shown: verified only where the profile declares pools.webhookSignature)',
      kind: 'signature',
      anchor: RULE_1,
    },
    'POOLS-EVT-EVENT-ID': { title: 'Deliveries are deduplicated on eventId: one terminal event of a trade keeps one eventId', kind: 'event', anchor: RULE_1 },
    'POOLS-EVT-NO-RETURNED-WEBHOOK': {
      title: 'There is no webhook for the returned trade status',
      kind: 'event',
      anchor: ['There is no webhook for the `returned` trade status and none for quote rejection.', 'visible in ledger as `buy_refund`; no webhook |'],
    },
    'POOLS-EVT-NO-REJECT-WEBHOOK': { title: 'There is no webhook for quote rejection', kind: 'event', anchor: 'and none for quote rejection' },
    'POOLS-EVT-DEAD-LETTER': {
      title:
        'A delivery the partner never acknowledges goes to the dead-letter store: attempted exactly as often as the sandbox declares (pools.webhookRetry), under one eventId, then never again',
      kind: 'event',
      suite: 'chaos',
      anchor: RULE_1,
      needs: ['poolsDeadLetter'],
    },
    'POOLS-EVT-AT-LEAST-ONCE': {
      title: 'A delivery the partner fails is delivered again with the same eventId (at least once, with backoff)',
      kind: 'event',
      suite: 'chaos',
      anchor: RULE_1,
    },
  },
});

export default area;

declare module '../define.js' {
  interface CatalogueAreas {
    'pools/events': typeof area.entries;
  }
}
