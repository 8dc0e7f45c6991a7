// Sessions a check of another area made and is done with, left for the session-event checks: their events
// were caused already (the created event shows the partner's webhooks were wired when the session was made),
// so judging them costs no request of the partner's key.
import type { GateActor } from '../../src/needs/define.js';

export const sessionForEvents = (status: 'cancelled' | 'completed' | 'expired', actor: GateActor) =>
  `gate session ${status} for its events, of ${actor.partner.name}`;
