// The windows the rate-limit scenario measures by length, with the walk pace
// of each, from the spec's limits (src/model/limits.ts, handed over in the
// run config) and the target's declared window scale. Plain data and
// arithmetic with no k6 imports: rampart reads the same bounds.
import { DEFAULT_WINDOW_TOLERANCE_RATIO, planFor, probeBoundMs, type WindowPlan } from './windowProbe.ts';

export interface RateWindow {
  limit: number;
  windowMs: number;
}

/** The spec's Gate windows (GATE_RATE_WINDOWS and ROUTE_GROUP_FIRST_WINDOW of src/model/limits.ts). */
export interface GateLimits {
  first: RateWindow;
  minute: RateWindow;
  hour: RateWindow;
  routeFirst: { write10: RateWindow; write30: RateWindow; read60: RateWindow };
}

export type WindowCase = 'burst' | 'write10' | 'write30' | 'read60' | 'minute' | 'hour';

/**
 * One probe plan per case, window lengths multiplied by `scale`. Back-to-back walks on one route for the first
 * windows; the minute and hour walks are paced across route groups so no first window can fill: 80 a minute
 * (each group at most 48, default under 3 per 10 s) saturates the minute window in 45 s, 48 a minute stays under it.
 */
export function windowPlans(limits: GateLimits, scale: number, toleranceRatio = DEFAULT_WINDOW_TOLERANCE_RATIO): Record<WindowCase, WindowPlan> {
  const s = (w: RateWindow) => ({ limit: w.limit, windowMs: w.windowMs * scale });
  const minuteMs = limits.minute.windowMs * scale;
  const plan = (w: RateWindow, paceMs: number) => planFor(s(w).limit, s(w).windowMs, Math.round(paceMs), toleranceRatio);
  return {
    burst: plan(limits.first, 0),
    write10: plan(limits.routeFirst.write10, 0),
    write30: plan(limits.routeFirst.write30, 0),
    read60: plan(limits.routeFirst.read60, 0),
    minute: plan(limits.minute, minuteMs / 80),
    hour: plan(limits.hour, minuteMs / 48),
  };
}

/** Upper bound on the scenario's run, seconds: the longest case (cases run side by side, one key each). */
export function rateLimitBoundSeconds(limits: GateLimits, scale: number, depth: 'quick' | 'full', toleranceRatio = DEFAULT_WINDOW_TOLERANCE_RATIO): number {
  const plans = windowPlans(limits, scale, toleranceRatio);
  const cases: WindowCase[] =
    depth === 'full' ? ['burst', 'write10', 'write30', 'read60', 'minute', 'hour'] : ['burst', 'write10', 'write30', 'read60', 'minute'];
  return Math.ceil(Math.max(...cases.map((c) => probeBoundMs(plans[c]))) / 1000) + 30;
}
