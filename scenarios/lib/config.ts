// The run configuration rampart hands to every scenario: a JSON file written
// by src/load/runK6.ts (keys never travel on the command line) and named by
// the RAMPART_CONFIG environment variable.
export interface LoadConfig {
  scenario: string;
  depth: 'quick' | 'full';
  /** Subset of the scenario's cases to run (fault self-tests); all when absent. */
  cases?: string[];
  /** Requirement ids this run proves: one `checks{req:ID}` threshold each. */
  requirements: string[];
  gate?: {
    baseUrl: string;
    /** Secret keys reserved for load (rate windows start empty). */
    keys: string[];
    /** Keys for mixed traffic (smoke/soak), paced within the documented limits. */
    trafficKeys: string[];
    sessionBody: Record<string, unknown>;
  };
  pools?: {
    baseUrl: string;
    /** Funded partners' secret keys. */
    keys: string[];
    pool: string;
    quote: Record<string, unknown>;
    ttlSeconds: number;
    ttlToleranceSeconds: number;
  };
  /** Threshold values from the gates file. */
  gates: {
    errorRate: number;
    p95Ms: Record<string, number>;
    p99Ms: Record<string, number>;
    quoteTtlVus?: number;
    quoteTtlRate?: number;
    quoteTtlDurationSeconds?: number;
    raceVus?: number;
    smokeDurationSeconds?: number;
    soakDurationSeconds?: number;
  };
}

export function loadConfig(): LoadConfig {
  const path = __ENV.RAMPART_CONFIG;
  if (!path) throw new Error('RAMPART_CONFIG is not set: run scenarios through `rampart load`');
  return JSON.parse(open(path)) as LoadConfig;
}

export function wants(cfg: LoadConfig, caseName: string): boolean {
  return !cfg.cases || cfg.cases.includes(caseName);
}

/** One threshold per requirement id: every check tagged with it must pass. */
export function requirementThresholds(cfg: LoadConfig): Record<string, string[]> {
  const t: Record<string, string[]> = {};
  for (const id of cfg.requirements) t[`checks{req:${id}}`] = ['rate==1'];
  return t;
}

/** handleSummary output: summary.json into the run directory, nothing on stdout. */
export function summaryFiles(data: unknown): Record<string, string> {
  const out = __ENV.RAMPART_OUT;
  if (!out) return { stdout: '' };
  return { [`${out}/summary.json`]: JSON.stringify(data, null, 1) };
}
