// Worlds of the embedded target drawn from the inventory of open points (src/model/openPoints): a profile whose
// reference.dialect holds one choice per point, with what a choice changes beyond the reference's own code — a
// knob the reference already had, a lifetime the profile then declares, keys of another alphabet, the sandbox
// controls' own words. `rampart serve --dialect SEED` and rampart's own tests start these worlds; the harness
// reaches them, like any target, only through the profile this returns.
import { differences, drawDialect, everywhereDialect, type Dialect, type OpenPointId } from '../model/openPoints/index.js';
import { Profile } from '../profile/schema.js';
import { GATE_WORLD_EFFECTS } from './gate/dialectEffects.js';
import { POOLS_WORLD_EFFECTS } from './pools/dialectEffects.js';
import { KIT_WORLD_EFFECTS } from './kit/dialectEffects.js';
import type { ProfileJson, WorldEffect } from './kit/dialect.js';

export const WORLD_EFFECTS: Partial<Record<OpenPointId, WorldEffect>> = { ...KIT_WORLD_EFFECTS, ...GATE_WORLD_EFFECTS, ...POOLS_WORLD_EFFECTS };

/** "everywhere" (the dialect world: every point its second choice) or a seed (one choice per point, drawn). */
export function dialectOf(spec: string): Dialect {
  if (spec === 'everywhere') return everywhereDialect();
  const seed = Number(spec);
  if (!Number.isInteger(seed) || Math.abs(seed) > 2 ** 31 - 1) throw new Error(`--dialect ${spec}: give a seed (a whole number) or "everywhere"`);
  return drawDialect(seed);
}

/** The world of `dialect` built on `base` (a profile as loaded): its reference.dialect and every choice's effect. */
export function dialectProfile(base: Profile, dialect: Dialect, name?: string): Profile {
  const json = structuredClone(base) as ProfileJson;
  json.reference = { ...(json.reference ?? {}), dialect: { ...dialect } };
  for (const [id, choice] of Object.entries(dialect) as [OpenPointId, string][]) WORLD_EFFECTS[id]?.(json, choice);
  json.name = name ?? `${base.name} (dialect: ${differences(dialect).length} choices of its own)`;
  return Profile.parse(json);
}
