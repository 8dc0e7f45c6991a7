// The one list of secret shapes rampart knows: redaction masks them and the
// secret scan looks for them. Nothing else in the code base keeps a list.

export interface SecretShape {
  /** What the scan calls a finding of this shape (never the secret itself). */
  kind: string;
  /** Global regex; no leading word boundary: "revoked_sk_test_…" must match too (over-masking is harmless, a leak is not). */
  re: RegExp;
  /** The mask keeps only the recognisable prefix, never any of the random part. */
  mask: (match: string, ...groups: string[]) => string;
}

// Masked forms ("sk_test_[redacted]", "eyJ[redacted]") never match again: a mask starts with "[".
export const SECRET_SHAPES: readonly SecretShape[] = [
  { kind: 'secret key (sk_)', re: /sk_(test|live)_[A-Za-z0-9]+/g, mask: (_m, mode) => `sk_${mode}_[redacted]` },
  { kind: 'publishable key (pk_)', re: /pk_(test|live)_[A-Za-z0-9]+/g, mask: (_m, mode) => `pk_${mode}_[redacted]` },
  { kind: 'restricted key (rk_)', re: /rk_(test|live)_[A-Za-z0-9]+/g, mask: (_m, mode) => `rk_${mode}_[redacted]` },
  { kind: 'client secret (gsec_)', re: /gsec_[A-Za-z0-9_-]+/g, mask: () => 'gsec_[redacted]' },
  { kind: 'webhook secret (whsec_)', re: /whsec_[A-Za-z0-9_\-+/=]+/g, mask: () => 'whsec_[redacted]' },
  // JWT-shaped tokens (embed tokens, account assertions).
  { kind: 'JWT-shaped token', re: /eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g, mask: () => 'eyJ[redacted]' },
];

/** The recognisable prefix of a key-like secret; what follows it is the random part. */
export const SECRET_PREFIX = /^(?:(?:sk|pk|rk)_(?:test|live)_|gsec_|whsec_)/;

/** Key-like secrets a target issues (API keys, webhook secrets): registered by value when seen in an answer. */
export const ISSUED_KEY = /(?:(?:sk|pk|rk)_(?:test|live)_[A-Za-z0-9]+|whsec_[A-Za-z0-9_\-+/=]+)/g;

// An Authorization Bearer credential in any quoting: a header dump, JSON, escaped JSON.
// Prose ("PK = publishable key bearer") has no Authorization context and is not a finding.
export const AUTHORIZATION_BEARER = /(authorization\\?["']?\s*[:=]\s*\\?["']?\s*Bearer\s+)([^\s"'\\,;<>&)]+)/gi;

/** Header names whose whole value is a credential. */
export const SECRET_HEADERS: ReadonlySet<string> = new Set(['authorization', 'x-embed-token', 'gate-signature', 'cookie', 'set-cookie', 'proxy-authorization']);

export function isSecretHeader(name: string): boolean {
  const lk = name.toLowerCase();
  return SECRET_HEADERS.has(lk) || /-signature$/.test(lk);
}
