// Test support: start the embedded reference target on ephemeral ports and
// run conformance checks against it through the same runner the CLI uses.
import { loadProfile } from '../../src/profile/load.js';
import type { Profile } from '../../src/profile/schema.js';
import { startReference, type RunningReference } from '../../src/reference/server.js';
import { createProgress } from '../../src/runner/progress.js';
import { loadConformanceSuites, runChecks, type ChecksOutcome, type LoadedSuite } from '../../src/runner/run.js';

export async function startEmbedded(opts: { profileFile?: string; faults?: string[]; tweak?: (p: Profile) => Profile } = {}): Promise<RunningReference> {
  let profile = loadProfile(opts.profileFile ?? 'fixtures/profiles/embedded.json');
  if (opts.tweak) profile = opts.tweak(profile);
  return startReference({ profile, faults: opts.faults ?? [], ephemeralPorts: true });
}

/** Suites restricted to the checks naming one of `ids` (all checks when ids is undefined). */
export function onlyChecksFor(suites: LoadedSuite[], ids?: readonly string[]): LoadedSuite[] {
  if (!ids) return suites;
  const want = new Set<string>(ids);
  return suites.map((s) => ({ ...s, checks: s.checks.filter((c) => c.requirements.some((r) => want.has(r))) })).filter((s) => s.checks.length > 0);
}

export async function runAgainst(ref: { profile: Profile }, suites: LoadedSuite[], opts: { concurrency?: number } = {}): Promise<ChecksOutcome> {
  return runChecks({
    profile: ref.profile,
    suites,
    depth: 'quick',
    concurrency: opts.concurrency,
    progress: createProgress({ live: false, quiet: true }),
  });
}

export { loadConformanceSuites };

/**
 * A world that reads the specs its own way (src/reference/dialect.ts): "everywhere" (the dialect world: every open
 * point other than the reference's own) or a seed (one choice per point, drawn), built on the embedded profile.
 */
export async function startDialect(spec: string, opts: { faults?: string[]; profileFile?: string } = {}): Promise<RunningReference> {
  const { dialectOf, dialectProfile } = await import('../../src/reference/dialect.js');
  const profile = dialectProfile(loadProfile(opts.profileFile ?? 'fixtures/profiles/embedded.json'), dialectOf(spec), `dialect ${spec}`);
  return startReference({ profile, faults: opts.faults ?? [], ephemeralPorts: true });
}
