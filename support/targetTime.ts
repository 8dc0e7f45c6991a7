// Judging the target's absolute timestamps on the target's clock (a remote
// sandbox keeps its own): spans of its clock from the client's estimate
// (src/client/targetClock.ts), and waits that end once its clock is surely past
// an instant. A check whose target sends no Date header cannot know its clock
// and ends unverified, never failed.
import type { ApiClient } from '../src/client/types.js';
import type { CheckTools } from '../src/runner/check.js';
import type { TargetSpan } from '../src/wire/targetTime.js';

export type { TargetSpan };

/** The target's clock while an exchange (or an arrival: durationMs 0) was in flight. */
export function spanOf(t: CheckTools, client: ApiClient, ex: { startedAt: number; durationMs: number }): TargetSpan {
  const s = client.clock.during(ex);
  return typeof s === 'string' ? t.unverified(s) : s;
}

/** The target's clock now. */
export function targetNow(t: CheckTools, client: ApiClient): TargetSpan {
  const s = client.clock.now();
  return typeof s === 'string' ? t.unverified(s) : s;
}

/**
 * Sleep until the target's clock is surely past `targetMs` (+ `marginMs`): a documented wait of the target
 * (an expiry), counted against the check. Returns at once when it already is.
 */
export async function sleepUntilTargetPast(t: CheckTools, client: ApiClient, targetMs: number, label: string, marginMs = 0): Promise<void> {
  const local = client.clock.localWhenPast(targetMs + marginMs);
  if (typeof local === 'string') t.unverified(local);
  const ms = Math.ceil(local - Date.now());
  if (ms > 0) await t.sleep(ms, label, 'target');
}

/**
 * Sleep until a request sent now reaches the target before its clock shows `targetMs` − `marginMs`: the
 * latest local send time, less the slowest round trip seen (an upper bound of the way there). Returns the
 * ms left before that instant when it is already too late (negative), else 0 after the wait.
 */
export async function sleepUntilJustBefore(t: CheckTools, client: ApiClient, targetMs: number, marginMs: number, label: string): Promise<number> {
  const local = client.clock.localBefore(targetMs - marginMs);
  if (typeof local === 'string') return t.unverified(local);
  const way = client.clock.roundTrip()?.p95Ms ?? 0;
  const ms = Math.floor(local - way - Date.now());
  if (ms > 0) await t.sleep(ms, label, 'target');
  return Math.min(0, ms);
}

/** "+2.0 s ± 0.08 s": the clock estimate a judgment stood on, for failure messages and observations. */
export function clockNote(client: ApiClient): string {
  const e = client.clock.estimate();
  return e ? `target clock ${e.offsetMs >= 0 ? '+' : '−'}${Math.abs(e.offsetMs)} ms ± ${e.uncertaintyMs} ms against rampart's` : 'target clock unknown';
}
