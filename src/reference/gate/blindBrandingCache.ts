// The read cache of the blind sequence fault seq-blind-brand-refused-patch-cached (gate/blindFaults.ts): GET /branding
// answers from it once filled; PATCH writes each valid token into it while it validates, and the branding itself only
// when the whole update is valid. A refused update leaves its valid tokens behind in the cache.
import type { GateWorld, PartnerSettings } from './world.js';

const REFUSED_PATCH_CACHED = 'seq-blind-brand-refused-patch-cached';
const TOKENS = ['logo_url', 'primary_color', 'secondary_color', 'accent_color', 'brand_name'] as const;

const cache = new WeakMap<PartnerSettings, Record<string, unknown>>();

/** GET /branding's answer: the cached view under the fault (filled by the first read), else `view`. */
export function brandingRead(world: GateWorld, st: PartnerSettings, view: Record<string, unknown>): Record<string, unknown> {
  if (!world.faults.has(REFUSED_PATCH_CACHED)) return view;
  const hit = cache.get(st);
  if (hit) return structuredClone(hit);
  cache.set(st, structuredClone(view));
  return view;
}

/** A PATCH about to be refused (errs non-empty): its valid tokens were already written into the cache. */
export function brandingRefused(world: GateWorld, st: PartnerSettings, body: Record<string, unknown>, errs: readonly string[]): void {
  const hit = world.faults.has(REFUSED_PATCH_CACHED) && errs.length > 0 ? cache.get(st) : undefined;
  if (!hit) return;
  // Each validation message starts with the token it refuses; a token no message names passed.
  for (const k of TOKENS) if (k in body && !errs.some((e) => e.startsWith(k))) hit[k] = body[k];
}

/** A PATCH stored the branding it answers (`view`): the cache holds it too. */
export function brandingWritten(world: GateWorld, st: PartnerSettings, view: Record<string, unknown>): Record<string, unknown> {
  if (world.faults.has(REFUSED_PATCH_CACHED) && cache.has(st)) cache.set(st, structuredClone(view));
  return view;
}
