// Declared lifetimes stand in for a trigger: a check that needs an expired
// session or quote waits the declared lifetime out, in real time. The longest
// wait a quick run accepts; full depth accepts any.
export const QUICK_MAX_LIFETIME_WAIT_S = 120;

export function lifetimeUsable(seconds: number | undefined, depth: 'quick' | 'full'): boolean {
  return seconds !== undefined && (depth === 'full' || seconds <= QUICK_MAX_LIFETIME_WAIT_S);
}

/** The longest real-time retry schedule a quick run waits through (support/gate/deliveries.ts QUICK_SCHEDULE_BUDGET_MS). */
export const QUICK_MAX_SCHEDULE_WAIT_MS = 10 * 60_000;
