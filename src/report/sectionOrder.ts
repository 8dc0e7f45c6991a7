// The spec's own order of its sections, read from the bundled spec texts
// (src/model/text/), so the report lists requirements as the spec reads and
// not as results happen to arrive. A catalogue section names a heading path
// ("Endpoints > Sessions", "States and transitions > Session" for the heading
// "Session (`status`)"), or, one step below a heading, a paragraph of it that
// starts with a label ("Errors > Retry" for "Retry: retry network errors…").
import { normalise, passages, type SpecName } from '../model/specText.js';

/** A heading as the catalogue names it: no trailing parenthesis, no markdown marks, lower case. */
const headingName = (heading: string) => normalise(heading.replace(/\s*\([^)]*\)\s*$/, ''));
const pathOf = (section: string) => section.split(' > ').map(headingName);

interface SpecOutline {
  /** Each heading path (normalised, joined by " > ") and the line of its first passage. */
  starts: Map<string, number>;
  /** Each heading path's labelled paragraphs ("retry:" …) and their lines. */
  labels: Map<string, { plain: string; line: number }[]>;
}

const outlines = new Map<SpecName, SpecOutline>();

function outlineOf(spec: SpecName): SpecOutline {
  let outline = outlines.get(spec);
  if (outline) return outline;
  outline = { starts: new Map(), labels: new Map() };
  for (const p of passages(spec)) {
    const path = pathOf(p.section);
    for (let depth = 1; depth <= path.length; depth++) {
      const key = path.slice(0, depth).join(' > ');
      outline.starts.set(key, Math.min(outline.starts.get(key) ?? Infinity, p.line));
    }
    const own = path.join(' > ');
    outline.labels.set(own, [...(outline.labels.get(own) ?? []), { plain: p.plain, line: p.line }]);
  }
  outlines.set(spec, outline);
  return outline;
}

/**
 * Where a section stands in its spec's reading order (a line of the spec text): its heading's first passage, or a
 * labelled paragraph under its parent heading, or else its nearest named ancestor's place. Infinity when the spec
 * names none of it: such sections go last, in the order they came.
 */
export function sectionPlace(spec: SpecName, section: string): number {
  const { starts, labels } = outlineOf(spec);
  const path = pathOf(section);
  for (let depth = path.length; depth >= 1; depth--) {
    const key = path.slice(0, depth).join(' > ');
    const start = starts.get(key);
    if (start === undefined) continue;
    if (depth === path.length) return start;
    const label = labels.get(key)?.find((l) => l.plain.startsWith(`${path[depth]}:`));
    return label?.line ?? start;
  }
  return Infinity;
}

/** Sections sorted into the spec's reading order; sections at the same place keep the order they came in. */
export function inSpecOrder<T>(spec: SpecName, items: readonly T[], sectionOf: (item: T) => string): T[] {
  const place = new Map<string, number>();
  const at = (item: T) => {
    const s = sectionOf(item);
    if (!place.has(s)) place.set(s, sectionPlace(spec, s));
    return place.get(s)!;
  };
  return items
    .map((item, i) => ({ item, i, at: at(item) }))
    .sort((a, b) => (a.at === b.at ? a.i - b.i : a.at < b.at ? -1 : 1))
    .map((x) => x.item);
}
