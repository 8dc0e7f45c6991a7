// The spec coverage map: every sentence, table row and list item of both specs
// is tested by a requirement, not shown, or not testable with a reviewed reason.
// Unaccounted stays at 0 (a new sentence in a spec fails here until it is
// placed), and no anchor or reviewed quote dangles (a stale one fails too).
import { describe, expect, it } from 'vitest';
import { CATALOGUE } from '../src/model/catalogue/index.js';
import { buildSpecMap, specMapCounts } from '../src/report/specMap.js';

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
    for (const p of map.passages.filter((x) => x.state === 'tested')) for (const id of p.requirements) expect(ids.get(id as never), id).toBe(p.spec);
  });

  it('can fail: without the anchors of one requirement, the passages only it covered become unaccounted', () => {
    const only = map.passages.find((p) => p.state === 'tested' && p.requirements.length === 1 && p.spec === 'gate')!;
    expect(only, 'a gate passage tested by one requirement alone').toBeDefined();
    const without = buildSpecMap(CATALOGUE.filter((r) => r.id !== only.requirements[0]));
    expect(specMapCounts(without).gate.unaccounted).toBeGreaterThan(0);
    expect(without.passages.find((p) => p.plain === only.plain)?.state).toBe('unaccounted');
  });
});
