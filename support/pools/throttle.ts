// A pools 429 is either the velocity cap or "throttle" (both documented under
// 429): a 429 the cap cannot explain is tried again after the target's
// Retry-After (bounded) before it counts against the target. The client resends
// every pools 429 itself (src/client/http.ts) unless the request is deliberate:
// a send the cap may explain is marked so (pace: false), its 429 judged at once.
import type { Exchange } from '../../src/client/types.js';
import { retryAfterMs } from '../../src/client/backoff.js';
import type { CheckTools } from '../../src/runner/check.js';

/** How often the same request is sent again after an unexplained 429. */
export const THROTTLE_RETRIES = 3;
/** Longest wait between those tries (Retry-After beyond it is cut). */
const MAX_WAIT_MS = 5_000;

/** What a send is given: deliberate (pace: false) where the cap may explain its 429. */
export type ThrottleSendOptions = { pace?: false };

/** Send once; while the answer is a 429 that `explained` does not account for, wait (Retry-After, bounded) and send the same request again. */
export async function unlessThrottled(t: CheckTools, send: (opts: ThrottleSendOptions) => Promise<Exchange>, explained: boolean): Promise<Exchange> {
  const opts: ThrottleSendOptions = explained ? { pace: false } : {};
  let ex = await send(opts);
  for (let i = 0; i < THROTTLE_RETRIES && ex.status === 429 && !explained; i++) {
    const wait = Math.min(retryAfterMs(ex.headers['retry-after']) ?? 1000 * 2 ** i, MAX_WAIT_MS);
    t.observe(
      'pools-429-retried',
      { attempt: i + 1, waitMs: wait },
      'a 429 the velocity cap cannot explain may be the documented throttle: the same request is tried again',
    );
    await t.sleep(wait, 'a pools 429 the velocity cap cannot explain: throttle back-off', 'target');
    ex = await send(opts);
  }
  return ex;
}
