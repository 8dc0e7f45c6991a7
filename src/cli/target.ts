// Resolving the target of a run: a profile file, or the embedded reference
// target started in-process (no --profile), and the safety gate. The preflight
// that turns an unreachable or non-API target into one clear line: preflight.ts.
import { loadProfile } from '../profile/load.js';
import type { Profile } from '../profile/schema.js';
import { EXIT, RunError } from '../exitCodes.js';
import { packagePath } from '../packageRoot.js';

export { preflight } from './preflight.js';

/** The embedded target's profile: in the package, whatever folder rampart runs in. */
export const EMBEDDED_PROFILE = packagePath('fixtures', 'profiles', 'embedded.json');

export interface ResolvedTarget {
  profile: Profile;
  embedded: boolean;
  faults: string[];
  close(): Promise<void>;
}

export async function resolveTarget(opts: { profile?: string; faults?: string[]; log?: (l: string) => void }): Promise<ResolvedTarget> {
  if (opts.profile) {
    if (opts.faults?.length) throw new RunError('--fault applies only to the embedded target (run without --profile)', EXIT.usage);
    return { profile: loadProfile(opts.profile), embedded: false, faults: [], close: async () => {} };
  }
  const base = loadProfile(EMBEDDED_PROFILE);
  // The embedded target lives on the other side of the wall: loaded only here, on demand.
  const { startReference } = await import('../reference/server.js');
  let running;
  try {
    running = await startReference({ profile: base, faults: opts.faults ?? [], ephemeralPorts: true, log: opts.log });
  } catch (e) {
    throw new RunError((e as Error).message, EXIT.usage);
  }
  return { profile: running.profile, embedded: true, faults: running.faults, close: () => running.close() };
}

const LOOPBACK = /^https?:\/\/(127\.\d+\.\d+\.\d+|localhost|\[::1\])(:\d+)?\//;

/**
 * What would make load or chaos traffic touch live money: a live key in a
 * profile whose target is not on this machine, or a sandbox base URL that is
 * the production one. (The embedded target's live keys are loopback-only.)
 */
export function liveHazards(profile: Profile): string[] {
  const out: string[] = [];
  const targets = [profile.gate.baseUrls.sandbox, profile.pools?.baseUrls.sandbox].filter((u): u is string => !!u);
  const remote = targets.some((u) => !LOOPBACK.test(u));
  if (remote) {
    for (const p of profile.gate.partners) if (p.liveSecretKey || p.livePublishableKey) out.push(`gate partner ${p.name} holds a live key`);
    for (const p of profile.pools?.partners ?? []) if (p.liveSecretKey) out.push(`pools partner ${p.name} holds a live key`);
  }
  if (profile.gate.baseUrls.production && profile.gate.baseUrls.production === profile.gate.baseUrls.sandbox)
    out.push('gate.baseUrls.sandbox is the production base URL');
  if (profile.pools?.baseUrls.production && profile.pools.baseUrls.production === profile.pools.baseUrls.sandbox)
    out.push('pools.baseUrls.sandbox is the production base URL');
  return out;
}

/** Load and chaos runs refuse live keys and production base URLs unless --allow-live. */
export function assertSafeForTraffic(profile: Profile, allowLive: boolean, what: string): void {
  if (allowLive) return;
  const hazards = liveHazards(profile);
  if (hazards.length) {
    throw new RunError(`${what} refused for safety: ${hazards.join('; ')} — use a sandbox profile or pass --allow-live`, EXIT.refusedForSafety);
  }
}
