// The second copies of a session that two blind sequence faults keep (gate/blindFaults.ts): the embed service's own
// view of each bound session's status, and the Idempotency-Key records POST /gate_sessions keeps with the session
// they made. Each is written by the paths its fault names, so it parts from the session record only after a sequence.
import type { Req } from '../kit/http.js';
import type { GateCaller, GateWorld, SessionRecord } from './world.js';

const EMBED_REFRESH = 'seq-blind-embed-refresh-after-completion';
const SESSION_REPLAY = 'seq-blind-sess-replay-new-after-cancel';

/** What the embed service last heard of a bound session: its status at bootstrap, and after a cancel. */
const embedStatus = new WeakMap<SessionRecord, SessionRecord['status']>();

/** A bootstrap bound the session: the embed service copies its status. */
export function noteEmbedBound(world: GateWorld, s: SessionRecord): void {
  if (world.faults.has(EMBED_REFRESH)) embedStatus.set(s, s.status);
}

/** The status POST /embed/refresh judges: the embed service's copy under the fault, else the session's own. */
export function embedSessionStatus(world: GateWorld, s: SessionRecord): SessionRecord['status'] {
  return (world.faults.has(EMBED_REFRESH) && embedStatus.get(s)) || s.status;
}

/** Per world: (partner, mode, key) → how many times the session that key made was cancelled (its records cleared). */
const clearedKeys = new WeakMap<GateWorld, Map<string, number>>();
/** The (partner, mode, key) each session was made under. */
const keyOfSession = new WeakMap<SessionRecord, string>();

function cleared(world: GateWorld): Map<string, number> {
  let m = clearedKeys.get(world);
  if (!m) clearedKeys.set(world, (m = new Map()));
  return m;
}

/** The (partner, mode, key) of a create that carries an Idempotency-Key, or null. */
function keyOf(caller: GateCaller, req: Req): string | null {
  const raw = req.headers['idempotency-key'];
  const key = typeof raw === 'string' ? raw.trim() : '';
  return key === '' ? null : `${caller.partner.name}\u0000${caller.mode}\u0000${key}`;
}

/**
 * The scope POST /gate_sessions keeps its Idempotency-Key records in. Under the fault a key whose session was cancelled
 * is looked up in a fresh scope (its records were cleared), so the same request makes a new session.
 */
export function sessionKeyScope(world: GateWorld, caller: GateCaller, req: Req): string {
  const k = world.faults.has(SESSION_REPLAY) ? keyOf(caller, req) : null;
  const generation = k === null ? 0 : (cleared(world).get(k) ?? 0);
  return generation === 0 ? 'gate_sessions' : `gate_sessions#${generation}`;
}

/** A create made this session: under the fault its key record is kept with it. */
export function noteSessionKey(world: GateWorld, caller: GateCaller, req: Req, s: SessionRecord): void {
  const k = world.faults.has(SESSION_REPLAY) ? keyOf(caller, req) : null;
  if (k !== null) keyOfSession.set(s, k);
}

/** POST cancel moved the session to cancelled: the embed service hears of it, and the session's key records are cleared. */
export function noteSessionCancelled(world: GateWorld, s: SessionRecord): void {
  if (embedStatus.has(s)) embedStatus.set(s, s.status);
  const k = keyOfSession.get(s);
  if (!k || !world.faults.has(SESSION_REPLAY)) return;
  keyOfSession.delete(s);
  cleared(world).set(k, (cleared(world).get(k) ?? 0) + 1);
}
