// Which requirement ids each load scenario proves, per case. Plain data with
// no k6 imports: the scenarios tag their checks with these ids and rampart
// (src/load) reads the same table for thresholds and results.
export interface ScenarioSpec {
  /** Cases → requirement ids their checks carry. */
  cases: Record<string, string[]>;
  /** Cases that run only at --depth full (long real-time windows). */
  fullOnly?: string[];
  /** Upper bound on the run, seconds, at quick and full depth. */
  maxSeconds: { quick: number; full: number };
  service: 'gate' | 'pools';
}

export const SCENARIOS = {
  'rate-limits': {
    service: 'gate',
    cases: {
      burst: ['GATE-RATE-FIRST-WINDOW', 'GATE-RATE-429-ENVELOPE', 'GATE-RATE-FIRST-WINDOW-REOPENS'],
      perClient: ['GATE-RATE-PER-CLIENT'],
      write10: ['GATE-RATE-ROUTE-WRITE10'],
      write30: ['GATE-RATE-ROUTE-WRITE30'],
      read60: ['GATE-RATE-ROUTE-READ60'],
      replacesFirstOnly: ['GATE-RATE-ROUTE-REPLACES-FIRST-ONLY'],
      minute: ['GATE-RATE-MINUTE-WINDOW'],
      hour: ['GATE-RATE-HOUR-WINDOW'],
    },
    fullOnly: ['hour'],
    maxSeconds: { quick: 150, full: 480 },
  },
  'quote-ttl': {
    service: 'pools',
    cases: {
      ttl: ['POOLS-TTL-EXPIRES-AT', 'POOLS-TTL-TRANSACT-BEFORE-EXPIRY', 'POOLS-TTL-TRANSACT-AFTER-EXPIRY-409', 'POOLS-TTL-UNDER-LOAD'],
    },
    maxSeconds: { quick: 90, full: 150 },
  },
  'transact-race': {
    service: 'pools',
    cases: { race: ['POOLS-TX-RACE-UNDER-LOAD', 'POOLS-BAL-RESERVE-DEBIT'] },
    maxSeconds: { quick: 60, full: 60 },
  },
  smoke: { service: 'gate', cases: { traffic: [] }, maxSeconds: { quick: 90, full: 90 } },
  soak: { service: 'gate', cases: { traffic: [] }, maxSeconds: { quick: 7300, full: 7300 } },
} as const satisfies Record<string, ScenarioSpec>;

export type ScenarioName = keyof typeof SCENARIOS;
