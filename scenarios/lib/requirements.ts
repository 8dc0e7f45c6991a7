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

/**
 * The requirement ids of a window probe's checks: the count (the first 429 at the documented request), the
 * window reopening in time, and its length (every status fits the window under some reading). Ids the lead will
 * add to the catalogue (see docs/distributed-load.md and the closing report) are carried by the nearest existing
 * id until then: the proposed id is in the comment.
 */
export const WINDOW_CHECK_IDS = {
  burst: { count: 'GATE-RATE-FIRST-WINDOW', reopens: 'GATE-RATE-FIRST-WINDOW-REOPENS', length: 'GATE-RATE-FIRST-WINDOW-LENGTH' },
  write10: { count: 'GATE-RATE-ROUTE-WRITE10', reopens: 'GATE-RATE-ROUTE-WRITE10-LENGTH', length: 'GATE-RATE-ROUTE-WRITE10-LENGTH' },
  write30: { count: 'GATE-RATE-ROUTE-WRITE30', reopens: 'GATE-RATE-ROUTE-WRITE30-LENGTH', length: 'GATE-RATE-ROUTE-WRITE30-LENGTH' },
  read60: { count: 'GATE-RATE-ROUTE-READ60', reopens: 'GATE-RATE-ROUTE-READ60-LENGTH', length: 'GATE-RATE-ROUTE-READ60-LENGTH' },
  minute: { count: 'GATE-RATE-MINUTE-WINDOW', reopens: 'GATE-RATE-MINUTE-WINDOW-LENGTH', length: 'GATE-RATE-MINUTE-WINDOW-LENGTH' },
  hour: { count: 'GATE-RATE-HOUR-WINDOW', reopens: 'GATE-RATE-HOUR-WINDOW-LENGTH', length: 'GATE-RATE-HOUR-WINDOW-LENGTH' },
} as const;

const windowIds = (c: keyof typeof WINDOW_CHECK_IDS) => [...new Set(Object.values(WINDOW_CHECK_IDS[c]))];

export const SCENARIOS = {
  'rate-limits': {
    service: 'gate',
    cases: {
      burst: [...windowIds('burst'), 'GATE-RATE-429-ENVELOPE'],
      perClient: ['GATE-RATE-PER-CLIENT'],
      write10: [...windowIds('write10'), 'GATE-RATE-429-ENVELOPE'],
      write30: [...windowIds('write30'), 'GATE-RATE-429-ENVELOPE'],
      read60: [...windowIds('read60'), 'GATE-RATE-429-ENVELOPE'],
      replacesFirstOnly: ['GATE-RATE-ROUTE-REPLACES-FIRST-ONLY', 'GATE-RATE-429-ENVELOPE'],
      minute: [...windowIds('minute'), 'GATE-RATE-429-ENVELOPE'],
      // The hour window's 429 is checked under GATE-RATE-429-ENVELOPE too, gating whenever a quick case runs beside it.
      hour: windowIds('hour'),
      routes: ['GATE-RATE-ROUTES-WRITE10', 'GATE-RATE-ROUTES-WRITE30', 'GATE-RATE-ROUTES-READ60', 'GATE-RATE-ROUTES-DEFAULT', 'GATE-RATE-429-ENVELOPE'],
    },
    fullOnly: ['hour'],
    // At the spec's windows (scale 1); rampart bounds a scaled run by scenarios/lib/rateCases.ts.
    maxSeconds: { quick: 360, full: 9000 },
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
