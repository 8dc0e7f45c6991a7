// Every path that prints or writes goes through here: secrets never leave the
// process. Registered values (in all their forms) first, then the known shapes.
import { registeredMatcher } from './registry.js';
import { AUTHORIZATION_BEARER, SECRET_SHAPES, isSecretHeader } from './shapes.js';

export function redact(text: string): string {
  if (typeof text !== 'string' || text.length === 0) return text;
  let out = text;
  const known = registeredMatcher();
  if (known) out = out.replace(known, '[redacted]');
  for (const s of SECRET_SHAPES) out = out.replace(s.re, s.mask as (m: string, ...a: any[]) => string);
  return out;
}

/** Deep copy with every string redacted (object keys included). */
export function redactDeep<T>(v: T): T {
  return walk(v, 0) as T;
}

function walk(v: unknown, depth: number): unknown {
  if (typeof v === 'string') return redact(v);
  if (v === null || typeof v !== 'object' || depth > 64) return v;
  if (Buffer.isBuffer(v)) return redact(v.toString('utf8'));
  if (Array.isArray(v)) return v.map((x) => walk(x, depth + 1));
  if (v instanceof Date) return v;
  if (v instanceof Error) {
    const e = new Error(redact(v.message));
    e.name = v.name;
    if (v.stack) e.stack = redact(v.stack);
    return e;
  }
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) out[redact(k)] = walk(x, depth + 1);
  return out;
}

/** Header values that are credentials are replaced whole (keeping the scheme); others pass through redact(). */
export function redactHeaders(h: Record<string, string | string[] | undefined> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!h) return out;
  for (const [k, raw] of Object.entries(h)) {
    if (raw === undefined) continue;
    const v = Array.isArray(raw) ? raw.join(', ') : String(raw);
    if (isSecretHeader(k)) {
      const scheme = /^(Bearer|Basic)\s+/i.exec(v);
      const masked = redact(v.replace(/^(Bearer|Basic)\s+/i, ''));
      // A value redact() did not recognise is still a credential here: hide it entirely.
      const body = masked.includes('[redacted]') ? masked : '[redacted]';
      out[k] = scheme ? `${scheme[1]} ${body}` : body;
    } else {
      out[k] = redact(v);
    }
  }
  return out;
}

/** Masks Authorization Bearer values that no known secret shape caught (opaque tokens). */
export function maskAuthorizationBearer(text: string): string {
  return text.replace(AUTHORIZATION_BEARER, (m, prefix: string, value: string) => (value.includes('[redacted]') ? m : `${prefix}[redacted]`));
}
