// Open points of the Gate spec's conventions: how ids, money strings and timestamps are written, and the order and
// page size of the lists whose order is not stated (Resources and their fields > Conventions; Limits).
import { defineOpenPoints } from '../define.js';

const area = defineOpenPoints({
  spec: 'gate',
  section: 'Resources and their fields > Conventions',
  entries: {
    'gate.ids.style': {
      kind: 'spelling',
      passage: '| id | string | session id |',
      what: "how the ids of sessions, customers, quotes, rails and transactions are spelled: the spec says only 'string'",
      choices: ['prefixed', 'uuid'],
      readBy: ['support/ids.ts', 'conformance/gate/errors.ts', 'support/gate/lists.ts'],
      note: 'the reference.idStyle knob (shared with pools) still applies; this point sets the Gate ids alone',
    },
    'gate.money.precision': {
      kind: 'precision',
      passage: 'Money amounts are decimal strings.',
      what: 'how many decimal places a money string carries: the reference echoes a bound amount as sent and writes computed ones with two; "100", "100.00" and "100.0000" are one decimal',
      choices: ['two-places', 'trimmed', 'four-places'],
      readBy: [
        'support/gate/sessions.ts',
        'conformance/gate/embed.ts',
        'support/gate/rails.ts',
        'conformance/gate/rails.ts',
        'relation:RAIL_PAY_OUT_RELATIONS',
      ],
    },
    'gate.timestamps.precision': {
      kind: 'precision',
      passage: 'Timestamps are ISO 8601 / RFC 3339 strings',
      what: 'the precision and zone designator of a timestamp: …:15.000Z, …:15+00:00 and …:15Z are one instant (a whole-second stamp may fall up to a second before the request that made it)',
      choices: ['millis-z', 'seconds-offset', 'seconds-z'],
      readBy: ['support/targetTime.ts', 'support/gate/sessions.ts', 'support/gate/deliveries.ts', 'support/gate/deliveryOrder.ts', 'conformance/gate/embed.ts'],
    },
    'gate.lists.pageSize': {
      kind: 'value',
      passage: 'Page-size bounds of session, customer and transaction lists: not shown.',
      what: 'the default page and the largest limit of the session, customer and transaction lists',
      choices: ['10-of-100', '5-of-25'],
      readBy: ['support/gate/lists.ts', 'support/gate/customers.ts', 'conformance/gate/sessions.ts'],
    },
    'gate.lists.order': {
      kind: 'list-order',
      passage: 'Page-size bounds of session, customer and transaction lists: not shown.',
      what: 'the order of the session, customer and transaction lists (none is stated): newest first, or oldest first',
      choices: ['newest-first', 'oldest-first'],
      readBy: ['support/gate/lists.ts', 'support/gate/customers.ts', 'conformance/gate/sessions.ts'],
    },
    'gate.idempotency.order': {
      kind: 'validation-order',
      passage: 'The same key with a different request fingerprint is rejected with a conflict.',
      what: 'which error a repeated Idempotency-Key with a different and invalid body gets: the conflict (409) or the invalid body (400)',
      choices: ['conflict-first', 'invalid-first'],
      readBy: ['conformance/gate/customers.ts', 'conformance/gate/rails.ts', 'src/explore/commands/gate/sessions.ts'],
    },
  },
});

export default area;

declare module '../define.js' {
  interface OpenPointAreas {
    'gate/conventions': typeof area.entries;
  }
}
