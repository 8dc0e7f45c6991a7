// Rules that say what a response must not carry (internal liquidity data,
// access and KYC state) can only be judged on field names: every key of a
// JSON value, with its path, so a check can name the one that gives it away.

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
