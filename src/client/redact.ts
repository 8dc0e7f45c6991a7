// Every path that prints or writes goes through here: secrets never leave the
// process. Masks keep only a recognisable prefix (the kind), never any tail.
import type { ExchangeRecord } from '../report/results.js';
import type { Exchange } from './types.js';

const REGISTERED = new Set<string>();

/** Register an exact secret value (from a profile) so it is masked wherever it appears. */
export function registerSecret(s: string): void {
  // Very short values would mask ordinary words; the known shapes cover them anyway.
  if (typeof s === 'string' && s.length >= 6) REGISTERED.add(s);
}

// No leading word boundary: "revoked_sk_test_…" must be masked too; over-masking is harmless, a leak is not.
const PATTERNS: { re: RegExp; mask: (m: string, ...groups: string[]) => string }[] = [
  { re: /(sk|pk|rk)_(test|live)_[A-Za-z0-9]+/g, mask: (_m, kind, mode) => `${kind}_${mode}_[redacted]` },
  { re: /gsec_[A-Za-z0-9_\-]+/g, mask: () => 'gsec_[redacted]' },
  { re: /whsec_[A-Za-z0-9_\-+/=]+/g, mask: () => 'whsec_[redacted]' },
  // JWT-shaped tokens (embed tokens, account assertions).
  { re: /eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g, mask: () => 'eyJ[redacted]' },
];

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export function redact(text: string): string {
  if (typeof text !== 'string' || text.length === 0) return text;
  let out = text;
  // Registered secrets first, longest first, so a value that embeds another is masked whole.
  for (const s of [...REGISTERED].sort((a, b) => b.length - a.length)) {
    if (out.includes(s)) out = out.replace(new RegExp(escapeRe(s), 'g'), '[redacted]');
  }
  for (const p of PATTERNS) out = out.replace(p.re, p.mask as (m: string, ...a: any[]) => string);
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

const SECRET_HEADERS = new Set(['authorization', 'x-embed-token', 'gate-signature', 'cookie', 'set-cookie', 'proxy-authorization']);

/** Header values that are credentials are replaced whole (keeping the scheme); others pass through redact(). */
export function redactHeaders(h: Record<string, string | string[] | undefined> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!h) return out;
  for (const [k, raw] of Object.entries(h)) {
    if (raw === undefined) continue;
    const v = Array.isArray(raw) ? raw.join(', ') : String(raw);
    const lk = k.toLowerCase();
    if (SECRET_HEADERS.has(lk) || /-signature$/.test(lk)) {
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

export const EXCHANGE_BODY_LIMIT = 4096;

function truncate(s: string | undefined): string | undefined {
  if (s === undefined) return undefined;
  if (s.length <= EXCHANGE_BODY_LIMIT) return s;
  return `${s.slice(0, EXCHANGE_BODY_LIMIT)}… [${s.length - EXCHANGE_BODY_LIMIT} more chars]`;
}

/** The report's view of one exchange: everything redacted, bodies truncated to ~4 KB. */
export function toExchangeRecord(ex: Exchange): ExchangeRecord {
  // Redact before truncating so a secret cut in half by the limit is still masked.
  return {
    method: ex.request.method,
    url: redact(ex.request.url),
    requestHeaders: redactHeaders(ex.request.headers),
    requestBody: truncate(ex.request.bodyText === undefined ? undefined : redact(ex.request.bodyText)),
    status: ex.status,
    responseHeaders: redactHeaders(ex.headers),
    responseBody: truncate(redact(ex.bodyText)),
    requestId: ex.requestId,
    durationMs: Math.round(ex.durationMs),
  };
}
