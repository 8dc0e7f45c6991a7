// Every need, found by discovery under src/needs/{gate,pools,harness}/ (one
// file each, a defineNeed default export), and the two questions the runner,
// `rampart plan` and `rampart doctor` ask of them: what does a profile lack for
// these needs, and what do they provide to a check.
import { readdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { NeedName, NeedRegistry } from '../model/needs.js';
import type { Profile } from '../profile/schema.js';
import type { NeedDef, NeedEnv } from './define.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const FOLDERS = ['gate', 'pools', 'harness'];

async function discover(): Promise<Map<string, NeedDef & { file: string }>> {
  const out = new Map<string, NeedDef & { file: string }>();
  for (const folder of FOLDERS) {
    const dir = join(HERE, folder);
    for (const f of readdirSync(dir)
      .filter((x) => /\.[cm]?[jt]s$/.test(x) && !x.endsWith('.d.ts'))
      .sort()) {
      const file = relative(join(HERE, '..', '..'), join(dir, f));
      const mod = (await import(pathToFileURL(join(dir, f)).href)) as { default?: NeedDef };
      const def = mod.default;
      if (!def || typeof def.name !== 'string' || typeof def.setup !== 'function') throw new Error(`${file} has no default export from defineNeed()`);
      const other = out.get(def.name);
      if (other) throw new Error(`need ${def.name} is defined twice: ${other.file} and ${file}`);
      out.set(def.name, { ...def, file });
    }
  }
  return out;
}

export const NEEDS: ReadonlyMap<string, NeedDef & { file: string }> = await discover();

export function needDef(name: string): (NeedDef & { file: string }) | undefined {
  return NEEDS.get(name);
}

/** A need and everything it builds on, dependencies first. */
export function withRequired(names: readonly string[]): string[] {
  const out: string[] = [];
  const visit = (n: string, path: string[]) => {
    if (out.includes(n)) return;
    if (path.includes(n)) throw new Error(`needs form a cycle: ${[...path, n].join(' → ')}`);
    const def = NEEDS.get(n);
    if (!def) throw new Error(`unknown need ${n}: no file under src/needs/ defines it`);
    for (const r of def.requires ?? []) visit(r, [...path, n]);
    out.push(n);
  };
  for (const n of names) visit(n, []);
  return out;
}

/** The first missing need's name and reason, or null when the profile provides them all. */
export function firstMissing(profile: Profile, names: readonly string[], depth: 'quick' | 'full'): { need: string; reason: string } | null {
  for (const n of withRequired(names)) {
    const reason = NEEDS.get(n)!.missing(profile, { depth });
    if (reason) return { need: n, reason };
  }
  return null;
}

/** Every missing need of a list, with reasons (plans and doctor tables). */
export function allMissing(profile: Profile, names: readonly string[], depth: 'quick' | 'full'): { need: string; reason: string }[] {
  const out: { need: string; reason: string }[] = [];
  for (const n of withRequired(names)) {
    const reason = NEEDS.get(n)!.missing(profile, { depth });
    if (reason) out.push({ need: n, reason });
  }
  return out;
}

/**
 * A provider for one check: `get(name)` sets a need up once (dependencies
 * first) and returns its value; needs of the same check share it.
 */
export function needProvider(envOf: () => NeedEnv): (name: NeedName) => Promise<NeedRegistry[NeedName]> {
  const provided = new Map<string, Promise<unknown>>();
  const get = (name: string): Promise<unknown> => {
    let p = provided.get(name);
    if (!p) {
      const def = NEEDS.get(name);
      if (!def) throw new Error(`unknown need ${name}`);
      p = (async () => {
        for (const r of def.requires ?? []) await get(r);
        return def.setup(envOf());
      })();
      provided.set(name, p);
    }
    return p;
  };
  return get as (name: NeedName) => Promise<NeedRegistry[NeedName]>;
}
