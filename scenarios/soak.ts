// soak: mixed partner traffic within the documented limits across every
// traffic key — the same mix held for the gates file's soak duration (nightly). Thresholds (p95/p99 per route group, the
// unexpected-status rate) come from the gates file.
import { loadConfig, summaryFiles } from './lib/config.ts';
import { guarded } from './lib/guard.ts';
import { gateThresholds, mixedTraffic, trafficPerMinute } from './lib/traffic.ts';

const cfg = loadConfig();
const duration = cfg.gates.soakDurationSeconds ?? 600;

export const options = {
  scenarios: {
    soak: {
      executor: 'constant-arrival-rate',
      rate: trafficPerMinute(cfg, duration),
      timeUnit: '1m',
      duration: `${duration}s`,
      preAllocatedVUs: 8,
      maxVUs: 32,
      gracefulStop: '15s',
    },
  },
  thresholds: gateThresholds(cfg),
  // count: a percentile gate judges only on enough samples (src/load/verdict.ts percentileMinSamples).
  summaryTrendStats: ['avg', 'min', 'med', 'p(90)', 'p(95)', 'p(99)', 'max', 'count'],
};

export default guarded('soak', (): void => {
  mixedTraffic(cfg);
});

export function handleSummary(data: unknown) {
  return summaryFiles(data);
}
