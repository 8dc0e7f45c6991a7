// The run configuration rampart hands to every scenario: a JSON file written
// by src/load/run.ts (keys never travel on the command line) and named by
// the RAMPART_CONFIG environment variable. A string of the form ${NAME} is
// read from the environment instead: the k6-operator bundle carries keys that
// way, from a Kubernetes Secret (src/load/operator.ts).
import type { GateLimits } from './rateCases.ts';

export interface LoadConfig {
  scenario: string;
  depth: 'quick' | 'full';
  /** Subset of the scenario's cases to run (fault self-tests); all when absent. */
  cases?: string[];
  /** Requirement ids this run proves: one `checks{req:ID}` threshold each. */
  requirements: string[];
  /** Seeds the traffic mix (smoke, soak): the same seed gives the same operations, split or not. */
  seed: number;
  gate?: {
    baseUrl: string;
    /** Secret keys reserved for load (rate windows start empty). */
    keys: string[];
    /** Keys of the route probes' own (the load partners' extra secret keys): their windows start empty too. */
    routeKeys?: string[];
    /** Keys for mixed traffic (smoke/soak), paced within the documented limits. */
    trafficKeys: string[];
    sessionBody: Record<string, unknown>;
    /** The spec's rate windows (src/model/limits.ts); never the profile's. */
    limits: GateLimits;
    /** The target's declared window scale (profile timing.rateWindowScale): lengths multiplied, limits unchanged. */
    rateWindowScale: number;
    /** Allowed error on a measured window length, as a share of the window (profile tolerances.rateWindowRatio). */
    rateWindowRatio: number;
    /** A publishable key of a load-reserved partner and one of its allowed origins: the bootstrap's route probe. */
    embed?: { publishableKey: string; origin: string };
  };
  pools?: {
    baseUrl: string;
    /** Funded partners' secret keys. */
    keys: string[];
    pool: string;
    quote: Record<string, unknown>;
    /** The spec's firm-quote TTL (POOLS_LIMITS.quoteTtlSeconds). */
    ttlSeconds: number;
    /** The profile's tolerance around it. */
    ttlToleranceSeconds: number;
    /** The widest uncertainty of the target's clock the TTL is judged with (CLOCK_BOUNDS.poolsQuoteTtl, or half the tolerance). */
    clockBoundMs: number;
    /** The target's clock against this machine's as rampart measured it before k6 started (each VU refines it). */
    clock?: { offsetMs: number; uncertaintyMs: number };
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

const ENV_REF = /^\$\{([A-Za-z_][A-Za-z0-9_]*)\}$/;

/**
 * Replace every "${NAME}" string by the environment variable NAME. An unset one stays a reference: `k6 archive`
 * runs this with no keys in its environment, and a request made with one fails loudly (http.ts).
 */
function fromEnv(value: unknown): unknown {
  if (typeof value === 'string') {
    const m = ENV_REF.exec(value);
    const v = m ? __ENV[m[1]!] : undefined;
    return v === undefined || v === '' ? value : v;
  }
  if (Array.isArray(value)) return value.map(fromEnv);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = fromEnv(v);
    return out;
  }
  return value;
}

export function loadConfig(): LoadConfig {
  const path = __ENV.RAMPART_CONFIG;
  if (!path) throw new Error('RAMPART_CONFIG is not set: run scenarios through `rampart load`');
  return fromEnv(JSON.parse(open(path))) as LoadConfig;
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

/**
 * handleSummary output: summary.json into the run directory. Without one (a k6-operator runner pod), the summary
 * goes to stdout as one line, so `kubectl logs` hands it over for merging.
 */
export function summaryFiles(data: unknown): Record<string, string> {
  const out = __ENV.RAMPART_OUT;
  if (!out) return { stdout: `RAMPART_SUMMARY ${JSON.stringify(data)}\n` };
  return { [`${out}/summary.json`]: JSON.stringify(data, null, 1) };
}
