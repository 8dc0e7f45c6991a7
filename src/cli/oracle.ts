// The oracle of `rampart explore`: the embedded reference target, started on loopback by the CLI's launcher from a
// profile derived from the target's — its partners and keys, its catalog and quote, its declared lifetimes and time
// scale — with the reference's own base URLs and sandbox triggers, its rate limits off (only the target is paced)
// and no history (only objects a sequence makes are compared). The harness reaches it over HTTP, through the profile
// this returns, like any target: the wall between the harness and the reference holds.
import { loadProfile } from '../profile/load.js';
import { Profile } from '../profile/schema.js';
import { EXIT, RunError } from '../exitCodes.js';
import { EMBEDDED_PROFILE } from './target.js';

export interface RunningOracle {
  profile: Profile;
  close(): Promise<void>;
}

/** The oracle's profile: the target's partners, catalog and timing; the embedded reference's triggers and knobs. */
export function oracleProfileOf(target: Profile): Profile {
  const embedded = loadProfile(EMBEDDED_PROFILE);
  const loopback = { sandbox: 'http://127.0.0.1:0/v1', production: 'http://127.0.0.1:0/v1' };
  const derived = {
    ...target,
    name: `${target.name} (oracle)`,
    gate: { ...target.gate, baseUrls: loopback, triggers: embedded.gate.triggers },
    ...(target.pools ? { pools: { ...target.pools, baseUrls: loopback, triggers: embedded.pools?.triggers ?? {} } } : {}),
    reference: {
      rateLimits: false,
      timeScale: target.timing.retryScale,
      sessionLifetimeSeconds: target.timing.sessionLifetimeSeconds ?? embedded.reference?.sessionLifetimeSeconds ?? 1800,
      quoteTtlSeconds: 15,
      helperPrefix: embedded.reference?.helperPrefix ?? '/_sandbox',
      ...(embedded.reference?.poolsOpeningBalance ? { poolsOpeningBalance: embedded.reference.poolsOpeningBalance } : {}),
    },
  };
  // Through the schema: the reference's knobs take their defaults like any profile's.
  return Profile.parse(derived);
}

export async function startOracle(target: Profile, log?: (line: string) => void): Promise<RunningOracle> {
  const { startReference } = await import('../reference/server.js');
  try {
    const running = await startReference({ profile: oracleProfileOf(target), ephemeralPorts: true, log });
    return { profile: running.profile, close: () => running.close() };
  } catch (e) {
    throw new RunError(`the explore oracle (the embedded reference, from this profile's partners) could not start: ${(e as Error).message}`, EXIT.usage);
  }
}
