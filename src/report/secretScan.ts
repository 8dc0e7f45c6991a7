// The last line of defence: every file a run writes is scanned for secret
// shapes that redaction should have masked. Findings name the kind and where,
// never the secret itself.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { redact } from '../client/redact.js';

export interface SecretFinding {
  kind: string;
  index: number;
}

// Masked forms ("sk_test_[redacted]", "eyJ[redacted]") never match: a mask starts with "[".
const SHAPES: { kind: string; re: RegExp }[] = [
  { kind: 'secret key (sk_)', re: /sk_(test|live)_[A-Za-z0-9]+/g },
  { kind: 'publishable key (pk_)', re: /pk_(test|live)_[A-Za-z0-9]+/g },
  { kind: 'client secret (gsec_)', re: /gsec_[A-Za-z0-9_\-]+/g },
  { kind: 'webhook secret (whsec_)', re: /whsec_[A-Za-z0-9_\-+/=]+/g },
  { kind: 'JWT-shaped token', re: /eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g },
];

// An Authorization Bearer credential in any quoting: a header dump, JSON, escaped JSON.
// Prose ("PK = publishable key bearer") has no Authorization context and is not a finding.
export const AUTHORIZATION_BEARER = /(authorization\\?["']?\s*[:=]\s*\\?["']?\s*Bearer\s+)([^\s"'\\,;<>&)]+)/gi;

/** Masks Authorization Bearer values that no known secret shape caught (opaque tokens). */
export function maskAuthorizationBearer(text: string): string {
  return text.replace(AUTHORIZATION_BEARER, (m, prefix: string, value: string) => (value.includes('[redacted]') ? m : `${prefix}[redacted]`));
}

export function scanText(text: string): SecretFinding[] {
  const found: SecretFinding[] = [];
  for (const { kind, re } of SHAPES) {
    re.lastIndex = 0;
    for (const m of text.matchAll(re)) found.push({ kind, index: m.index ?? 0 });
  }
  for (const m of text.matchAll(AUTHORIZATION_BEARER)) {
    const value = m[2] ?? '';
    // Masks and ${PLACEHOLDERS} are not credentials.
    if (value.includes('[redacted]') || value.startsWith('$')) continue;
    found.push({ kind: 'Authorization Bearer value', index: m.index ?? 0 });
  }
  if (found.length === 0) {
    // Exact secrets registered from the profile (any shape) are known to redact().
    const masked = redact(text);
    if (masked !== text) {
      let i = 0;
      while (i < text.length && text[i] === masked[i]) i++;
      found.push({ kind: 'profile secret', index: i });
    }
  }
  return found.sort((a, b) => a.index - b.index);
}

/** Binary files (screenshots) hold no text secrets worth scanning and would only produce noise. */
export function isProbablyText(buf: Buffer): boolean {
  return !buf.subarray(0, 8192).includes(0);
}

export function listFiles(dir: string, limit = 10_000): string[] {
  const out: string[] = [];
  const walk = (d: string, depth: number) => {
    if (depth > 16 || out.length >= limit) return;
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      const st = statSync(p);
      if (st.isDirectory()) walk(p, depth + 1);
      else if (st.isFile() && out.length < limit) out.push(p);
    }
  };
  walk(dir, 0);
  return out.sort();
}

/** Scan every text file under dir; file paths are relative to dir. */
export function scanDir(dir: string): { file: string; kind: string }[] {
  const findings: { file: string; kind: string }[] = [];
  for (const path of listFiles(dir)) {
    const buf = readFileSync(path);
    if (!isProbablyText(buf)) continue;
    const kinds = new Set(scanText(buf.toString('utf8')).map((f) => f.kind));
    for (const kind of kinds) findings.push({ file: relative(dir, path), kind });
  }
  return findings;
}
