// The embedded target issues its partners' live keys itself: a live-format
// key committed to git reads as a leak to every secret scanner, and a
// partner certifying against its sandbox should never see one in a fixture.
// Derived from the partner's sandbox secret key, so two starts from one
// profile (a clean and a faulted instance, `serve` and a test) agree.
import { createHash } from 'node:crypto';
import type { Profile } from '../profile/schema.js';

// The random part's alphabet is the world's (reference.keyAlphabet, which the open point gate.keys.alphabet sets): hex is lowercase.
const ALPHABETS = { alnum: '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz', hex: '0123456789abcdef' } as const;

function derive(prefix: string, purpose: string, sandboxKey: string, alphabet: string): string {
  const digest = createHash('sha256').update(`rampart-reference:${purpose}:${sandboxKey}`).digest();
  return prefix + Array.from(digest.subarray(0, 32), (b) => alphabet[b % alphabet.length]).join('');
}

/** The profile with live keys for every partner in reference.liveKeysFor that declares none. */
export function issueLiveKeys(profile: Profile): Profile {
  const names = profile.reference?.liveKeysFor ?? [];
  if (names.length === 0) return profile;
  const known = new Set(profile.gate.partners.map((p) => p.name));
  const unknown = names.filter((n) => !known.has(n));
  if (unknown.length)
    throw new Error(`reference.liveKeysFor names ${unknown.join(', ')}, not a gate partner of profile ${profile.name} — fix the name or remove it`);
  const wanted = new Set(names);
  const alphabet = ALPHABETS[profile.reference?.keyAlphabet ?? 'alnum'];
  return {
    ...profile,
    gate: {
      ...profile.gate,
      partners: profile.gate.partners.map((p) =>
        wanted.has(p.name)
          ? {
              ...p,
              liveSecretKey: p.liveSecretKey ?? derive('sk_live_', 'live-secret', p.secretKey, alphabet),
              livePublishableKey: p.livePublishableKey ?? derive('pk_live_', 'live-publishable', p.secretKey, alphabet),
            }
          : p,
      ),
    },
  };
}
