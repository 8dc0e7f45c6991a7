// The checks on disk: each suite file of a kind (<kind>/<service>/<area>.ts,
// default export defineSuite(...)), a check's stable key across runs, and the
// needs it gets. Below both the runner (which runs them) and the plan (which
// counts them before traffic), the doctor and the suite kinds.
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { requirement as requirementOf } from '../model/catalogue/index.js';
import type { NeedName } from '../model/needs.js';
import type { Service } from '../needs/define.js';
import { PACKAGE_ROOT as ROOT } from '../packageRoot.js';
import type { CheckDef, SuiteDef } from './check.js';

export type CheckKind = 'conformance' | 'chaos' | 'races';

export interface LoadedSuite extends SuiteDef {
  file: string;
}

/** Suite files of a kind: <kind>/<service>/<area>.ts, default export defineSuite(...). Helpers live in support/ subfolders. */
export async function loadSuites(kind: CheckKind, service?: Service): Promise<LoadedSuite[]> {
  const suites: LoadedSuite[] = [];
  for (const svc of ['gate', 'pools'] as const) {
    if (service && svc !== service) continue;
    const dir = join(ROOT, kind, svc);
    let files: string[];
    try {
      files = readdirSync(dir)
        .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
        .sort();
    } catch {
      continue;
    }
    for (const f of files) {
      const mod = await import(pathToFileURL(join(dir, f)).href);
      const suite = mod.default as SuiteDef | undefined;
      if (!suite || !Array.isArray(suite.checks)) throw new Error(`${relative(ROOT, join(dir, f))} has no default export from defineSuite()`);
      suites.push({ ...suite, file: relative(ROOT, join(dir, f)) });
    }
  }
  return suites;
}

export function loadConformanceSuites(service?: Service): Promise<LoadedSuite[]> {
  return loadSuites('conformance', service);
}

/** The stable key of a check across runs (resume, reports). */
export const checkKey = (kind: string, file: string, name: string) => `${kind}:${file}::${name}`;

/** The needs a check gets: its requirements' needs, then its own. */
export function needsOfCheck(check: CheckDef): NeedName[] {
  const out = new Set<NeedName>();
  for (const id of check.requirements) for (const n of requirementOf(id)?.needs ?? []) out.add(n);
  for (const n of check.needs ?? []) out.add(n);
  return [...out];
}

/** Requirement ids named by a check that the catalogue does not hold: a defect of the suite. */
export function unknownRequirementIds(suites: SuiteDef[]): string[] {
  const bad = new Set<string>();
  for (const s of suites) for (const c of s.checks) for (const id of c.requirements) if (!requirementOf(id)) bad.add(id);
  return [...bad];
}
