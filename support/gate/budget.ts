// Checks that create many objects size themselves before the first one. At
// --depth quick, when the actor's key has not the room left in its hour window
// for the worst case, the check is skipped with the reason (more keys, or
// --depth full) instead of sitting in the pacer for up to an hour; the plan
// counts no hour-window wait at quick depth for the same reason. At --depth
// full the check goes on: the pacer waits for the window (rampart's wait, never
// counted against the target), as the full plan's lower bound says.
import type { GateActor } from '../../src/needs/define.js';
import type { GateKeyRoom } from '../../src/needs/gate/keyRoom.js';
import type { CheckTools } from '../../src/runner/check.js';

export function requireKeyRoom(t: CheckTools, room: GateKeyRoom, actor: GateActor, worstCase: number, what: string): void {
  const left = room(actor);
  t.observe('gate-key-room', { left, worstCase }, `requests ${actor.partner.name}'s key may still send this hour, and the most ${what} may take`);
  if (left < worstCase && t.depth === 'quick')
    t.skip(
      `${what} may take ${worstCase} requests, and ${actor.partner.name}'s key has ${left} left in its 300-per-hour window this run — add gate partners or extraSecretKeys (more rate-limit clients) to the profile, or run with --depth full, which waits for the window`,
    );
}
