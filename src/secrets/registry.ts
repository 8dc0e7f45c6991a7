// Masking by value: every secret the profile holds and every key the target
// issued, in every form it may come back in — whole, its random part without
// the kind prefix, URL-encoded, base64. Redaction masks these forms and the
// secret scan looks for them.
import { ISSUED_KEY, SECRET_PREFIX } from './shapes.js';

/** Shorter values would mask ordinary words; the shapes cover short keys anyway. */
const MIN_VALUE = 6;
/** A random part (after sk_test_, whsec_ …) is masked on its own from this length. */
export const MIN_RANDOM_PART = 12;
/** Encoded forms shorter than this are not masked alone (too likely to occur by chance). */
const MIN_FORM = 12;
/** Bound on registered values, so a run that sees many issued keys keeps redaction fast; shapes still mask the rest. */
const MAX_VALUES = 2_000;

const VALUES = new Set<string>();
let cache: { forms: Map<string, string>; matcher: RegExp | undefined } | undefined;

/** Register an exact secret value (a profile value, a key the target issued) so it is masked wherever and however it appears. */
export function registerSecret(s: string): void {
  if (typeof s !== 'string' || s.length < MIN_VALUE || VALUES.has(s) || VALUES.size >= MAX_VALUES) return;
  VALUES.add(s);
  cache = undefined;
}

/** Register every key-like secret (sk_/pk_/rk_ keys, whsec_) found in a text the target sent. */
export function registerIssuedSecrets(text: string): void {
  if (!text || !/(?:sk|pk|rk)_(?:test|live)_|whsec_/.test(text)) return;
  for (const m of text.matchAll(ISSUED_KEY)) registerSecret(m[0]);
}

/** Every form of every registered value, mapped to what form it is. */
export function registeredForms(): ReadonlyMap<string, string> {
  return build().forms;
}

/** One regex matching any registered form, longest first so a form embedding another is masked whole; undefined when none. */
export function registeredMatcher(): RegExp | undefined {
  return build().matcher;
}

function build(): NonNullable<typeof cache> {
  if (cache) return cache;
  const forms = new Map<string, string>();
  for (const v of VALUES) for (const [form, label] of formsOf(v)) if (!forms.has(form)) forms.set(form, label);
  const sorted = [...forms.keys()].sort((a, b) => b.length - a.length);
  const matcher = sorted.length ? new RegExp(sorted.map(escapeRe).join('|'), 'g') : undefined;
  cache = { forms, matcher };
  return cache;
}

/**
 * The forms of one value. A prefixed key is masked by its random part alone, so the prefix stays
 * readable ("sk_test_[redacted]") and an echo of the random part without its prefix is caught too.
 */
export function formsOf(value: string): Map<string, string> {
  const out = new Map<string, string>();
  const prefix = SECRET_PREFIX.exec(value)?.[0];
  const tail = prefix ? value.slice(prefix.length) : '';
  const core = prefix && tail.length >= MIN_RANDOM_PART ? tail : value;
  out.set(core, core === value ? 'value' : 'random part');
  const add = (form: string, label: string) => {
    if (form.length >= MIN_FORM && form !== core && !out.has(form)) out.set(form, label);
  };
  const encoded = encodeURIComponent(core);
  add(encoded, 'URL-encoded');
  add(
    encoded.replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase()),
    'URL-encoded',
  );
  add(new URLSearchParams({ v: core }).toString().slice(2), 'URL-encoded');
  for (const b64 of base64Cores(core)) {
    add(b64, 'base64');
    add(b64.replace(/\+/g, '-').replace(/\//g, '_'), 'base64');
  }
  return out;
}

/**
 * The base64 characters that depend on the value alone, at each of the three byte alignments it can
 * have inside a longer encoded text (e.g. "Basic base64(user:secret)"): any base64 stream holding the
 * value holds one of these.
 */
function base64Cores(value: string): string[] {
  const bytes = Buffer.from(value, 'utf8');
  const out: string[] = [];
  for (let k = 0; k < 3; k++) {
    const encoded = Buffer.concat([Buffer.alloc(k), bytes]).toString('base64');
    // Characters 6j..6j+5 bits: skip those mixing the k lead bytes, and the last partial one.
    const start = Math.ceil((8 * k) / 6);
    const end = Math.floor((8 * (k + bytes.length)) / 6);
    out.push(encoded.slice(start, end));
  }
  return out;
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
