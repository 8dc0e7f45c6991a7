// The requirement catalogue: every atomic documented rule of both specs,
// gathered by discovery from the area files under gate/ and pools/ (one file
// per spec section, each a defineArea default export). Adding a rule is adding
// an entry to its area; a new area is a new file. No hand-kept index.
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Area, Requirement, RequirementId, Service } from './define.js';

const HERE = dirname(fileURLToPath(import.meta.url));

async function discover(): Promise<Requirement[]> {
  const out: Requirement[] = [];
  const seen = new Map<string, string>();
  for (const service of ['gate', 'pools'] as const satisfies readonly Service[]) {
    const dir = join(HERE, service);
    const files = readdirSync(dir)
      .filter((f) => /\.[cm]?[jt]s$/.test(f) && !f.endsWith('.d.ts'))
      .sort();
    for (const f of files) {
      const areaKey = `${service}/${f.replace(/\.[cm]?[jt]s$/, '')}`;
      const mod = (await import(pathToFileURL(join(dir, f)).href)) as { default?: Area };
      const area = mod.default;
      if (!area || area.kind !== 'catalogue-area') throw new Error(`src/model/catalogue/${areaKey} has no default export from defineArea()`);
      if (area.service !== service) throw new Error(`src/model/catalogue/${areaKey} declares service ${area.service}, but lives under ${service}/`);
      for (const [id, e] of Object.entries(area.entries)) {
        const other = seen.get(id);
        if (other) throw new Error(`duplicate requirement id ${id} in ${areaKey} and ${other}`);
        seen.set(id, areaKey);
        out.push({
          id: id as RequirementId,
          service,
          section: e.section ?? area.section,
          title: e.title,
          kind: e.kind,
          anchors: e.anchor === undefined ? [] : typeof e.anchor === 'string' ? [e.anchor] : [...e.anchor],
          needs: [...new Set([...(area.needs ?? []), ...(e.needs ?? [])])],
          suite: e.suite ?? area.suite ?? 'conformance',
          depth: e.depth ?? 'quick',
          area: areaKey,
        });
      }
    }
  }
  return out;
}

export const CATALOGUE: readonly Requirement[] = await discover();

const byId = new Map<string, Requirement>(CATALOGUE.map((r) => [r.id, r]));

export function requirement(id: string): Requirement | undefined {
  return byId.get(id);
}

export function isRequirementId(id: string): id is RequirementId {
  return byId.has(id);
}

export function requirementsOf(service?: Service): Requirement[] {
  return CATALOGUE.filter((r) => !service || r.service === service);
}

export type { Area, Requirement, RequirementId, RequirementKind, Service, SuiteKindName } from './define.js';
export { defineArea } from './define.js';
