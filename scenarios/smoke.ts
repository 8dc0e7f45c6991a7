// smoke: mixed partner traffic within the documented limits across every
// traffic key — a short CI performance gate. Thresholds (p95/p99 per route group, the
// unexpected-status rate) come from the gates file.
import { loadConfig, summaryFiles } from './lib/config.ts';
import { guarded } from './lib/guard.ts';
import { gateThresholds, mixedTraffic, trafficPerMinute } from './lib/traffic.ts';
import { SMOKE_TAIL } from './lib/trafficRate.ts';

const cfg = loadConfig();
const duration = cfg.gates.smokeDurationSeconds ?? 30;
/** Iterations over the run at the steady rate: a whole number over one time unit (the whole run). */
const steady = Math.max(1, Math.floor((trafficPerMinute(cfg, duration) * duration) / 60));
/**
 * A short ramp to 0 ends the run, sized so it adds TAIL + ½ iterations: the last iteration then starts
 * three intervals before the end, never at its edge. At a constant rate the last one started one
 * interval before the end, and on a loaded machine a late timer dropped it from one process and not
 * from another: a split into execution segments must send exactly the iterations one process sends.
 */
const TAIL = SMOKE_TAIL;
const rampSeconds = (duration * (2 * TAIL + 1)) / steady;

export const options = {
  scenarios: {
    smoke: {
      executor: 'ramping-arrival-rate',
      startRate: steady,
      timeUnit: `${duration}s`,
      stages: [
        { target: steady, duration: `${duration}s` },
        { target: 0, duration: `${rampSeconds.toFixed(3)}s` },
      ],
      preAllocatedVUs: 8,
      maxVUs: 32,
      gracefulStop: '15s',
    },
  },
  thresholds: gateThresholds(cfg),
  // count: a percentile gate judges only on enough samples (src/load/verdict.ts percentileMinSamples).
  summaryTrendStats: ['avg', 'min', 'med', 'p(90)', 'p(95)', 'p(99)', 'max', 'count'],
};

export default guarded('smoke', (): void => {
  mixedTraffic(cfg);
});

export function handleSummary(data: unknown) {
  return summaryFiles(data);
}
