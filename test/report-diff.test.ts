// The line diff report.html shows for a failure's expected and actual.
import { describe, expect, it } from 'vitest';
import { changedSpan, diffable, lineDiff } from '../src/report/diff.js';
import { diffHtml } from '../src/report/failureCards.js';

describe('lineDiff', () => {
  it('keeps common lines and marks the removed (expected only) and added (actual only) ones, in order', () => {
    expect(lineDiff('a\nb\nc\nd', 'a\nx\nc\nd\ne')).toEqual([
      { op: 'same', text: 'a' },
      { op: 'del', text: 'b' },
      { op: 'add', text: 'x' },
      { op: 'same', text: 'c' },
      { op: 'same', text: 'd' },
      { op: 'add', text: 'e' },
    ]);
  });

  it('equal texts are all kept; empty against text is all added', () => {
    expect(lineDiff('p\nq', 'p\nq').every((l) => l.op === 'same')).toBe(true);
    expect(lineDiff('', 'z')).toEqual([
      { op: 'del', text: '' },
      { op: 'add', text: 'z' },
    ]);
  });

  it('rebuilds both sides exactly: kept + removed lines give expected, kept + added give actual', () => {
    const a = Array.from({ length: 60 }, (_, i) => `line ${i % 7} ${i % 3}`).join('\n');
    const b = Array.from({ length: 55 }, (_, i) => `line ${i % 5} ${i % 3}`).join('\n');
    const d = lineDiff(a, b);
    expect(
      d
        .filter((l) => l.op !== 'add')
        .map((l) => l.text)
        .join('\n'),
    ).toBe(a);
    expect(
      d
        .filter((l) => l.op !== 'del')
        .map((l) => l.text)
        .join('\n'),
    ).toBe(b);
  });

  it('very long texts are shown whole (one removed, one added) instead of an unbounded table', () => {
    const big = Array.from({ length: 500 }, (_, i) => String(i)).join('\n');
    const d = lineDiff(big, big + '\nx');
    expect(d.filter((l) => l.op === 'del')).toHaveLength(500);
    expect(d.filter((l) => l.op === 'add')).toHaveLength(501);
  });
});

describe('diffable', () => {
  it('puts a status on its own line and pretty-prints a JSON body, so the diff lands on fields', () => {
    expect(diffable('409 {"type":"conflict","code":"x"}')).toBe('409\n{\n  "type": "conflict",\n  "code": "x"\n}');
    expect(diffable('{"a":1}')).toBe('{\n  "a": 1\n}');
    // A body cut short is not JSON: kept as written, status still apart.
    expect(diffable('200 {"id":"gs_1","status":"canc…')).toBe('200\n{"id":"gs_1","status":"canc…');
    expect(diffable('409')).toBe('409');
    expect(diffable('409 conflict')).toBe('409 conflict');
  });
});

describe('changedSpan', () => {
  it('splits two lines into the common prefix, the two differing middles and the common suffix', () => {
    expect(changedSpan('"status": "open",', '"status": "cancelled",')).toEqual({ prefix: '"status": "', a: 'open', b: 'cancelled', suffix: '",' });
    expect(changedSpan('abc', 'abc')).toEqual({ prefix: 'abc', a: '', b: '', suffix: '' });
    expect(changedSpan('aXa', 'aa')).toEqual({ prefix: 'a', a: 'X', b: '', suffix: 'a' });
  });
});

describe('diffHtml', () => {
  it('field-level diff of two JSON answers: the one differing field is removed and added, its value marked, the rest kept', () => {
    const html = diffHtml('409 {"type":"conflict","status":"open"}', '409 {"type":"conflict","status":"cancelled"}');
    expect(html).toContain('<span class="d-same"><span class="d-sign"> </span>409</span>');
    expect(html).toContain('<span class="d-del"><span class="d-sign">-</span>  &quot;status&quot;: &quot;<mark>open</mark>&quot;</span>');
    expect(html).toContain('<span class="d-add"><span class="d-sign">+</span>  &quot;status&quot;: &quot;<mark>cancelled</mark>&quot;</span>');
    expect(html.match(/class="d-(del|add)"><span/g)).toHaveLength(2);
  });

  it('escapes target-controlled text on both sides', () => {
    const html = diffHtml('<b>x</b>', '</pre><script>alert(1)</script>');
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<b>x');
    // The text reads back whole once the change marks are removed.
    expect(html.replace(/<\/?mark>/g, '')).toContain('&lt;/pre&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
  });
});
