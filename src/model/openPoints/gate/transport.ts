// Open points of how the target shows its clock beside its timestamps: the Date header of its answers. The header is
// HTTP's, not the spec's (RFC 9110 §6.6.1: an origin server with a clock sends one); what the spec fixes is that its
// timestamps are instants, which rampart judges on the target's clock (README "Its clock"). So the entry stands on the
// passage that makes the time rule, the Conventions' timestamps, and applies to the Gate answers.
import { defineOpenPoints } from '../define.js';

const area = defineOpenPoints({
  spec: 'gate',
  section: 'Resources and their fields > Conventions',
  entries: {
    'gate.transport.dateHeader': {
      kind: 'value',
      passage: 'Timestamps are ISO 8601 / RFC 3339 strings',
      what: "what the Date header of a Gate answer shows of the target's clock: its own clock on every answer, two clocks in turn (a fleet whose nodes' clocks differ by seconds; the stamps stay on the target's own), or no Date header at all (the objects' own stamps are then the clock)",
      choices: ['one-clock', 'two-clocks', 'absent'],
      readBy: ['src/client/targetClock.ts', 'support/targetTime.ts', 'scenarios/quote-ttl.ts'],
      note: 'no passage requires a Date header, and a created_at may be null: the time rules judge on whichever clock the answers show, and end unverified where none shows. The dialect world takes the fleet: answers that carry two clocks at once are the reading farthest from one clock (no Date at all leaves the stamps alone, which a world drawn from a seed takes)',
    },
  },
});

export default area;

declare module '../define.js' {
  interface OpenPointAreas {
    'gate/transport': typeof area.entries;
  }
}
