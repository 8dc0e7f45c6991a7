// The two specs as text, cut into the passages a reader can point at: every
// sentence of a paragraph or list item, and every table row. The copies under
// src/model/text/ are the specs this model was built from; they ship with the
// package and are read beside this module, never from the current folder.
import { readFileSync } from 'node:fs';
import { marked, type Token, type Tokens } from 'marked';

export type SpecName = 'gate' | 'pools';

export const SPEC_FILES: Record<SpecName, string> = { gate: 'gate-api.md', pools: 'pools-api.md' };

export function specText(spec: SpecName): string {
  return readFileSync(new URL(`./text/${SPEC_FILES[spec]}`, import.meta.url), 'utf8');
}

export interface Passage {
  /** Stable within one version of the spec: gate:12.2 = line 12, second sentence. */
  id: string;
  spec: SpecName;
  /** Heading path: "Endpoints > Sessions". */
  section: string;
  kind: 'sentence' | 'row' | 'item';
  /** The passage as written (markdown). */
  text: string;
  /** Lowercased, markdown marks dropped, whitespace collapsed: what anchors are matched against. */
  plain: string;
  line: number;
  /** For a table row: the header cells, to read the row by. */
  header?: string[];
}

export function normalise(s: string): string {
  return s.replace(/[`*_]/g, '').replace(/\s+/g, ' ').trim().toLowerCase();
}

// A sentence ends at . ! ? followed by a space and a capital, a backtick or a parenthesis — not after e.g. / i.e.
const SENTENCE_END = /(?<!\be\.g|\bi\.e|\bvs)([.!?])\s+(?=[A-Z`(])/g;

export function sentences(text: string): string[] {
  const out: string[] = [];
  let last = 0;
  for (const m of text.matchAll(SENTENCE_END)) {
    const end = m.index! + m[1]!.length;
    out.push(text.slice(last, end).trim());
    last = end;
  }
  out.push(text.slice(last).trim());
  return out.filter((s) => s.length > 0);
}

/** Every passage of a spec, in reading order. Headings are structure, not passages. */
export function passages(spec: SpecName, text = specText(spec)): Passage[] {
  const out: Passage[] = [];
  const tokens = marked.lexer(text);
  const path: string[] = [];
  let offset = 0;
  const lineAt = (raw: string) => {
    const i = text.indexOf(raw, offset);
    if (i >= 0) offset = i;
    return text.slice(0, Math.max(0, i)).split('\n').length;
  };
  const push = (kind: Passage['kind'], body: string, line: number, header?: string[]) => {
    const parts = kind === 'row' ? [body] : sentences(body);
    parts.forEach((t, i) => {
      out.push({
        id: `${spec}:${line}${parts.length > 1 ? `.${i + 1}` : ''}`,
        spec,
        section: path.slice(1).join(' > ') || path[0] || '',
        kind,
        text: t,
        plain: normalise(t),
        line,
        ...(header ? { header } : {}),
      });
    });
  };
  const walk = (toks: Token[]) => {
    for (const t of toks) {
      if (t.type === 'heading') {
        const h = t as Tokens.Heading;
        path.length = h.depth - 1;
        path[h.depth - 1] = h.text;
        lineAt(h.raw);
      } else if (t.type === 'paragraph') {
        push('sentence', (t as Tokens.Paragraph).text.replace(/\n/g, ' '), lineAt(t.raw));
      } else if (t.type === 'list') {
        for (const item of (t as Tokens.List).items) push('item', item.text.replace(/\n/g, ' '), lineAt(item.raw));
      } else if (t.type === 'table') {
        const tbl = t as Tokens.Table;
        const header = tbl.header.map((c) => c.text);
        lineAt(tbl.raw);
        for (const row of tbl.rows) {
          const rowText = `| ${row.map((c) => c.text).join(' | ')} |`;
          const line = lineAt(row[0]?.text ?? '');
          push('row', rowText, line, header);
        }
      }
    }
  };
  walk(tokens);
  return out;
}
