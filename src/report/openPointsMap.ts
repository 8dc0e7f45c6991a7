// The inventory of open points (src/model/openPoints) as the spec map shows it: how many of each kind per spec,
// and each point with its passage, its documented choices (the reference's own first) and what reads it.
import { OPEN_POINTS, type OpenPoint } from '../model/openPoints/index.js';
import type { SpecName } from '../model/specText.js';

/** The spec map's passages, as far as this needs them (its id and the points it leaves open). */
interface Mapped {
  id: string;
  spec: SpecName;
  openPoints?: string[];
}

const passageOf = (m: { passages: readonly Mapped[] }, e: OpenPoint) => m.passages.find((p) => p.spec === e.spec && p.openPoints?.includes(e.id))?.id;

/** What `rampart spec-map --json` lists under openPoints: the counts by spec and kind, and every point. */
export function openPointsJson(m: { passages: readonly Mapped[] }) {
  const byKind: Record<SpecName, Record<string, number>> = { gate: {}, pools: {} };
  for (const e of OPEN_POINTS) byKind[e.spec][e.kind] = (byKind[e.spec][e.kind] ?? 0) + 1;
  return {
    total: OPEN_POINTS.length,
    byKind,
    points: OPEN_POINTS.map((e) => ({
      id: e.id,
      spec: e.spec,
      kind: e.kind,
      passage: e.passage,
      passageId: passageOf(m, e) ?? null,
      what: e.what,
      choices: [...e.choices],
      readBy: [...e.readBy],
    })),
  };
}

/** The text section: per spec, the counts by kind, then each point with its choices. */
export function formatOpenPoints(m: { passages: readonly Mapped[] }): string[] {
  const j = openPointsJson(m);
  const lines = [`open points (${j.total}): what the specs leave to the target; every world of rampart's takes another choice`];
  for (const spec of ['gate', 'pools'] as const) {
    const kinds = Object.entries(j.byKind[spec])
      .sort((a, b) => b[1] - a[1])
      .map(([k, n]) => `${n} ${k}`);
    lines.push(`  ${spec}: ${kinds.join(', ') || 'none'}`);
    for (const p of j.points.filter((x) => x.spec === spec))
      lines.push(`    ${p.id} [${p.kind}${p.passageId ? `, ${p.passageId}` : ''}] ${p.what} — ${p.choices.join(' | ')}`);
  }
  return lines;
}
