// Well-formed unknown ids (support/ids.ts): the shape of an id the target
// issued — prefix, length, the kind and alphabet of each character — kept,
// one trailing character changed.
import { describe, expect, it } from 'vitest';
import { wellFormedUnknownIds } from '../support/ids.js';

describe('ids like an issued one that name nothing', () => {
  it.each(['gs_PjLfzkatOhPkoTW9GKtOVv1P', '7c1d321b-cba5-4bfc-a37d-b0db68741b8c', '01HZX3K9Q8V7W6T5S4R3P2N1M0', 'gs_000123'])('%s keeps its shape', (id) => {
    const ids = wellFormedUnknownIds(id);
    expect(ids.length).toBeGreaterThan(0);
    const alphabet = new Set(id);
    for (const x of ids) {
      expect(x).not.toBe(id);
      expect(x).toHaveLength(id.length);
      expect([...x].every((c) => alphabet.has(c))).toBe(true);
      // Same kind of character at every position (digit, lower, upper, separator).
      const kind = (c: string) => (/\d/.test(c) ? 'd' : /[a-z]/.test(c) ? 'l' : /[A-Z]/.test(c) ? 'u' : c);
      expect([...x].map(kind)).toEqual([...id].map(kind));
      expect([...x].filter((c, i) => c !== id[i])).toHaveLength(1);
    }
  });

  it('a hex UUID stays hex and keeps its separators', () => {
    for (const x of wellFormedUnknownIds('7c1d321b-cba5-4bfc-a37d-b0db68741b8c'))
      expect(x).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-a[0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
