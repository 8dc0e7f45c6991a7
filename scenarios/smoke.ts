// smoke: mixed partner traffic within the documented limits across every
// traffic key — a short CI performance gate. Thresholds (p95/p99 per route group, the
// unexpected-status rate) come from the gates file.
import { loadConfig, summaryFiles } from './lib/config.ts';
import { guarded } from './lib/guard.ts';
import { gateThresholds, mixedTraffic, trafficPerMinute } from './lib/traffic.ts';

const cfg = loadConfig();
const duration = cfg.gates.smokeDurationSeconds ?? 30;

export const options = {
  scenarios: {
    smoke: {
      executor: 'constant-arrival-rate',
      // A whole number of iterations over the whole run (one time unit), so a split
      // into execution segments sends exactly the iterations one process sends.
      rate: Math.max(1, Math.floor((trafficPerMinute(cfg, duration) * duration) / 60)),
      timeUnit: `${duration}s`,
      duration: `${duration}s`,
      preAllocatedVUs: 8,
      maxVUs: 32,
      gracefulStop: '15s',
    },
  },
  thresholds: gateThresholds(cfg),
  summaryTrendStats: ['avg', 'min', 'med', 'p(90)', 'p(95)', 'p(99)', 'max'],
};

export default guarded('smoke', (): void => {
  mixedTraffic(cfg);
});

export function handleSummary(data: unknown) {
  return summaryFiles(data);
}
