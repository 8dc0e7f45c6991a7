// The embed token in an answer: Gate's embed bootstrap and refresh answers carry a JWT whose field name is not shown
// (shared by the suites and the explorer).

const JWT = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

/** The embed token in a bootstrap or refresh response: the JWT-shaped string (the field name is not shown). */
export function findJwt(v: unknown): { token: string; claims: Record<string, unknown> } | undefined {
  if (typeof v === 'string' && JWT.test(v)) {
    try {
      const [head, body] = v.split('.');
      const h = JSON.parse(Buffer.from(head!, 'base64url').toString('utf8'));
      const claims = JSON.parse(Buffer.from(body!, 'base64url').toString('utf8'));
      if (h && typeof h === 'object' && claims && typeof claims === 'object') return { token: v, claims };
    } catch {
      return undefined;
    }
    return undefined;
  }
  if (v && typeof v === 'object') {
    for (const x of Object.values(v)) {
      const found = findJwt(x);
      if (found) return found;
    }
  }
  return undefined;
}
