// The inventory of open points, gathered by discovery from the area files under gate/ and pools/ (one file per
// spec section, each a defineOpenPoints default export), and the worlds drawn from it: one choice per entry,
// from a seed, or the draw that differs from the reference everywhere.
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { SpecName } from '../specText.js';
import type { ChoiceOf, Dialect, OpenPoint, OpenPointArea, OpenPointId } from './define.js';

const HERE = dirname(fileURLToPath(import.meta.url));

async function discover(): Promise<OpenPoint[]> {
  const out: OpenPoint[] = [];
  const seen = new Map<string, string>();
  for (const spec of ['gate', 'pools'] as const satisfies readonly SpecName[]) {
    const files = readdirSync(join(HERE, spec))
      .filter((f) => /\.[cm]?[jt]s$/.test(f) && !f.endsWith('.d.ts'))
      .sort();
    for (const f of files) {
      const areaKey = `${spec}/${f.replace(/\.[cm]?[jt]s$/, '')}`;
      const area = ((await import(pathToFileURL(join(HERE, spec, f)).href)) as { default?: OpenPointArea }).default;
      if (!area || area.kind !== 'open-point-area') throw new Error(`src/model/openPoints/${areaKey} has no default export from defineOpenPoints()`);
      if (area.spec !== spec) throw new Error(`src/model/openPoints/${areaKey} declares spec ${area.spec}, but lives under ${spec}/`);
      for (const [id, e] of Object.entries(area.entries)) {
        const other = seen.get(id);
        if (other) throw new Error(`duplicate open point ${id} in ${areaKey} and ${other}`);
        if (new Set(e.choices).size !== e.choices.length) throw new Error(`open point ${id} lists a choice twice`);
        seen.set(id, areaKey);
        out.push({ ...e, id: id as OpenPointId, spec, section: area.section, area: areaKey });
      }
    }
  }
  return out.sort((a, b) => a.id.localeCompare(b.id));
}

export const OPEN_POINTS: readonly OpenPoint[] = await discover();

const byId = new Map<string, OpenPoint>(OPEN_POINTS.map((p) => [p.id, p]));

export function openPoint(id: string): OpenPoint | undefined {
  return byId.get(id);
}

/** The choice a world took for a point: the dialect's, else the reference's own (the first). */
export function chosen<K extends OpenPointId>(dialect: Dialect | undefined, id: K): ChoiceOf<K> {
  const p = byId.get(id);
  if (!p) throw new Error(`no open point ${id}`);
  return (dialect?.[id] ?? p.choices[0]) as ChoiceOf<K>;
}

/** Why a dialect is not one of the inventory's worlds (an unknown point, a choice it does not list), or undefined. */
export function dialectProblem(dialect: Record<string, string>): string | undefined {
  for (const [id, c] of Object.entries(dialect)) {
    const p = byId.get(id);
    if (!p) return `no open point ${id} (rampart spec-map --json lists them under openPoints)`;
    if (!p.choices.includes(c)) return `${id} has no choice ${JSON.stringify(c)} (its choices: ${p.choices.join(', ')})`;
  }
  return undefined;
}

/** A small seeded generator (mulberry32): a world drawn from a seed is the same on every machine. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A world from a seed: for each point in id order, one of its choices, each as likely. */
export function drawDialect(seed: number): Record<OpenPointId, string> {
  const next = random(seed ^ 0x0d1a1ec7);
  return Object.fromEntries(OPEN_POINTS.map((p) => [p.id, p.choices[Math.floor(next() * p.choices.length)]!])) as Record<OpenPointId, string>;
}

/** The dialect world: every point takes a choice other than the reference's own (its second). */
export function everywhereDialect(): Record<OpenPointId, string> {
  return Object.fromEntries(OPEN_POINTS.map((p) => [p.id, p.choices[1]])) as Record<OpenPointId, string>;
}

/** How far a dialect is from the reference: the points whose choice is not the reference's own. */
export function differences(dialect: Dialect): OpenPointId[] {
  return OPEN_POINTS.filter((p) => (dialect[p.id] ?? p.choices[0]) !== p.choices[0]).map((p) => p.id);
}

export type { ChoiceOf, Dialect, OpenPoint, OpenPointArea, OpenPointId, OpenPointKind } from './define.js';
export { defineOpenPoints } from './define.js';
