// A 429 on one key's stream before the minute window's count (src/load/minuteWindowStream.ts), and what explains it.
// The minute window held fewer than 60 of rampart's requests under every reading, yet the target refused: that is
// a narrower minute window only when nothing documented explains it. Documented explanations: the route's own
// window (another route of the key — the pacer's witness, sent right after — was accepted: the key's client-wide
// windows had room); the hour window (300 per hour: rampart's own requests in it, and those the key sent before the
// run, a lived-in key); requests of the key from outside rampart's stream in the minute. The last two leave the key
// refused as a whole; what remains to judge them is the next attempt, after a hold that empties the minute window of
// everything rampart sent: a window refusing again at the same count, twice, is the target's — traffic from
// elsewhere would have to fill it to exactly that count each time rampart asked (the standard the pacer's route
// refusals meet, src/client/routeRefusal.ts). Plain code, no I/O.
import type { RouteGroup } from '../model/limits.js';
import type { Sent } from '../../scenarios/lib/windowProbe.js';

export interface EarlyRefusal {
  /** Index in the stream's log, and the request's number (index + 1). */
  index: number;
  n: number;
  /** The key's requests inside the minute window (and its tolerance) before it: every one, and those admitted. */
  inWindow: number;
  admitted: number;
  /** rampart's own requests of the key inside the hour window (and its tolerance) before it. */
  hourOwn: number;
  /** ms into its attempt, and the attempt (when its hold ended). */
  atMs: number;
  attempt: number;
  group: RouteGroup;
  /** The key's next request sent right after it on another route group: accepted, refused, or none came. */
  witness?: 'accepted' | 'refused' | 'none';
  /** An earlier refusal (its request number) at the same count, in an attempt of its own (a hold apart). */
  repeats?: number;
}

export interface Windows {
  windowMs: number;
  hourMs: number;
  toleranceMs: number;
}

/** The refusal of log[i] in the attempt begun at `attempt` (its first request at `firstAt`), counted against the key's requests before it. */
export function earlyRefusalAt(
  log: readonly Sent[],
  groups: readonly RouteGroup[],
  i: number,
  attempt: { startAt: number; firstAt: number },
  w: Windows,
): EarlyRefusal {
  const s = log[i]!;
  const before = log.slice(0, i);
  const minute = before.filter((x) => x.b > s.a - w.windowMs - w.toleranceMs);
  return {
    index: i,
    n: i + 1,
    inWindow: minute.length,
    admitted: minute.filter((x) => x.status !== 429).length,
    hourOwn: before.filter((x) => x.b > s.a - w.hourMs - w.toleranceMs).length,
    atMs: Math.round(s.a - attempt.firstAt),
    attempt: attempt.startAt,
    group: groups[i] ?? 'default',
  };
}

/**
 * What log[j] says of refusal `r` as its witness: a request sent right after the refusal was answered (within
 * `slackMs`) on another route group — accepted or refused; none when the key's next request came later than that;
 * undefined when log[j] is neither (a request of the same group sent at once: keep waiting).
 */
export function witnessOf(r: EarlyRefusal, log: readonly Sent[], groups: readonly RouteGroup[], j: number, slackMs: number): EarlyRefusal['witness'] {
  const refused = log[r.index]!;
  const x = log[j]!;
  if (x.a < refused.b) return undefined;
  if (x.a > refused.b + slackMs) return 'none';
  if (groups[j] === r.group) return undefined;
  return x.status === 429 ? 'refused' : 'accepted';
}

/**
 * Which documented thing explains `r` (its witness known), given the key-wide early refusals before it:
 * - 'route': its witness was accepted — the key's minute and hour windows had room, the route's own window refused;
 * - 'hour': rampart's own requests fill the hour window;
 * - 'repeats': refused at the same count (one request or more admitted) as an earlier attempt, a hold apart — the
 *   minute window's own count, narrower than documented;
 * - 'outside': the hour window holding requests from before the run, or requests from elsewhere in the minute
 *   (the key is refused as a whole): judged on the next attempt.
 */
export function explain(r: EarlyRefusal, earlier: readonly EarlyRefusal[], hourLimit: number): 'route' | 'hour' | 'repeats' | 'outside' {
  if (r.witness === 'accepted') return 'route';
  if (r.hourOwn >= hourLimit) return 'hour';
  const same = earlier.find((e) => e.attempt !== r.attempt && e.witness !== 'accepted' && e.hourOwn < hourLimit && e.admitted > 0 && e.admitted === r.admitted);
  if (same) {
    r.repeats = same.n;
    return 'repeats';
  }
  return 'outside';
}

/** The numbers of key-wide early refusals none of which could be judged, for an unverified reason. */
export function unjudgedWhy(refusals: readonly EarlyRefusal[], limit: number, hourLimit: number): string {
  const shown = refusals
    .map(
      (r) =>
        `request ${r.n} with ${r.admitted} admitted in the minute and ${r.hourOwn} of rampart's in the hour (another route ${r.witness === 'refused' ? 'refused too' : 'not tried'})`,
    )
    .join('; ');
  return `the key was refused as a whole before the minute window held ${limit} (${shown}): its hour window (${hourLimit} per hour) may hold requests from before the run, or the key carries traffic from outside it, and no attempt filled a quiet minute window past it — the minute window's count could not be judged`;
}
