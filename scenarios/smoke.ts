// smoke: mixed partner traffic within the documented limits across every
// traffic key — a short CI performance gate. Thresholds (p95/p99 per route group, the
// unexpected-status rate) come from the gates file.
import { loadConfig, summaryFiles } from './lib/config.ts';
import { gateThresholds, mixedTraffic, trafficRate } from './lib/traffic.ts';

const cfg = loadConfig();

export const options = {
  scenarios: {
    smoke: {
      executor: 'constant-arrival-rate',
      rate: trafficRate(cfg),
      timeUnit: '1s',
      duration: `${cfg.gates.smokeDurationSeconds ?? 30}s`,
      preAllocatedVUs: 8,
      maxVUs: 32,
      gracefulStop: '15s',
    },
  },
  thresholds: gateThresholds(cfg),
  summaryTrendStats: ['avg', 'min', 'med', 'p(90)', 'p(95)', 'p(99)', 'max'],
};

export default function (): void {
  mixedTraffic(cfg);
}

export function handleSummary(data: unknown) {
  return summaryFiles(data);
}
