// How many more requests a Gate actor's key may send in its hour window (the
// run's pacer counts every request of the run): a check that creates many
// objects sizes itself by it, or skips saying the profile needs more keys.
import { defineNeed, type GateActor } from '../define.js';

/** Requests the actor's key may still send before its 300-per-hour window is full. */
export type GateKeyRoom = (actor: GateActor) => number;

declare module '../../model/needs.js' {
  interface NeedRegistry {
    gateKeyRoom: GateKeyRoom;
  }
}

export default defineNeed({
  name: 'gateKeyRoom',
  description: "the room left in a Gate key's hour window (from the run's pacer)",
  missing: () => null,
  setup: (env) => (actor) => env.run.pacer.hourRoom(actor.partner.secretKey),
});
