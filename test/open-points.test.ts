// The inventory of what the specs leave open (src/model/openPoints) held against the spec map and the worlds:
// every "not shown" passage has an entry; every entry's passage is in a spec; every entry lists an alternative to
// the reference's own and the embedded reference can take each of its choices (a world effect, or a place in the
// reference that reads the point); what an entry says reads it exists; a world drawn from a seed is the same on
// every draw, and the dialect world differs from the reference at every point.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as gateSchemas from '../src/model/schemas/gate/index.js';
import * as poolsSchemas from '../src/model/schemas/pools/index.js';
import { OPEN_POINTS, differences, drawDialect, everywhereDialect } from '../src/model/openPoints/index.js';
import { normalise, passages } from '../src/model/specText.js';
import { buildSpecMap } from '../src/report/specMap.js';
import { WORLD_EFFECTS, dialectProfile } from '../src/reference/dialect.js';
import { loadProfile } from '../src/profile/load.js';

const ROOT = join(import.meta.dirname, '..');

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((f) => {
    const p = join(dir, f);
    return statSync(join(ROOT, p)).isDirectory() ? sources(p) : /\.ts$/.test(f) ? [p] : [];
  });
}
const reference = sources('src/reference')
  .map((f) => readFileSync(join(ROOT, f), 'utf8'))
  .join('\n');
const relations = new Set(Object.keys({ ...gateSchemas, ...poolsSchemas }).filter((k) => k.endsWith('_RELATIONS')));

describe('the inventory of open points', () => {
  it('every "not shown" passage of the spec map has an entry naming it', () => {
    const map = buildSpecMap();
    const open = map.passages.filter((p) => p.state === 'notShown' || /\bnot shown\b/i.test(p.text));
    const missing = open.filter((p) => !OPEN_POINTS.some((e) => e.spec === p.spec && p.plain.includes(normalise(e.passage))));
    expect(missing.map((p) => `${p.id}: ${p.text}`)).toEqual([]);
  });

  it("every entry's passage stands in its spec", () => {
    const dangling = OPEN_POINTS.filter((e) => !passages(e.spec).some((p) => p.plain.includes(normalise(e.passage))));
    expect(dangling.map((e) => `${e.id}: ${e.passage}`)).toEqual([]);
  });

  it('every entry has an alternative, and the reference takes each choice (a world effect, or its code reads the point)', () => {
    const untaken = OPEN_POINTS.filter((e) => !WORLD_EFFECTS[e.id] && !reference.includes(`'${e.id}'`));
    expect(untaken.map((e) => e.id)).toEqual([]);
    for (const e of OPEN_POINTS) expect(e.choices.length, e.id).toBeGreaterThanOrEqual(2);
  });

  it('what reads each entry exists: the files it names, the relations it names', () => {
    const gone: string[] = [];
    for (const e of OPEN_POINTS)
      for (const r of e.readBy)
        if (r.startsWith('relation:') ? !relations.has(r.slice(9)) : !existsSync(join(ROOT, r.split('#')[0]!))) gone.push(`${e.id}: ${r}`);
    expect(gone).toEqual([]);
  });

  it('a world drawn from a seed is the same every time; the dialect world differs everywhere, and both build a profile', () => {
    expect(drawDialect(7)).toEqual(drawDialect(7));
    const everywhere = everywhereDialect();
    expect(differences(everywhere)).toHaveLength(OPEN_POINTS.length);
    const base = loadProfile('fixtures/profiles/embedded.json');
    expect(dialectProfile(base, everywhere).reference?.dialect).toEqual(everywhere);
    for (const seed of [1, 2, 3]) expect(dialectProfile(base, drawDialect(seed)).reference?.dialect).toEqual(drawDialect(seed));
  });
});
