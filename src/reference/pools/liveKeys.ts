// The embedded target issues live secret keys to the pools partners named in
// reference.poolsLiveKeysFor, like Gate's (../liveKeys.ts): derived from the
// partner's sandbox key, so two starts from one profile agree, and never a
// live-format key in a tracked file. They appear in the running profile.
import { createHash } from 'node:crypto';
import type { Profile } from '../../profile/schema.js';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

function derive(sandboxKey: string): string {
  const digest = createHash('sha256').update(`rampart-reference:pools-live-secret:${sandboxKey}`).digest();
  return 'sk_live_' + Array.from(digest.subarray(0, 32), (b) => ALPHABET[b % ALPHABET.length]).join('');
}

/** The profile with a live secret key for every pools partner in reference.poolsLiveKeysFor that declares none. */
export function issuePoolsLiveKeys(profile: Profile): Profile {
  const names = profile.reference?.poolsLiveKeysFor ?? [];
  if (names.length === 0 || !profile.pools) return profile;
  const known = new Set(profile.pools.partners.map((p) => p.name));
  const unknown = names.filter((n) => !known.has(n));
  if (unknown.length)
    throw new Error(`reference.poolsLiveKeysFor names ${unknown.join(', ')}, not a pools partner of profile ${profile.name} — fix the name or remove it`);
  const wanted = new Set(names);
  return {
    ...profile,
    pools: {
      ...profile.pools,
      partners: profile.pools.partners.map((p) => (wanted.has(p.name) ? { ...p, liveSecretKey: p.liveSecretKey ?? derive(p.secretKey) } : p)),
    },
  };
}
