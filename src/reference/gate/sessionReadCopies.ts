// The second copies a session read or list can be answered from under the sessions' sequence faults (a read cache,
// the list's own status column, a terminal move made past expires_at): each is kept per session record and written
// by the paths the fault says, so a read or list that trusts it parts from the record only after a sequence.
import type { GateWorld, SessionRecord } from './world.js';

/** The read cache of the sequence fault seq-sess-read-cache-survives-cancel (per session record). */
export const readCache = new WeakMap<object, { status: string; view: unknown }>();
/** The list's status column of the sequence fault seq-sess-list-status-stale (per session record). */
export const listedStatus = new WeakMap<object, SessionRecord['status']>();
/** Sessions cancelled or completed when already past expires_at (the sequence fault seq-sess-late-terminal-reads-expired). */
const terminalPastExpiry = new WeakSet<object>();

/** A session's move to a terminal status (cancel, or a linked buy's completion): what the sequence faults keep of it. */
export function noteTerminal(world: GateWorld, s: SessionRecord): void {
  if (world.faults.has('seq-sess-late-terminal-reads-expired') && world.clock.now() > s.expiresAtMs) terminalPastExpiry.add(s);
}

/**
 * A session as a read shows it. Under seq-sess-late-terminal-reads-expired its status is derived with the expiry ranked
 * above a cancel or completion that came when expires_at had already passed.
 */
export function readView(world: GateWorld, s: SessionRecord): Record<string, unknown> {
  const view = world.sessionView(s);
  return world.faults.has('seq-sess-late-terminal-reads-expired') && terminalPastExpiry.has(s) ? { ...view, status: 'expired' } : view;
}

/** A listed session: its status as the list's own column holds it under the sequence fault, else as a read shows it. */
export function listedView(world: GateWorld, s: SessionRecord): Record<string, unknown> {
  const view = readView(world, s);
  const column = world.faults.has('seq-sess-list-status-stale') ? listedStatus.get(s) : undefined;
  return column ? { ...view, status: column } : view;
}
