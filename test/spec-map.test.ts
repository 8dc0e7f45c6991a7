// The spec coverage map: every sentence, table row and list item of both specs
// is tested by a requirement, partial (a case it names that no check asserts,
// with the reason), not shown, or not testable with a reviewed reason.
// Unaccounted stays at 0 (a new sentence in a spec fails here until it is
// placed), and no anchor or reviewed quote dangles (a stale one fails too).
// Partial is held at the number reached: it can only go down.
import { describe, expect, it } from 'vitest';
import { SCENARIOS } from '../scenarios/lib/requirements.js';
import { CATALOGUE } from '../src/model/catalogue/index.js';
import { CASES } from '../src/model/specMap/index.js';
import { buildSpecMap, partialPassages, specMapCounts, specMapJson, untestable } from '../src/report/specMap.js';
import { loadSuites } from '../src/runner/run.js';

/** The partial passages per spec when this was last lowered; a case newly asserted lowers it here too. */
const PARTIAL_AT_MOST = { gate: 0, pools: 2 } as const;

describe('the spec coverage map', () => {
  const map = buildSpecMap();

  it('accounts for every passage of both specs: unaccounted is 0, and each spec has tested passages', () => {
    const un = map.passages.filter((p) => p.state === 'unaccounted').map((p) => `${p.spec}: ${p.plain.slice(0, 120)}`);
    expect(un).toEqual([]);
    const counts = specMapCounts(map);
    for (const spec of ['gate', 'pools'] as const) {
      expect(counts[spec].unaccounted).toBe(0);
      expect(counts[spec].tested).toBeGreaterThan(100);
    }
  });

  it('every anchor and every reviewed quote matches a passage (none dangles)', () => {
    expect(map.dangling).toEqual([]);
  });

  it('every tested passage names requirements of its own service', () => {
    const ids = new Map(CATALOGUE.map((r) => [r.id, r.service]));
    for (const p of map.passages.filter((x) => x.state === 'tested' || x.state === 'partial'))
      for (const id of p.requirements) expect(ids.get(id as never), id).toBe(p.spec);
  });

  it(`partial is at most ${PARTIAL_AT_MOST.gate} (gate) and ${PARTIAL_AT_MOST.pools} (pools), never over 5 per service, each unasserted case with its reason; --json lists them`, () => {
    const counts = specMapCounts(map);
    for (const spec of ['gate', 'pools'] as const) {
      expect(counts[spec].partial, spec).toBeLessThanOrEqual(Math.min(5, PARTIAL_AT_MOST[spec]));
    }
    const partial = partialPassages(map);
    expect(partial.length).toBe(counts.gate.partial + counts.pools.partial);
    for (const p of partial) {
      expect(p.unasserted.length, p.id).toBeGreaterThan(0);
      for (const u of p.unasserted) expect(u.reason.length, `${p.id} ${u.case}`).toBeGreaterThanOrEqual(40);
    }
    const json = JSON.parse(JSON.stringify(specMapJson(map)));
    expect(json.gate.partial).toBe(counts.gate.partial);
    expect(json.partial.map((p: { id: string }) => p.id)).toEqual(partial.map((p) => p.id));
  });

  it('lists what stays untestable, each with its reason: no endpoint revokes a key, the account-assertion transport is not shown, the trade never shows destAddress', () => {
    const never = untestable(map);
    for (const u of never) expect(u.reason.length, `${u.id} ${u.case ?? ''}`).toBeGreaterThanOrEqual(40);
    const reasons = never.map((u) => `${u.case ?? ''} ${u.reason}`);
    expect(reasons.some((r) => /revok/.test(r) && /no endpoint/.test(r))).toBe(true);
    expect(reasons.some((r) => /account assertion is not shown/.test(r))).toBe(true);
    expect(reasons.some((r) => /never shows destAddress/.test(r))).toBe(true);
    // Untestable cases never make a passage partial, and --json lists them beside the partial ones.
    const revoked = map.passages.find((p) => p.cases?.some((c) => c.case === 'revoking a revoked key'))!;
    expect(revoked.state).toBe('tested');
    expect(JSON.parse(JSON.stringify(specMapJson(map))).untestable.length).toBe(never.length);
  });

  it("every case a passage names is asserted by requirements anchored to that passage, each named by a check (conformance, chaos or a load scenario's case)", async () => {
    const named = new Set<string>();
    for (const kind of ['conformance', 'chaos'] as const)
      for (const s of await loadSuites(kind)) for (const c of s.checks) c.requirements.forEach((id) => named.add(id));
    for (const spec of Object.values(SCENARIOS))
      for (const ids of Object.values(spec.cases as Record<string, readonly string[]>)) ids.forEach((id) => named.add(id));
    const problems: string[] = [];
    for (const entry of CASES) {
      const p = map.passages.find(
        (x) => x.spec === entry.spec && x.cases !== undefined && x.plain.includes(entry.quote.replace(/[`*_]/g, '').replace(/\s+/g, ' ').trim().toLowerCase()),
      );
      if (!p) {
        problems.push(`${entry.spec}: no anchored passage for "${entry.quote}"`);
        continue;
      }
      expect(Object.keys(entry.cases).length, entry.quote).toBeGreaterThan(1);
      for (const [c, acc] of Object.entries(entry.cases)) {
        if ('unasserted' in acc || 'untestable' in acc) continue;
        for (const id of acc) {
          if (!p.requirements.includes(id)) problems.push(`${p.id} "${c}": ${id} is not anchored to the passage`);
          if (!named.has(id)) problems.push(`${p.id} "${c}": no check names ${id}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('can fail: without a requirement a case counts on, its passage turns partial, naming the case', () => {
    const without = buildSpecMap(CATALOGUE.filter((r) => r.id !== 'GATE-RATE-ROUTES-WRITE10'));
    const row = without.passages.find((p) => p.plain.startsWith('| 10 per minute |'))!;
    expect(row.state).toBe('partial');
    expect(row.cases?.filter((c) => c.unasserted).map((c) => c.case)).toEqual(['POST /dashboard/webhook-secret/rotate', 'POST /webhooks/test']);
    expect(specMapCounts(without).gate.partial).toBe(specMapCounts(map).gate.partial + 1);
  });

  it('can fail: without the anchors of one requirement, the passages only it covered become unaccounted', () => {
    const only = map.passages.find((p) => p.state === 'tested' && p.requirements.length === 1 && p.spec === 'gate')!;
    expect(only, 'a gate passage tested by one requirement alone').toBeDefined();
    const without = buildSpecMap(CATALOGUE.filter((r) => r.id !== only.requirements[0]));
    expect(specMapCounts(without).gate.unaccounted).toBeGreaterThan(0);
    expect(without.passages.find((p) => p.plain === only.plain)?.state).toBe('unaccounted');
  });
});
