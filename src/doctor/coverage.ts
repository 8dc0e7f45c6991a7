// What a profile lets rampart verify: which checks can run (every need
// provided, the depth allows them), what one profile element unlocks (the
// checks runnable with it and not without), and the requirements whose every
// check can run — "this profile can verify N of M requirements".
import type { NeedName } from '../model/needs.js';
import { firstMissing, NEEDS } from '../needs/registry.js';
import type { Profile } from '../profile/schema.js';
import type { CheckResult } from '../report/results.js';
import { requirementResults } from '../report/verdict.js';
import { viewFor } from '../runner/partition.js';
import { loadSuites, needsOfCheck } from '../runner/suites.js';
import type { DoctorRow, RowDraft } from './context.js';

export interface CheckInfo {
  name: string;
  file: string;
  kind: 'conformance' | 'chaos';
  needs: NeedName[];
  requirements: readonly string[];
  depth?: 'quick' | 'full';
}

export async function loadChecks(): Promise<CheckInfo[]> {
  const out: CheckInfo[] = [];
  for (const kind of ['conformance', 'chaos'] as const)
    for (const s of await loadSuites(kind))
      for (const c of s.checks) out.push({ name: c.name, file: s.file, kind, needs: needsOfCheck(c), requirements: c.requirements, depth: c.depth });
  return out;
}

export class Coverage {
  private readonly cache = new WeakMap<Profile, Set<CheckInfo>>();

  constructor(
    readonly checks: readonly CheckInfo[],
    readonly depth: 'quick' | 'full',
  ) {}

  /** The checks that can run on this profile at this depth. */
  runnable(profile: Profile): Set<CheckInfo> {
    let set = this.cache.get(profile);
    if (!set) {
      const views = { conformance: viewFor(profile, 'conformance'), chaos: viewFor(profile, 'chaos') };
      set = new Set(this.checks.filter((c) => !(c.depth === 'full' && this.depth !== 'full') && !firstMissing(views[c.kind], c.needs, this.depth)));
      this.cache.set(profile, set);
    }
    return set;
  }

  /** Checks runnable with the element and not without it. */
  unlocks(profile: Profile, r: RowDraft): number {
    const now = this.runnable(profile);
    if (r.without) {
      const less = this.runnable(r.without(profile));
      return [...now].filter((c) => !less.has(c)).length;
    }
    if (r.with) {
      const more = this.runnable(r.with(profile));
      return [...more].filter((c) => !now.has(c)).length;
    }
    return 0;
  }

  /** Checks that name a need (directly or through their requirements). */
  naming(need: string): number {
    return this.checks.filter((c) => c.needs.includes(need as NeedName)).length;
  }

  /** Requirements (conformance and chaos, in scope at this depth) whose every check can run on this profile. */
  verifiable(profile: Profile): { requirements: number; of: number } {
    const can = this.runnable(profile);
    const results: CheckResult[] = this.checks.map((c) => ({
      name: c.name,
      suite: c.kind,
      file: c.file,
      requirements: c.requirements,
      status: can.has(c) ? 'passed' : 'skipped',
      durationMs: 0,
    }));
    const inScope = requirementResults(results, { kinds: ['conformance', 'chaos'], depth: this.depth }).filter((r) => r.status !== 'out_of_scope');
    return { requirements: inScope.filter((r) => r.status === 'passed').length, of: inScope.length };
  }
}

/**
 * One row per need: provided, missing (what to add), or lost to a broken element above (the
 * profile declares it, but what provides it does not work).
 */
export function needRows(profile: Profile, usable: Profile, cov: Coverage): DoctorRow[] {
  const rows: DoctorRow[] = [];
  for (const [name, def] of [...NEEDS].sort(([a], [b]) => a.localeCompare(b))) {
    const declared = def.missing(viewFor(profile, 'conformance'), { depth: cov.depth });
    const works = def.missing(viewFor(usable, 'conformance'), { depth: cov.depth });
    const unlocks = cov.naming(name);
    if (declared) rows.push({ area: 'need', name, status: 'missing', detail: declared, unlocks, fix: declared });
    else if (works)
      rows.push({ area: 'need', name, status: 'broken', detail: 'declared, but lost with a broken row above', unlocks, fix: 'fix the broken rows above' });
    else rows.push({ area: 'need', name, status: 'ok', detail: def.description, unlocks });
  }
  return rows;
}
