// The last line of defence: every file a run writes is scanned for the secret
// shapes and the registered secret values that redaction should have masked.
// Findings name the kind and where, never the secret itself.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { registeredForms, registeredMatcher } from './registry.js';
import { AUTHORIZATION_BEARER, SECRET_SHAPES } from './shapes.js';

export interface SecretFinding {
  kind: string;
  index: number;
}

export function scanText(text: string): SecretFinding[] {
  const found: SecretFinding[] = [];
  for (const { kind, re } of SECRET_SHAPES) for (const m of text.matchAll(re)) found.push({ kind, index: m.index ?? 0 });
  for (const m of text.matchAll(AUTHORIZATION_BEARER)) {
    const value = m[2] ?? '';
    // Masks and ${PLACEHOLDERS} are not credentials.
    if (value.includes('[redacted]') || value.startsWith('$')) continue;
    found.push({ kind: 'Authorization Bearer value', index: m.index ?? 0 });
  }
  const known = registeredMatcher();
  if (known) {
    const forms = registeredForms();
    for (const m of text.matchAll(known)) found.push({ kind: `known secret value (${forms.get(m[0]) ?? 'value'})`, index: m.index ?? 0 });
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
