// The spec coverage map: every passage of both specs marked tested (by the
// requirement ids anchored to it, with their status in a run), partial (it
// names several cases and one of them no check asserts, with the reason), not
// shown (the spec leaves it open: observed, never failed), not testable from
// outside (a reviewed reason), or unaccounted. Rendered as the spec itself with each
// passage highlighted by its state, for `rampart spec-map` and report.html.
import { marked, type Token, type Tokens } from 'marked';
import { CATALOGUE, type Requirement } from '../model/catalogue/index.js';
import { OPEN_POINTS } from '../model/openPoints/index.js';
import { CASES, NOT_SHOWN, NOT_TESTABLE, type Reviewed, type SpecCases } from '../model/specMap/index.js';
import { normalise, passages, specText, type Passage, type SpecName } from '../model/specText.js';
import { formatOpenPoints, openPointsJson } from './openPointsMap.js';
import type { RequirementStatus } from './results.js';

export type PassageState = 'tested' | 'partial' | 'notShown' | 'notTestable' | 'unaccounted';

/** One case an anchored passage names, and the requirements asserting it (none: `unasserted` says why, or `untestable` why none ever can). */
export interface PassageCase {
  case: string;
  requirements: string[];
  unasserted?: string;
  untestable?: string;
}

export interface MappedPassage extends Passage {
  state: PassageState;
  /** Requirement ids anchored to it (tested, partial). */
  requirements: string[];
  /** The cases it names, when it names several (CASES in src/model/specMap/). */
  cases?: PassageCase[];
  /** Why it is partial / not shown / not testable. */
  reason?: string;
  /** The open points (src/model/openPoints) this passage leaves to the target, by id. */
  openPoints?: string[];
}

export interface SpecMap {
  passages: MappedPassage[];
  counts: Record<SpecName, Record<PassageState, number>>;
  bySection: Record<SpecName, Record<string, Record<PassageState, number>>>;
  /** Anchors or reviewed quotes that match no passage: the catalogue or the lists are out of date. */
  dangling: { what: string; quote: string }[];
}

const NOT_SHOWN_WORDS = /\bnot shown\b/i;

const zero = (): Record<PassageState, number> => ({ tested: 0, partial: 0, notShown: 0, notTestable: 0, unaccounted: 0 });

/** A passage's cases from its CASES entry; partial when one of them is unasserted (or none of its requirements is catalogued). */
function casesOf(entry: SpecCases, known: ReadonlySet<string>): PassageCase[] {
  return Object.entries(entry.cases).map(([c, acc]) => {
    if ('unasserted' in acc) return { case: c, requirements: [], unasserted: acc.unasserted };
    if ('untestable' in acc) return { case: c, requirements: [], untestable: acc.untestable };
    const reqs = acc.filter((id) => known.has(id));
    return reqs.length ? { case: c, requirements: reqs } : { case: c, requirements: [], unasserted: `none of ${acc.join(', ')} is in the catalogue` };
  });
}

export function buildSpecMap(catalogue: readonly Requirement[] = CATALOGUE): SpecMap {
  const all: MappedPassage[] = [];
  const dangling: SpecMap['dangling'] = [];
  const anchors = catalogue.flatMap((r) => r.anchors.map((a) => ({ r, a: normalise(a) })));
  const known = new Set<string>(catalogue.map((r) => r.id));
  const used = new Set<string>();
  const reviewed = (list: Reviewed[], spec: SpecName, p: Passage, key: string) => {
    const hit = list.find((x) => x.spec === spec && p.plain.includes(normalise(x.quote)));
    if (hit) used.add(`${key}:${hit.spec}:${hit.quote}`);
    return hit;
  };
  const counts = { gate: zero(), pools: zero() };
  const bySection: SpecMap['bySection'] = { gate: {}, pools: {} };
  for (const spec of ['gate', 'pools'] as const) {
    for (const p of passages(spec)) {
      const service = spec;
      const reqs = anchors.filter(({ r, a }) => r.service === service && a.length > 0 && p.plain.includes(a));
      for (const x of reqs) used.add(`anchor:${x.r.id}:${x.a}`);
      let state: PassageState;
      let reason: string | undefined;
      let cases: PassageCase[] | undefined;
      if (reqs.length) {
        const entry = CASES.find((x) => x.spec === spec && p.plain.includes(normalise(x.quote)));
        if (entry) used.add(`cases:${entry.spec}:${entry.quote}`);
        cases = entry && casesOf(entry, known);
        const open = cases?.filter((c) => c.unasserted !== undefined) ?? [];
        state = open.length ? 'partial' : 'tested';
        if (open.length) reason = open.map((c) => `${c.case}: ${c.unasserted}`).join('; ');
      } else if (NOT_SHOWN_WORDS.test(p.text)) [state, reason] = ['notShown', 'the spec leaves it open ("not shown"): observed, never failed'];
      else {
        const ns = reviewed(NOT_SHOWN, spec, p, 'notShown');
        const nt = ns ? undefined : reviewed(NOT_TESTABLE, spec, p, 'notTestable');
        if (ns) [state, reason] = ['notShown', ns.reason];
        else if (nt) [state, reason] = ['notTestable', nt.reason];
        else state = 'unaccounted';
      }
      const open = OPEN_POINTS.filter((e) => e.spec === spec && p.plain.includes(normalise(e.passage))).map((e) => e.id);
      for (const id of open) used.add(`open:${id}`);
      all.push({
        ...p,
        state,
        requirements: [...new Set(reqs.map((x) => x.r.id))],
        ...(cases ? { cases } : {}),
        ...(reason ? { reason } : {}),
        ...(open.length ? { openPoints: open } : {}),
      });
      counts[spec][state]++;
      const sec = (bySection[spec][p.section] ??= zero());
      sec[state]++;
    }
  }
  for (const r of catalogue) for (const a of r.anchors) if (!used.has(`anchor:${r.id}:${normalise(a)}`)) dangling.push({ what: `${r.id} anchor`, quote: a });
  for (const [key, list] of [
    ['notShown', NOT_SHOWN],
    ['notTestable', NOT_TESTABLE],
  ] as const)
    for (const x of list) if (!used.has(`${key}:${x.spec}:${x.quote}`)) dangling.push({ what: `${key} (${x.spec})`, quote: x.quote });
  for (const x of CASES) if (!used.has(`cases:${x.spec}:${x.quote}`)) dangling.push({ what: `cases (${x.spec}): no anchored passage`, quote: x.quote });
  for (const e of OPEN_POINTS) if (!used.has(`open:${e.id}`)) dangling.push({ what: `open point ${e.id}`, quote: e.passage });
  return { passages: all, counts, bySection, dangling };
}

/** The counts per spec. */
export function specMapCounts(m: SpecMap): Record<SpecName, Record<PassageState, number>> {
  return m.counts;
}

/** Every partial passage: which of its cases no check asserts, and why. */
export function partialPassages(m: SpecMap): { spec: SpecName; id: string; passage: string; unasserted: { case: string; reason: string }[] }[] {
  return m.passages
    .filter((p) => p.state === 'partial')
    .map((p) => ({
      spec: p.spec,
      id: p.id,
      passage: p.text,
      unasserted: (p.cases ?? []).filter((c) => c.unasserted !== undefined).map((c) => ({ case: c.case, reason: c.unasserted! })),
    }));
}

/**
 * What stays untestable, with its reason: each case a tested passage names that no request can reach, and each
 * reviewed passage stating a rule of the service no request can reach (not an editorial passage, nor the partner's
 * obligation).
 */
export function untestable(m: SpecMap): { spec: SpecName; id: string; passage: string; case?: string; reason: string }[] {
  const out: ReturnType<typeof untestable> = [];
  for (const p of m.passages) {
    for (const c of p.cases ?? []) if (c.untestable !== undefined) out.push({ spec: p.spec, id: p.id, passage: p.text, case: c.case, reason: c.untestable });
    if (p.state !== 'notTestable') continue;
    const hit = NOT_TESTABLE.find((x) => x.unreachable && x.spec === p.spec && p.plain.includes(normalise(x.quote)));
    if (hit) out.push({ spec: p.spec, id: p.id, passage: p.text, reason: hit.reason });
  }
  return out;
}

/** What `rampart spec-map --json` prints: the counts per spec, each partial passage with its reasons, and what stays untestable. */
export function specMapJson(m: SpecMap): Record<SpecName, Record<PassageState, number>> & {
  partial: ReturnType<typeof partialPassages>;
  untestable: ReturnType<typeof untestable>;
  openPoints: ReturnType<typeof openPointsJson>;
} {
  return { ...m.counts, partial: partialPassages(m), untestable: untestable(m), openPoints: openPointsJson(m) };
}

/** Text summary: counts per spec section, then what is unaccounted. */
export function formatSpecMap(m: SpecMap): string {
  const lines: string[] = [];
  for (const spec of ['gate', 'pools'] as const) {
    const c = m.counts[spec];
    lines.push(`${spec}: ${c.tested} tested, ${c.partial} partial, ${c.notShown} not shown, ${c.notTestable} not testable, ${c.unaccounted} unaccounted`);
    for (const [section, s] of Object.entries(m.bySection[spec]))
      lines.push(
        `  ${section}: ${s.tested} tested · ${s.partial} partial · ${s.notShown} not shown · ${s.notTestable} not testable · ${s.unaccounted} unaccounted`,
      );
  }
  const partial = partialPassages(m);
  if (partial.length) {
    lines.push('', `partial passages (${partial.length}): a case they name that no check asserts`);
    for (const p of partial) {
      lines.push(`  ${p.id} ${p.passage.slice(0, 120)}`);
      for (const u of p.unasserted) lines.push(`    - ${u.case}: ${u.reason}`);
    }
  }
  const never = untestable(m);
  if (never.length) {
    lines.push('', `untestable (${never.length}): rules of the service no request can reach`);
    for (const u of never) lines.push(`  ${u.id} ${u.case ? `${u.case}: ` : ''}${u.reason}`);
  }
  lines.push('', ...formatOpenPoints(m));
  const un = m.passages.filter((p) => p.state === 'unaccounted');
  if (un.length) {
    lines.push('', `unaccounted passages (${un.length}): anchor a requirement to each, or list it in src/model/specMap.ts with its reason`);
    for (const p of un) lines.push(`  ${p.id} [${p.section}] ${p.text.slice(0, 140)}`);
  }
  if (m.dangling.length) {
    lines.push('', `dangling quotes (${m.dangling.length}): they match no passage of the spec`);
    for (const d of m.dangling) lines.push(`  ${d.what}: ${d.quote.slice(0, 120)}`);
  }
  return lines.join('\n');
}

// ---------- HTML: the spec itself, each passage highlighted by its state ----------

function esc(v: unknown): string {
  return String(v ?? '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** Inline markdown (code spans, bold) of already-escaped text. */
function inline(s: string): string {
  return esc(s)
    .replace(/`([^`]+)`/g, '<code>$1</code>')
    .replace(/\*\*([^*]+)\*\*/g, '<b>$1</b>');
}

const LABEL: Record<PassageState, string> = {
  tested: 'tested',
  partial: 'partial',
  notShown: 'not shown',
  notTestable: 'not testable',
  unaccounted: 'unaccounted',
};

export const SPEC_MAP_CSS = `
.specmap{background:#fff;border:1px solid #d0d7de;border-radius:6px;padding:8px 16px}
.specmap .ps{border-radius:3px;padding:0 2px}.s-tested{background:#dafbe1}.s-tested.r-failed{background:#ffd8d3}.s-tested.r-open{background:#fff1c2}
.s-partial{background:#fff1c2;outline:1px dashed #9a6700}.s-notShown{background:#eaeef2}.s-notTestable{background:#f6f0ff}.s-unaccounted{background:#ffd8d3;outline:1px dashed #cf222e}
.specmap tr.ps td{background:inherit}.specmap .refs{font-size:11px;color:#57606a;margin-left:4px}.specmap .refs a{color:#0969da}
.specmap-legend span{display:inline-block;padding:0 6px;margin-right:6px;border-radius:3px}
`;

/** The spec as HTML; `status` gives each requirement's status in a run (links and colours follow it). */
export function specMapHtml(m: SpecMap, spec: SpecName, status: (id: string) => RequirementStatus | undefined = () => undefined): string {
  const byLine = new Map<number, MappedPassage[]>();
  for (const p of m.passages.filter((x) => x.spec === spec)) byLine.set(p.line, [...(byLine.get(p.line) ?? []), p]);
  const text = specText(spec);
  const cls = (p: MappedPassage) => {
    const st = p.requirements.map(status);
    const tone = st.includes('failed') ? ' r-failed' : st.some((s) => s && s !== 'passed') ? ' r-open' : '';
    return `ps s-${p.state}${tone}`;
  };
  const by = (p: MappedPassage) => p.requirements.map((id) => `${id}${status(id) ? ` (${status(id)})` : ''}`).join(', ');
  const opens = (p: MappedPassage) => (p.openPoints?.length ? ` · open: ${p.openPoints.join(', ')}` : '');
  const title = (p: MappedPassage) => titleOf(p) + opens(p);
  const titleOf = (p: MappedPassage) =>
    p.state === 'tested'
      ? `tested by ${by(p)}`
      : p.state === 'partial'
        ? `partial — tested by ${by(p)}; not asserted: ${p.reason}`
        : `${LABEL[p.state]}${p.reason ? `: ${p.reason}` : ''}`;
  const refs = (p: MappedPassage) =>
    p.requirements.length ? `<span class="refs">${p.requirements.map((id) => `<a href="#${esc(id)}">${esc(id)}</a>`).join(' ')}</span>` : '';
  let offset = 0;
  const lineOf = (raw: string) => {
    const i = text.indexOf(raw, offset);
    if (i >= 0) offset = i;
    return text.slice(0, Math.max(0, i)).split('\n').length;
  };
  const spans = (line: number, body: string) => {
    const ps = byLine.get(line);
    if (!ps) return inline(body);
    return ps
      .map((p) => `<span class="${cls(p)}" id="${esc(p.id.replace(/[:.]/g, '-'))}" title="${esc(title(p))}">${inline(p.text)}</span>${refs(p)}`)
      .join(' ');
  };
  const out: string[] = [];
  const render = (toks: Token[]) => {
    for (const t of toks) {
      if (t.type === 'heading') {
        const h = t as Tokens.Heading;
        lineOf(h.raw);
        out.push(`<h${Math.min(6, h.depth + 2)}>${inline(h.text)}</h${Math.min(6, h.depth + 2)}>`);
      } else if (t.type === 'paragraph') {
        out.push(`<p>${spans(lineOf(t.raw), (t as Tokens.Paragraph).text.replace(/\n/g, ' '))}</p>`);
      } else if (t.type === 'list') {
        const l = t as Tokens.List;
        const tag = l.ordered ? 'ol' : 'ul';
        out.push(`<${tag}>${l.items.map((it) => `<li>${spans(lineOf(it.raw), it.text.replace(/\n/g, ' '))}</li>`).join('')}</${tag}>`);
      } else if (t.type === 'table') {
        const tbl = t as Tokens.Table;
        lineOf(tbl.raw);
        const rows = tbl.rows.map((row) => {
          const line = lineOf(row[0]?.text ?? '');
          const p = byLine.get(line)?.[0];
          const cells = row.map((c) => `<td>${inline(c.text)}</td>`).join('');
          return p ? `<tr class="${cls(p)}" title="${esc(title(p))}">${cells}<td>${refs(p)}</td></tr>` : `<tr>${cells}<td></td></tr>`;
        });
        out.push(
          `<table><thead><tr>${tbl.header.map((c) => `<th>${inline(c.text)}</th>`).join('')}<th>requirements</th></tr></thead><tbody>${rows.join('')}</tbody></table>`,
        );
      }
    }
  };
  render(marked.lexer(text));
  const c = m.counts[spec];
  return `<div class="specmap-legend small"><span class="s-tested">tested ${c.tested}</span><span class="s-partial">partial ${c.partial}</span><span class="s-notShown">not shown ${c.notShown}</span><span class="s-notTestable">not testable ${c.notTestable}</span><span class="s-unaccounted">unaccounted ${c.unaccounted}</span></div><div class="specmap">${out.join('\n')}</div>`;
}
