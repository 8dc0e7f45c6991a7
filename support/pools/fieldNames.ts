// Rules that say what a response must not carry (internal liquidity data,
// access and KYC state) can only be judged on field names: every key of a
// JSON value, with its path, so a check can name the one that gives it away.
// Additive fields may appear without notice (pools Versioning), so a rule
// fails only on a key whose words name the omitted data itself ("kycStatus",
// "liquidityProvider"); a key that merely contains such a word
// ("autoTopUpEnabled") is observed, never failed.

/** Every key of a JSON value (objects inside arrays included), as dotted paths. */
export function keyPaths(value: unknown, at = ''): { path: string; key: string }[] {
  const out: { path: string; key: string }[] = [];
  if (Array.isArray(value)) value.forEach((v, i) => out.push(...keyPaths(v, `${at}[${i}]`)));
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      const path = at ? `${at}.${k}` : k;
      out.push({ path, key: k }, ...keyPaths(v, path));
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

/** The paths of keys whose words are exactly one of `names` (each written as words: "kyc status"). */
export function keysNamed(value: unknown, names: readonly string[]): string[] {
  const wanted = new Set(names);
  return keyPaths(value)
    .filter((x) => wanted.has(wordsOf(x.key)))
    .map((x) => x.path);
}
