// Rules that say what a response must not carry (internal liquidity data,
// access and KYC state) can only be judged on field names: every key of a
// JSON value, with its path, so a check can name the one that gives it away.
// Additive fields may appear without notice (pools Versioning), so a rule
// fails only on a key whose words name the omitted data itself ("kycStatus",
// "liquidityProvider", or "name" inside "provider": a provider name); a key
// that merely contains such a word, or is a generic one ("enabled", "provider",
// "route", "reserve", "access", "autoTopUpEnabled"), is observed, never failed.

/** Every key of a JSON value (objects inside arrays included), as dotted paths, with the key of the object holding it. */
export function keyPaths(value: unknown, at = '', parent?: string): { path: string; key: string; parent?: string }[] {
  const out: { path: string; key: string; parent?: string }[] = [];
  if (Array.isArray(value)) value.forEach((v, i) => out.push(...keyPaths(v, `${at}[${i}]`, parent)));
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      const path = at ? `${at}.${k}` : k;
      out.push({ path, key: k, ...(parent !== undefined ? { parent } : {}) }, ...keyPaths(v, path, k));
    }
  }
  return out;
}

/** The paths of keys matching `pattern`. */
export function keysMatching(value: unknown, pattern: RegExp): string[] {
  return keyPaths(value)
    .filter((x) => pattern.test(x.key))
    .map((x) => x.path);
}

/** The words of a key, lower case: camelCase, snake_case, kebab-case and dotted names split ("kycStatus" → kyc status). */
export function wordsOf(key: string): string {
  return key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[\s_.-]+/)
    .filter(Boolean)
    .join(' ')
    .toLowerCase();
}

/**
 * The paths of keys whose words are exactly one of `names` (each written as words: "kyc status"), alone or after the
 * words of the key holding them ({ provider: { name } } is "provider name", { kyc: { status } } is "kyc status").
 */
export function keysNamed(value: unknown, names: readonly string[]): string[] {
  const wanted = new Set(names);
  return keyPaths(value)
    .filter((x) => wanted.has(wordsOf(x.key)) || (x.parent !== undefined && wanted.has(`${wordsOf(x.parent)} ${wordsOf(x.key)}`)))
    .map((x) => x.path);
}
