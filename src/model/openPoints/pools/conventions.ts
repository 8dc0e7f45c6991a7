// Open points of the pools spec's conventions: how its ids, money and rate strings and timestamps are written, and
// where its base addresses stand (What the service does; Resources and their fields > Trade).
import { defineOpenPoints } from '../define.js';

const area = defineOpenPoints({
  spec: 'pools',
  section: 'What the service does',
  entries: {
    'pools.ids.style': {
      kind: 'spelling',
      passage: '| transactId | string | also the list cursor |',
      what: "how quoteId, transactId and the ledger's entry ids are spelled: the spec says only 'string'",
      choices: ['prefixed', 'uuid'],
      readBy: ['support/pools/pools.ts', 'conformance/pools/storedQuotes.ts', 'conformance/pools/trades.ts'],
      note: 'the reference.idStyle knob (shared with Gate) still applies; this point sets the pools ids alone',
    },
    'pools.money.precision': {
      kind: 'precision',
      passage: 'Money and rate values are decimal strings.',
      what: 'how many decimal places a money or rate string carries: "1.085" and "1.0850", "10", "10.0" and "10.00" are one decimal',
      choices: ['fixed-places', 'trimmed'],
      readBy: [
        'support/pools/pools.ts',
        'conformance/pools/quoteArithmetic.ts',
        'conformance/pools/trades.ts',
        'conformance/pools/balanceFunding.ts',
        'relation:STORED_QUOTE_RELATIONS',
      ],
    },
    'pools.timestamps.precision': {
      kind: 'precision',
      passage: '| createdAt | string | ISO 8601, list ordering key |',
      what: 'the precision and zone designator of a timestamp: …:15.000Z, …:15+00:00 and …:15Z are one instant (a whole-second stamp may fall up to a second before the request that made it)',
      choices: ['millis-z', 'seconds-offset', 'seconds-z'],
      readBy: ['support/pools/pools.ts', 'conformance/pools/trades.ts', 'conformance/pools/storedQuotes.ts', 'relation:STORED_QUOTE_RELATIONS'],
    },
  },
});

export default area;

declare module '../define.js' {
  interface OpenPointAreas {
    'pools/conventions': typeof area.entries;
  }
}
