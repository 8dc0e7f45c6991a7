// Branding: GET and PATCH /branding. PATCH merges the supplied tokens onto
// the current branding; the update object is strict.
//
// Not shown — chosen (also in README.md): null in an update clears that token (back to default);
// brand_name must be non-empty; state is per partner and environment.
import { GATE_LIMITS } from '../../model/limits.js';
import { choiceOf } from '../kit/dialect.js';
import { HttpError, jsonObject } from '../kit/http.js';
import type { BrandingState, GateArea, GateCaller, GateWorld } from './world.js';
import { brandingRead, brandingRefused, brandingWritten } from './blindBrandingCache.js';

const B = GATE_LIMITS.branding;
const COLORS = ['primary_color', 'secondary_color', 'accent_color'] as const;
const FIELDS = new Set<string>(['logo_url', 'brand_name', ...COLORS]);

/** What fault brand-unset-tokens-defaulted shows for a token never set: the widget's defaults, instead of null. */
const DEFAULT_TOKENS: BrandingState = {
  logo_url: 'https://cdn.example.test/ramp/default-logo.png',
  primary_color: '#1A73E8',
  secondary_color: '#FFFFFF',
  accent_color: '#FBBC04',
  brand_name: 'Ramp',
};

function brandingView(world: GateWorld, b: BrandingState): Record<string, unknown> {
  const out: Record<string, unknown> = { object: 'branding' };
  for (const k of ['logo_url', 'primary_color', 'secondary_color', 'accent_color', 'brand_name'] as const) {
    if (b[k] === null && world.faults.has('brand-null-fields-omitted')) continue;
    out[k] = b[k] === null && world.faults.has('brand-unset-tokens-defaulted') ? DEFAULT_TOKENS[k] : b[k];
  }
  return out;
}

function validLogoUrl(world: GateWorld, v: string): boolean {
  const max = world.faults.has('brand-logo-max-2047') ? B.logoUrlMax - 1 : world.faults.has('brand-logo-length-unchecked') ? Infinity : B.logoUrlMax;
  if (v.length > max) return false;
  try {
    const u = new URL(v);
    return u.protocol === 'https:' || (u.protocol === 'http:' && world.faults.has('brand-logo-http-accepted'));
  } catch {
    return false;
  }
}

/** The read cache of the sequence fault seq-brand-read-cache-survives-name-patch (per partner's settings). */
const readCache = new WeakMap<object, Record<string, unknown>>();

export const area: GateArea = {
  name: 'branding',
  faults: [
    {
      name: 'seq-brand-read-cache-survives-name-patch',
      service: 'gate',
      requirements: ['GATE-BRAND-PATCH-MERGE'],
      description:
        'Sequence: GET /branding caches the branding once read; a PATCH drops the cache only when it changes a color (what the widget theme is keyed on) — after a read, a PATCH of brand_name or logo_url alone answers the merge but GET keeps showing the old token.',
      suite: 'explore',
    },
    {
      name: 'brand-unknown-key-accepted',
      service: 'gate',
      requirements: ['GATE-BRAND-PATCH-UNKNOWN-400'],
      description: 'PATCH /branding ignores unknown properties instead of 400.',
      suite: 'conformance',
    },
    {
      name: 'brand-name-max-65',
      service: 'gate',
      requirements: ['GATE-BRAND-NAME-MAX-64'],
      description: 'brand_name of 65 chars is accepted.',
      suite: 'conformance',
    },
    {
      name: 'brand-logo-max-2047',
      service: 'gate',
      requirements: ['GATE-BRAND-LOGO-MAX-2048'],
      description: 'logo_url of exactly 2048 chars is refused.',
      suite: 'conformance',
    },
    {
      name: 'brand-logo-length-unchecked',
      service: 'gate',
      requirements: ['GATE-BRAND-LOGO-MAX-2048'],
      description: 'logo_url longer than 2048 chars is accepted.',
      suite: 'conformance',
    },
    {
      name: 'brand-logo-http-accepted',
      service: 'gate',
      requirements: ['GATE-BRAND-LOGO-HTTPS'],
      description: 'An http:// logo_url is accepted.',
      suite: 'conformance',
    },
    {
      name: 'brand-color-short-hex-accepted',
      service: 'gate',
      requirements: ['GATE-BRAND-COLOR-PATTERN'],
      description: 'Three-digit colors like #fff are accepted.',
      suite: 'conformance',
    },
    {
      name: 'brand-patch-replaces',
      service: 'gate',
      requirements: ['GATE-BRAND-PATCH-MERGE'],
      description: 'PATCH resets omitted tokens to null instead of keeping them.',
      suite: 'conformance',
    },
    {
      name: 'brand-null-fields-omitted',
      service: 'gate',
      requirements: ['GATE-BRAND-GET-SHAPE'],
      description: 'Unset tokens are omitted from the Branding response instead of null.',
      suite: 'conformance',
    },
    {
      name: 'brand-unset-tokens-defaulted',
      service: 'gate',
      requirements: ['GATE-BRAND-UNSET-NULL'],
      description: "A token never set reads as the widget's default (a logo, colors, a brand name) instead of null.",
      suite: 'conformance',
    },
    {
      name: 'brand-accent-color-not-stored',
      service: 'gate',
      requirements: ['GATE-BRAND-COLOR-PATTERN'],
      description: 'A valid accent_color is accepted by PATCH /branding but not stored (the token keeps its value).',
      suite: 'conformance',
    },
    {
      name: 'brand-shared-across-partners',
      service: 'gate',
      requirements: ['GATE-BRAND-TENANT'],
      description: "Branding is one record per environment: one partner's PATCH /branding shows in every partner's GET /branding.",
      suite: 'conformance',
    },
  ],
  register(router, world) {
    // Fault brand-shared-across-partners: every partner of an environment reads and writes the first partner's settings.
    const settingsOf = (caller: GateCaller) =>
      world.settings(world.faults.has('brand-shared-across-partners') ? { partner: world.profile.gate.partners[0]!, mode: caller.mode } : caller);
    router.on('GET', '/branding', (req) => {
      const caller = world.authSecret(req);
      const st = settingsOf(caller);
      if (!world.faults.has('seq-brand-read-cache-survives-name-patch'))
        return { status: 200, body: brandingRead(world, st, brandingView(world, st.branding)) };
      // Sequence fault: the cached view, made at the first read after the last color change.
      let view = readCache.get(st);
      if (!view) readCache.set(st, (view = brandingView(world, st.branding)));
      return { status: 200, body: structuredClone(view) };
    });

    router.on('PATCH', '/branding', (req) => {
      const caller = world.authSecret(req);
      const body = jsonObject(req);
      const errs: string[] = [];
      for (const k of Object.keys(body)) if (!FIELDS.has(k) && !world.faults.has('brand-unknown-key-accepted')) errs.push(`unknown property: ${k}`);
      const logo = body.logo_url;
      if (logo !== undefined && logo !== null && (typeof logo !== 'string' || !validLogoUrl(world, logo))) {
        errs.push(`logo_url must be an absolute https URI of at most ${B.logoUrlMax} characters`);
      }
      const colorRe = world.faults.has('brand-color-short-hex-accepted') ? /^#([0-9a-fA-F]{6}|[0-9a-fA-F]{3})$/ : B.colorPattern;
      for (const c of COLORS) {
        const v = body[c];
        if (v !== undefined && v !== null && (typeof v !== 'string' || !colorRe.test(v))) errs.push(`${c} must match ^#[0-9a-fA-F]{6}$`);
      }
      const nameMax = world.faults.has('brand-name-max-65') ? B.brandNameMax + 1 : B.brandNameMax;
      const name = body.brand_name;
      if (name !== undefined && name !== null && (typeof name !== 'string' || name.length > nameMax)) {
        errs.push(`brand_name must be a string of at most ${B.brandNameMax} characters`);
      }
      brandingRefused(world, settingsOf(caller), body, errs);
      if (errs.length) throw new HttpError(400, errs.join('; '), 'parameter_invalid');
      const st = settingsOf(caller);
      const next: BrandingState = world.faults.has('brand-patch-replaces')
        ? { logo_url: null, primary_color: null, secondary_color: null, accent_color: null, brand_name: null }
        : { ...st.branding };
      for (const k of FIELDS) {
        const v = body[k];
        if (k === 'accent_color' && world.faults.has('brand-accent-color-not-stored')) continue;
        // Reading (gate.branding.colorCase 'lowercased'): a colour is stored in lower case (either case matches the pattern).
        const lower = typeof v === 'string' && (COLORS as readonly string[]).includes(k) && choiceOf(world.profile, 'gate.branding.colorCase') === 'lowercased';
        if (v !== undefined) next[k as keyof BrandingState] = lower ? (v as string).toLowerCase() : (v as string | null);
      }
      st.branding = next;
      if (COLORS.some((c) => c in body)) readCache.delete(st);
      return { status: 200, body: brandingWritten(world, st, brandingView(world, next)) };
    });
  },
};
