// The run configuration of one scenario (read by scenarios/lib/config.ts):
// the target's base URLs and keys from the profile, the spec's limits and TTL
// from src/model/limits.ts (never the profile's), the target's declared
// window scale, the gates. Or the reason the profile cannot run it.
import type { Profile } from '../profile/schema.js';
import { CLOCK_BOUNDS, GATE_RATE_WINDOWS, POOLS_LIMITS, ROUTE_GROUP_FIRST_WINDOW } from '../model/limits.js';
import { SCENARIOS, type ScenarioName } from '../../scenarios/lib/requirements.js';
import type { Gates } from './gates.js';

import { RATE_LIMIT_KEYS } from '../runner/partition.js';
export { RATE_LIMIT_KEYS };

import { loadKeys } from '../runner/partition.js';
export { loadKeys };

export function requirementsOf(name: ScenarioName, cases: string[]): string[] {
  const spec = SCENARIOS[name] as { cases: Record<string, readonly string[]> };
  return [...new Set(cases.flatMap((c) => spec.cases[c] ?? []))];
}

/** Why `n` execution segments cannot split this scenario on this profile (each segment needs keys of its own), or undefined. */
export function segmentProblem(profile: Profile, name: ScenarioName, n: number): string | undefined {
  if (n <= 1) return undefined;
  const k = loadKeys(profile);
  if ((name === 'smoke' || name === 'soak') && k.traffic.length < n)
    return `--segments ${n}: ${name} gives each segment its own traffic keys, and the profile has ${k.traffic.length} gate partner(s) not reserved for load — use at most ${k.traffic.length} segments`;
  if (name === 'transact-race' && k.funded.length < n)
    return `--segments ${n}: transact-race gives each segment its own funded pools partner, and the profile has ${k.funded.length} — use at most ${k.funded.length} segments`;
  return undefined;
}

export interface BuiltConfig {
  config?: Record<string, unknown>;
  missing?: string;
}

/** The bootstrap's route probe: the publishable key of a load-reserved partner with an allowed origin (its own rate-limit client). */
function embedOf(reserved: { publishableKey?: string; allowedOrigins?: string[] }[]): { embed?: { publishableKey: string; origin: string } } {
  const p = [...reserved].reverse().find((x) => x.publishableKey && x.allowedOrigins?.length);
  return p ? { embed: { publishableKey: p.publishableKey!, origin: p.allowedOrigins![0]! } } : {};
}

/** The configuration of one scenario run, or what the profile lacks for it. */
export function configFor(
  profile: Profile,
  name: ScenarioName,
  cases: string[],
  depth: 'quick' | 'full',
  gates: Gates,
  seed: number,
  /** Requests the run's earlier kinds sent in the current hour window, by Gate partner (its traffic key's share of the window). */
  hourUsed?: ReadonlyMap<string, number>,
): BuiltConfig {
  const spec = SCENARIOS[name];
  const keys = loadKeys(profile);
  if (name === 'rate-limits' && keys.reserved.length < RATE_LIMIT_KEYS) {
    return {
      missing: `the profile reserves ${keys.reserved.length} gate partner(s) for load (reservedFor: "load"); the rate-limit cases need ${RATE_LIMIT_KEYS} keys with empty windows (certify judges the 60-per-minute window on the conformance stream)`,
    };
  }
  const gate = {
    baseUrl: profile.gate.baseUrls.sandbox,
    keys: keys.reserved.map((p) => p.secretKey),
    routeKeys: keys.routeKeys,
    trafficKeys: keys.traffic.map((p) => p.secretKey),
    ...(hourUsed?.size ? { trafficHourUsed: keys.traffic.map((p) => hourUsed.get(p.name) ?? 0) } : {}),
    sessionBody: { amount: '10.00', currency: 'EUR', return_url: 'https://example.test/return', ...(profile.gate.sessionDefaults ?? {}) },
    limits: {
      ...GATE_RATE_WINDOWS,
      routeFirst: { write10: ROUTE_GROUP_FIRST_WINDOW.write10, write30: ROUTE_GROUP_FIRST_WINDOW.write30, read60: ROUTE_GROUP_FIRST_WINDOW.read60 },
    },
    rateWindowScale: profile.timing.rateWindowScale,
    rateWindowRatio: profile.tolerances.rateWindowRatio,
    ...embedOf(keys.reserved),
  };
  let pools: Record<string, unknown> | undefined;
  const p = profile.pools;
  if (p && keys.funded.length) {
    const { $comment: _c, ...quote } = p.quote as Record<string, unknown>;
    pools = {
      baseUrl: p.baseUrls.sandbox,
      keys: keys.funded.map((x) => x.secretKey),
      pool: p.pools.main,
      quote: { side: 'on_ramp', type: 'firm', ...quote },
      ttlSeconds: POOLS_LIMITS.quoteTtlSeconds,
      ttlToleranceSeconds: profile.tolerances.quoteTtlSeconds,
      clockBoundMs: Math.min(CLOCK_BOUNDS.poolsQuoteTtl.maxUncertaintyMs, profile.tolerances.quoteTtlSeconds * 500),
    };
  }
  if (spec.service === 'pools' && !pools)
    return { missing: p ? 'the profile has no funded pools partner without a velocity cap' : 'the profile has no pools section' };
  return { config: { scenario: name, depth, cases, requirements: requirementsOf(name, cases), seed, gates, gate, pools } };
}
