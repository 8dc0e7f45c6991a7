// The sandbox's declared retry policy for pools webhooks (pools.webhookRetry):
// the spec leaves the retry schedule and the dead-letter threshold not shown,
// so only a profile that declares them can see a delivery dead-lettered.
import { defineNeed } from '../define.js';
import { QUICK_MAX_SCHEDULE_WAIT_MS } from '../support/lifetimes.js';

export interface PoolsRetryPolicy {
  /** Attempts before a delivery the partner never acknowledges is dead-lettered. */
  attempts: number;
  /** Gaps before attempts 2, 3, … in ms, at the profile's time scale (timing.retryScale). */
  gapsMs: number[];
}

declare module '../../model/needs.js' {
  interface NeedRegistry {
    poolsDeadLetter: PoolsRetryPolicy;
  }
}

const policy = (r: { attempts: number; scheduleSeconds: number[] }, scale: number): PoolsRetryPolicy => ({
  attempts: r.attempts,
  gapsMs: r.scheduleSeconds.slice(0, r.attempts - 1).map((s) => s * 1000 * scale),
});

export default defineNeed({
  name: 'poolsDeadLetter',
  description: "the sandbox's retry schedule and dead-letter threshold for pools webhooks (pools.webhookRetry)",
  missing: (profile, at) => {
    const r = profile.pools?.webhookRetry;
    if (!r)
      return 'pools.webhookRetry is missing: the retry schedule and dead-letter threshold of pools webhooks are not shown — declare the sandbox’s (attempts, scheduleSeconds) to see a delivery dead-lettered';
    const totalMs = policy(r, profile.timing.retryScale).gapsMs.reduce((a, b) => a + b, 0);
    if (at.depth === 'quick' && totalMs > QUICK_MAX_SCHEDULE_WAIT_MS)
      return `the declared pools retry schedule takes ${Math.round(totalMs / 60_000)} min at timing.retryScale ${profile.timing.retryScale}, beyond what a quick run waits: run --depth full`;
    return null;
  },
  setup: (env) => policy(env.profile.pools!.webhookRetry!, env.profile.timing.retryScale),
});
