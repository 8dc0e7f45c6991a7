// The oracle of `rampart explore`: the embedded reference target, started on loopback by the CLI's launcher from a
// profile derived from the target's — the target's world as its profile and answers give it, never the embedded
// profile's: its partners (keys the reference would refuse swapped for ones it takes, and a publishable key of its
// own where the target's partner has none, so explore can steer the oracle's expiry), its catalog and quote, its
// declared lifetimes and time scale — with the reference's own base URLs and sandbox triggers, its rate limits off
// (only the target is paced) and no history (only objects a sequence makes are compared; balances are judged by
// what moved). The harness reaches it over HTTP, through the profile this returns, like any target: the wall between
// the harness and the reference holds.
import { createHash } from 'node:crypto';
import { GATE_LIMITS } from '../model/limits.js';
import { loadProfile } from '../profile/load.js';
import { Profile, type GatePartner, type PoolsPartner } from '../profile/schema.js';
import { registerSecret } from '../secrets/index.js';
import { EXIT, RunError } from '../exitCodes.js';
import { EMBEDDED_PROFILE } from './target.js';

export interface RunningOracle {
  profile: Profile;
  close(): Promise<void>;
}

/** The default session lifetime is not shown: one the target declares none of is taken at half an hour (as explore's capabilities take it). */
const UNDECLARED_SESSION_LIFETIME_SECONDS = 1800;
/** An origin the oracle's own publishable key is allowed from (the oracle only: never sent to the target). */
const ORACLE_ORIGIN = 'https://oracle.rampart.test';
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/**
 * A key the reference takes for one the target's profile holds: the same key where the reference's own pattern
 * accepts it, else one derived from it (same kind and mode, 32 letters and digits), the same on every start. The
 * profile allows any 32 characters (Authentication: `<32 chars>`), the reference letters and digits alone.
 */
export function oracleKey(key: string): string {
  if (GATE_LIMITS.keyPattern.test(key)) return key;
  const m = /^(sk|pk)_(test|live)_/.exec(key);
  const bytes = createHash('sha256').update(key).digest();
  const body = Array.from({ length: GATE_LIMITS.keyBodyLength }, (_, i) => ALNUM[bytes[i % bytes.length]! % ALNUM.length]).join('');
  const derived = `${m?.[1] ?? 'sk'}_${m?.[2] ?? 'test'}_${body}`;
  registerSecret(derived);
  return derived;
}

const swapped = <T extends string | undefined>(k: T): T => (k === undefined ? k : (oracleKey(k) as T));

function oracleGatePartner(p: GatePartner): GatePartner {
  return {
    ...p,
    secretKey: swapped(p.secretKey),
    ...(p.extraSecretKeys ? { extraSecretKeys: p.extraSecretKeys.map((k) => swapped(k)) } : {}),
    // The oracle's own publishable key and origin where the target's partner has none: explore steers the oracle's
    // expiry (a session the target noticed past expires_at) with its bootstrap.
    publishableKey: swapped(p.publishableKey) ?? oracleKey(`pk_test_oracle:${p.name}`),
    allowedOrigins: p.allowedOrigins?.length ? p.allowedOrigins : [ORACLE_ORIGIN],
    ...(p.liveSecretKey ? { liveSecretKey: swapped(p.liveSecretKey) } : {}),
    ...(p.livePublishableKey ? { livePublishableKey: swapped(p.livePublishableKey) } : {}),
    ...(p.revokedSecretKey ? { revokedSecretKey: swapped(p.revokedSecretKey) } : {}),
    ...(p.revokedPublishableKey ? { revokedPublishableKey: swapped(p.revokedPublishableKey) } : {}),
  };
}

/** A pools key the reference takes: its own pattern is letters and digits after the prefix. */
const poolsKey = <T extends string | undefined>(k: T): T => (k === undefined || /^(sk|pk)_(test|live)_[A-Za-z0-9]+$/.test(k) ? k : (oracleKey(k) as T));

function oraclePoolsPartner(p: PoolsPartner): PoolsPartner {
  return {
    ...p,
    secretKey: poolsKey(p.secretKey),
    ...(p.publishableKey ? { publishableKey: poolsKey(p.publishableKey) } : {}),
    ...(p.liveSecretKey ? { liveSecretKey: poolsKey(p.liveSecretKey) } : {}),
    ...(p.revokedSecretKey ? { revokedSecretKey: poolsKey(p.revokedSecretKey) } : {}),
  };
}

/** The oracle's profile: the target's partners, catalog and timing; the embedded reference's triggers and knobs. */
export function oracleProfileOf(target: Profile): Profile {
  const embedded = loadProfile(EMBEDDED_PROFILE);
  const loopback = { sandbox: 'http://127.0.0.1:0/v1', production: 'http://127.0.0.1:0/v1' };
  const derived = {
    ...target,
    name: `${target.name} (oracle)`,
    gate: { ...target.gate, baseUrls: loopback, partners: target.gate.partners.map(oracleGatePartner), triggers: embedded.gate.triggers },
    ...(target.pools
      ? { pools: { ...target.pools, baseUrls: loopback, partners: target.pools.partners.map(oraclePoolsPartner), triggers: embedded.pools?.triggers ?? {} } }
      : {}),
    reference: {
      rateLimits: false,
      timeScale: target.timing.retryScale,
      // The lifetimes the target declares (timing); what it declares none of is not shown.
      sessionLifetimeSeconds: target.timing.sessionLifetimeSeconds ?? UNDECLARED_SESSION_LIFETIME_SECONDS,
      ...(target.timing.signedQuoteLifetimeSeconds ? { signedQuoteLifetimeSeconds: target.timing.signedQuoteLifetimeSeconds } : {}),
      quoteTtlSeconds: 15,
      helperPrefix: embedded.reference?.helperPrefix ?? '/_sandbox',
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

/**
 * What one fresh oracle world of `rampart races` starts from: the target's world as its answers showed it before a
 * burst (a funded partner's pools balance), and the documented readings of open points the world takes (an id of the
 * inventory → one of its choices: where the specs leave an answer open, each reading is tried in turn).
 */
export interface OracleWorldSpec {
  /** The opening balance of the oracle's funded pools partners: the target's, read before the burst. */
  poolsOpeningBalance?: string;
  readings?: Readonly<Record<string, string>>;
}

/** Fresh oracle worlds on demand, each from the same starting state: a race replays each candidate order on its own. */
export interface OracleWorlds {
  fresh(spec?: OracleWorldSpec): Promise<RunningOracle>;
}

/**
 * The oracle-world factory of `rampart races`: the embedded reference on loopback from the profile derived from the
 * target's (oracleProfileOf), started anew for every serial order a race judge tries (a world starts in about a
 * millisecond), so every order replays from the same starting state, and closed by the caller.
 */
export function oracleWorlds(target: Profile, log?: (line: string) => void): OracleWorlds {
  const base = oracleProfileOf(target);
  return {
    async fresh(spec = {}) {
      const [{ startReference }, { dialectProfile }] = await Promise.all([import('../reference/server.js'), import('../reference/dialect.js')]);
      let profile = base;
      if (spec.poolsOpeningBalance !== undefined)
        profile = Profile.parse({ ...profile, reference: { ...profile.reference, poolsOpeningBalance: spec.poolsOpeningBalance } });
      // A reading's effect on the world (a knob, a declared value) is the reference's own (src/reference/dialect.ts).
      if (spec.readings && Object.keys(spec.readings).length)
        profile = dialectProfile(profile, spec.readings as Parameters<typeof dialectProfile>[1], profile.name);
      try {
        const running = await startReference({ profile, ephemeralPorts: true, log });
        return { profile: running.profile, close: () => running.close() };
      } catch (e) {
        throw new RunError(`a races oracle world (the embedded reference, from this profile's partners) could not start: ${(e as Error).message}`, EXIT.usage);
      }
    },
  };
}
