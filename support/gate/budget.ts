// Checks that create many objects size themselves before the first one: when
// the actor's key has not the room left in its hour window for the worst case,
// the check is skipped with the reason (the profile needs more keys), instead
// of sitting in the pacer for up to an hour or starting what it cannot finish.
import type { GateActor } from '../../src/needs/define.js';
import type { GateKeyRoom } from '../../src/needs/gate/keyRoom.js';
import type { CheckTools } from '../../src/runner/check.js';

export function requireKeyRoom(t: CheckTools, room: GateKeyRoom, actor: GateActor, worstCase: number, what: string): void {
  const left = room(actor);
  t.observe('gate-key-room', { left, worstCase }, `requests ${actor.partner.name}'s key may still send this hour, and the most ${what} may take`);
  if (left < worstCase)
    t.skip(
      `${what} may take ${worstCase} requests, and ${actor.partner.name}'s key has ${left} left in its 300-per-hour window this run — add gate partners or extraSecretKeys (more rate-limit clients) to the profile`,
    );
}
