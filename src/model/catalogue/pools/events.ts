// Pools webhooks: the three terminal trade events, their signature header and
// the statuses that never fire a webhook.
import type { Requirement } from '../types.js';

type Entry = Omit<Requirement, 'service' | 'suite'> & { suite?: Requirement['suite'] };
const entry = (e: Entry): Requirement => ({ service: 'pools', suite: 'conformance', ...e });

const EV = 'Events';
const WH = ['pools.partner', 'pools.webhooks', 'pools.trigger.outcome'] as const;

export const requirements: Requirement[] = [
  entry({ id: 'POOLS-EVT-SETTLED', section: EV, title: 'pool.transaction.settled fires when a trade settles', kind: 'event', roles: [...WH] }),
  entry({ id: 'POOLS-EVT-FAILED', section: EV, title: 'pool.transaction.failed fires when a trade fails', kind: 'event', roles: [...WH] }),
  entry({ id: 'POOLS-EVT-RELEASED', section: EV, title: 'pool.transaction.released fires when a reservation is released', kind: 'event', roles: [...WH] }),
  entry({ id: 'POOLS-EVT-TERMINAL-ONLY', section: EV, title: 'Webhooks fire only for terminal trade events (none for the reserved trade)', kind: 'event', roles: [...WH] }),
  entry({ id: 'POOLS-EVT-SIGNED', section: EV, title: 'Deliveries carry a Gate-Signature header', kind: 'signature', roles: [...WH] }),
  entry({ id: 'POOLS-EVT-EVENT-ID', section: EV, title: 'Deliveries are deduplicated on eventId: one terminal event of a trade keeps one eventId', kind: 'event', roles: [...WH] }),
  entry({ id: 'POOLS-EVT-NO-RETURNED-WEBHOOK', section: EV, title: 'There is no webhook for the returned trade status', kind: 'event', roles: [...WH] }),
  entry({ id: 'POOLS-EVT-NO-REJECT-WEBHOOK', section: EV, title: 'There is no webhook for quote rejection', kind: 'event', roles: ['pools.partner', 'pools.webhooks'] }),
  entry({ id: 'POOLS-EVT-AT-LEAST-ONCE', section: EV, title: 'A delivery the partner fails is delivered again with the same eventId (at least once, with backoff)', kind: 'event', roles: ['pools.partner', 'pools.webhooks', 'pools.trigger.outcome'], suite: 'chaos' }),
];
