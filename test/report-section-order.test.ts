// The report's requirement matrix follows each spec's section order, read from the bundled spec texts: every
// section the catalogue names is found in its spec, the places follow the headings as the text reads, and the
// matrix lists sections in that order whatever order the results came in.
import { describe, expect, it } from 'vitest';
import { CATALOGUE } from '../src/model/catalogue/index.js';
import { specText, type SpecName } from '../src/model/specText.js';
import { toHtml } from '../src/report/html.js';
import { inSpecOrder, sectionPlace } from '../src/report/sectionOrder.js';
import { requirementResults } from '../src/report/verdict.js';
import { runOf, withSummary } from './support/results.js';

const SPECS: SpecName[] = ['gate', 'pools'];
const sectionsOf = (spec: SpecName) => [...new Set(CATALOGUE.filter((r) => r.service === spec).map((r) => r.section))];

/** The heading paths of a spec text below its title, in the order the text has them (read line by line, not by the module). */
function headingPaths(spec: SpecName): string[] {
  const path: string[] = [];
  const out: string[] = [];
  for (const line of specText(spec).split('\n')) {
    const m = /^(#{2,6})\s+(.*)$/.exec(line);
    if (!m) continue;
    path.length = m[1]!.length - 2;
    path.push(m[2]!.trim());
    out.push(path.join(' > '));
  }
  return out;
}

describe("the spec's section order", () => {
  for (const spec of SPECS) {
    it(`${spec}: every section the catalogue names is a heading or a labelled paragraph of the spec`, () => {
      expect(sectionsOf(spec).filter((s) => !Number.isFinite(sectionPlace(spec, s)))).toEqual([]);
    });

    it(`${spec}: the places follow the headings as the text reads them`, () => {
      const places = headingPaths(spec)
        .map((h) => ({ h, at: sectionPlace(spec, h) }))
        .filter((x) => Number.isFinite(x.at));
      expect(places.length).toBeGreaterThan(10);
      // A heading with no passage of its own (a parent) stands where its first child does.
      for (let i = 1; i < places.length; i++) {
        const [before, after] = [places[i - 1]!, places[i]!];
        if (after.h.startsWith(`${before.h} > `)) expect(after.at, `${before.h} before ${after.h}`).toBeGreaterThanOrEqual(before.at);
        else expect(after.at, `${before.h} before ${after.h}`).toBeGreaterThan(before.at);
      }
    });
  }

  it('a section a heading does not name but a labelled paragraph of its parent does stands at that paragraph', () => {
    expect(sectionPlace('gate', 'Errors > Retry')).toBeGreaterThan(sectionPlace('gate', 'Errors'));
    expect(sectionPlace('gate', 'Errors > Retry')).toBeLessThan(sectionPlace('gate', 'Limits'));
    expect(sectionPlace('gate', 'Endpoints > Rails > Pay-out rules')).toBeGreaterThan(sectionPlace('gate', 'Endpoints > Rails'));
    expect(sectionPlace('gate', 'Endpoints > Rails > Pay-out rules')).toBeLessThan(sectionPlace('gate', 'Endpoints > Dashboard'));
  });

  it('sections the spec does not name go last, in the order they came', () => {
    expect(inSpecOrder('gate', ['Zeta', 'Limits', 'Alpha', 'What the service does'], (s) => s)).toEqual(['What the service does', 'Limits', 'Zeta', 'Alpha']);
  });
});

describe('the requirement matrix of report.html', () => {
  /** The section names of the matrix of one service, in the order the page lists them. */
  function matrixSections(html: string, service: 'Gate' | 'Pools'): string[] {
    const matrix = html.split('id="matrix"')[1] ?? html;
    const part = matrix.split(`<h3>${service} `)[1]!.split('<h3>')[0]!;
    return [...part.matchAll(/<details class="section" data-rows[^>]*><summary><b>([^<]*)<\/b>/g)].map((m) =>
      m[1]!.replace(/&gt;/g, '>').replace(/&amp;/g, '&'),
    );
  }

  it("lists each service's sections in the spec's order, not the order the results came in", () => {
    const requirements = requirementResults([], { kinds: ['conformance', 'chaos', 'load'], depth: 'full' }).reverse();
    const results = withSummary({
      ...runOf({ runId: 'order', depth: 'full', startedAt: '2026-11-23T03:15:00.000Z', finishedAt: '2026-11-23T03:16:00.000Z' }),
      requirements,
    });
    const html = toHtml(results);
    for (const [spec, service] of [
      ['gate', 'Gate'],
      ['pools', 'Pools'],
    ] as const) {
      const listed = matrixSections(html, service);
      expect(listed).toEqual(inSpecOrder(spec, sectionsOf(spec), (s) => s));
      expect(listed[0]).toBe('What the service does');
    }
    const gate = matrixSections(html, 'Gate');
    expect(gate.indexOf('Resources and their fields > Branding')).toBeLessThan(gate.indexOf('Endpoints > Branding'));
    expect(gate.indexOf('Endpoints > Branding')).toBeLessThan(gate.indexOf('Authentication'));
    expect(gate.indexOf('Errors')).toBeLessThan(gate.indexOf('Limits'));
  });
});
