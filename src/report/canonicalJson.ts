// Canonical JSON: object keys sorted (UTF-16 order, as RFC 8785), no
// insignificant whitespace. What gets hashed and signed must not depend on
// the order keys happened to be inserted in.

function sortDeep(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortDeep);
  if (v && typeof v === 'object' && !(v instanceof Date)) {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v as Record<string, unknown>).sort()) {
      const x = (v as Record<string, unknown>)[k];
      if (x !== undefined) out[k] = sortDeep(x);
    }
    return out;
  }
  return v;
}

/** Compact canonical form: the bytes that are hashed or signed. */
export function canonicalJson(v: unknown): string {
  return JSON.stringify(sortDeep(v));
}
