// The round trip the plan multiplies through the requests that must go one after another: given on the command
// line (`rampart plan --rtt MS`), or as `rampart doctor` last measured it for the profile's base URLs (kept in the
// per-user cache beside the tools, so a plan in another folder finds it). A lower bound takes the median.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Profile } from '../profile/schema.js';
import { toolsCacheDir } from '../tools/pinned.js';

export interface MeasuredRoundTrip {
  medianMs: number;
  p95Ms: number;
  /** ISO time of the measurement. */
  at: string;
}

export interface PlanRoundTrip {
  ms: number;
  source: 'option' | 'doctor' | 'none';
  /** When `rampart doctor` measured it. */
  at?: string;
}

/** The cache file: base URL → the doctor's last measurement. */
export function roundTripFile(env: NodeJS.ProcessEnv = process.env): string {
  return join(dirname(toolsCacheDir(env)), 'round-trips.json');
}

function read(file: string): Record<string, MeasuredRoundTrip> {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Record<string, MeasuredRoundTrip>;
  } catch {
    return {};
  }
}

/** Keep what the doctor measured for each base URL it reached (the last measurement wins). */
export function recordRoundTrips(measured: Record<string, { medianMs: number; p95Ms: number } | undefined>, env: NodeJS.ProcessEnv = process.env): void {
  const file = roundTripFile(env);
  const all = read(file);
  const at = new Date().toISOString();
  for (const [url, rt] of Object.entries(measured)) if (rt) all[url] = { medianMs: rt.medianMs, p95Ms: rt.p95Ms, at };
  try {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(`${file}.tmp`, JSON.stringify(all, null, 1) + '\n');
    renameSync(`${file}.tmp`, file);
  } catch {
    /* a read-only cache only costs the plan its round trip: it says so */
  }
}

/** The base URLs whose round trip binds a run of this profile. */
const basesOf = (profile: Profile) => [profile.gate.baseUrls.sandbox, profile.pools?.baseUrls.sandbox].filter((u): u is string => !!u);

/** The round trip a plan of this profile counts: the option, else the doctor's (the slower service's median), else none. */
export function planRoundTrip(profile: Profile, optionMs?: number, env: NodeJS.ProcessEnv = process.env): PlanRoundTrip {
  if (optionMs !== undefined) return { ms: optionMs, source: 'option' };
  const all = read(roundTripFile(env));
  const known = basesOf(profile)
    .map((u) => all[u])
    .filter((m): m is MeasuredRoundTrip => !!m);
  if (!known.length) return { ms: 0, source: 'none' };
  const slowest = known.reduce((a, b) => (b.medianMs > a.medianMs ? b : a));
  return { ms: slowest.medianMs, source: 'doctor', at: slowest.at };
}
