// soak: mixed partner traffic within the documented limits across every
// traffic key — the same mix held for the gates file's soak duration (nightly). Thresholds (p95/p99 per route group, the
// unexpected-status rate) come from the gates file.
import { loadConfig, summaryFiles } from './lib/config.ts';
import { gateThresholds, mixedTraffic, trafficRate } from './lib/traffic.ts';

const cfg = loadConfig();

export const options = {
  scenarios: {
    soak: {
      executor: 'constant-arrival-rate',
      rate: trafficRate(cfg),
      timeUnit: '1s',
      duration: `${cfg.gates.soakDurationSeconds ?? 600}s`,
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
