// Pools stored quotes: read, reject, terminal 409s and the status precedence.
import type { Requirement } from '../types.js';

type Entry = Omit<Requirement, 'service' | 'suite'> & { suite?: Requirement['suite'] };
const entry = (e: Entry): Requirement => ({ service: 'pools', suite: 'conformance', ...e });

const SQ = 'Resources and their fields > Stored quote';
const QS = 'States and transitions > Quote';
const EP = 'Endpoints';

export const requirements: Requirement[] = [
  entry({ id: 'POOLS-SQ-SHAPE', section: SQ, title: 'A stored quote carries its documented fields; consumedAt and rejectedAt are null while active', kind: 'field', roles: ['pools.partner'] }),
  entry({ id: 'POOLS-SQ-READ-NO-CONSUME', section: EP, title: 'GET /pools/quotes/{quoteId} does not consume the quote', kind: 'transition', roles: ['pools.partner'] }),
  entry({ id: 'POOLS-SQ-READ-NO-EXTEND', section: EP, title: 'GET /pools/quotes/{quoteId} does not extend expiresAt', kind: 'transition', roles: ['pools.partner'] }),
  entry({ id: 'POOLS-SQ-REJECT', section: QS, title: 'Reject of an active quote returns the stored quote with status rejected and rejectedAt set', kind: 'transition', roles: ['pools.partner'] }),
  entry({ id: 'POOLS-SQ-REJECT-TERMINAL-409', section: QS, title: 'Reject of a consumed, rejected or expired quote gives 409 conflict', kind: 'transition', roles: ['pools.partner'] }),
  entry({ id: 'POOLS-SQ-TRANSACT-REJECTED-409', section: QS, title: 'Transact on a rejected quote gives 409 conflict', kind: 'transition', roles: ['pools.partner'] }),
  entry({ id: 'POOLS-SQ-PRECEDENCE', section: SQ, title: 'Status precedence rejected > consumed > expired > active', kind: 'transition', roles: ['pools.partner'] }),
];
