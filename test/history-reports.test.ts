// The reports of a night against the nights before it, from the run store: four runs of one target and scope written
// as every run is (writeRun) — clean; a rule failing; clean; the same rule failing again beside a second rule that
// fails for the first time. The fourth run's junit.xml, step summary, annotations and report banner say which failure
// is new and which intermittent; its ctrf.json is valid by the CTRF reference package's validate, with insights, a
// baseline and flaky filled from the store. Nothing is retried or hidden: the verdict is the night's.
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validate } from 'ctrf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Night } from '../src/history/night.js';
import { reportIdOf } from '../src/report/ctrf.js';
import { githubAnnotations, githubStepSummary } from '../src/report/github.js';
import type { RunResults } from '../src/report/results.js';
import { writeRun, writeRunEmergency } from '../src/report/writeRun.js';
import { nightAt, nightRun } from './support/nights.js';

const tmp = mkdtempSync(join(tmpdir(), 'rampart-nights-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const TRON = 'POOLS-QUOTE-NETWORK-DEFAULT-TRON';
const TIER = 'POOLS-CAP-TIER';
const series: RunResults[] = [
  nightRun(nightAt(1)),
  nightRun({ ...nightAt(2), statuses: { [TRON]: 'failed' } }),
  nightRun(nightAt(3)),
  nightRun({ ...nightAt(4), statuses: { [TRON]: 'failed', [TIER]: 'failed' } }),
];
const written: { dir: string; night?: Night }[] = [];
beforeAll(async () => {
  for (const r of series) written.push(await writeRun(r, { reportsDir: tmp }));
});

describe('a night told apart from the nights before it', () => {
  it('the second run: its failure is new; the fourth: the rule that flips is intermittent, the other new', () => {
    const second = written[1]!.night!;
    expect(second.at).toBe(1);
    expect(second.group.failures[1]!.requirements.get(TRON)).toMatchObject({ class: 'new', lastPassedAt: 0 });
    const fourth = written[3]!.night!;
    expect(fourth.group.runs.map((r) => r.runId)).toEqual(series.map((r) => r.runId));
    expect(Object.fromEntries([...fourth.group.failures[3]!.requirements].map(([id, f]) => [id, f.class]))).toEqual({ [TRON]: 'intermittent', [TIER]: 'new' });
    expect(fourth.group.requirements.filter((r) => r.intermittent).map((r) => r.key)).toEqual([TRON]);
    // Told apart, never changed: the verdict is the night's own.
    expect(series[3]!.summary.verdict).toBe('NOT CERTIFIED');
  });

  it('junit.xml says it per failure and in the verdict', () => {
    const xml = readFileSync(join(written[3]!.dir, 'junit.xml'), 'utf8');
    expect(xml).toContain('<property name="intermittentFailures" value="POOLS-QUOTE-NETWORK-DEFAULT-TRON"/>');
    expect(xml).toContain('<property name="newFailures" value="POOLS-CAP-TIER"/>');
    expect(xml).toContain('<property name="history" value="intermittent (failed 2 of the last 4 runs that judged it)"/>');
    expect(xml).toMatch(
      /<failure message="POOLS-QUOTE-NETWORK-DEFAULT-TRON broken · expected x · actual y" type="AssertionError">history: intermittent \(failed 2 of the last 4 runs that judged it\)\n/,
    );
    expect(xml).toContain(`type="AssertionError">history: new failure (passed in run ${series[2]!.runId})\nrequirement: POOLS-CAP-TIER`);
    const first = readFileSync(join(written[0]!.dir, 'junit.xml'), 'utf8');
    expect(first).toContain('<property name="newFailures" value=""/>');
  });

  it('the step summary and the annotations say it', () => {
    const md = githubStepSummary(series[3]!, written[3]!.night);
    expect(md).toMatch(
      /\*\*History\*\* \(4 runs of this target and scope in the run store\): 1 new: POOLS-CAP-TIER; 1 intermittent: POOLS-QUOTE-NETWORK-DEFAULT-TRON; 0 still failing/,
    );
    expect(md).toContain('| requirement | check | history | expected | actual | request id |');
    expect(md).toMatch(
      /\| `POOLS-QUOTE-NETWORK-DEFAULT-TRON` \| check of POOLS-QUOTE-NETWORK-DEFAULT-TRON \| intermittent \(failed 2 of the last 4 runs that judged it\) \|/,
    );
    const notes = githubAnnotations(series[3]!, { night: written[3]!.night });
    expect(notes.find((l) => l.includes(TIER))).toMatch(/history: new failure \(passed in run /);
  });

  it("the report's banner says it, and its History section draws the strips, the intermittent list and the links", () => {
    const html = readFileSync(join(written[3]!.dir, 'report.html'), 'utf8');
    const banner = /<section id="verdict"[\s\S]*?<\/section>/.exec(html)![0];
    expect(banner).toContain('Failures against the last runs: 1 new: POOLS-CAP-TIER; 1 intermittent: POOLS-QUOTE-NETWORK-DEFAULT-TRON; 0 still failing');
    const history = html.slice(html.indexOf('<h2 id="history">'), html.indexOf('<h2 id="specmap">'));
    expect(history).toContain('4 runs of embedded (conformance, depth quick, service pools)');
    expect(history).toContain(`href="../${series[0]!.runId}/report.html"`);
    expect(history.match(/<span class="strip"/g)?.length).toBeGreaterThanOrEqual(5);
    expect(history).toContain('aria-label="POOLS-QUOTE-NETWORK-DEFAULT-TRON: passed, failed, passed, failed"');
    expect(history).toMatch(/<code>POOLS-QUOTE-NETWORK-DEFAULT-TRON<\/code> <span class="strip"[^]*?3 flips/);
  });

  it('every ctrf.json is valid by the CTRF reference package, with insights, baseline and flaky from the store', () => {
    for (const w of written) {
      const doc = JSON.parse(readFileSync(join(w.dir, 'ctrf.json'), 'utf8')) as Record<string, unknown>;
      const v = validate(doc);
      expect(v.errors, w.dir).toEqual([]);
      expect(v.valid).toBe(true);
    }
    const doc = JSON.parse(readFileSync(join(written[3]!.dir, 'ctrf.json'), 'utf8'));
    expect(doc.baseline).toMatchObject({ reportId: reportIdOf(series[2]!.runId), extra: { runId: series[2]!.runId } });
    expect(doc.insights).toMatchObject({ runsAnalyzed: 4, failRate: { current: 0.1875, baseline: 0.0833 } });
    const tron = doc.results.tests.find((t: { tags?: string[] }) => t.tags?.includes(TRON));
    expect(tron).toMatchObject({ status: 'failed', flaky: true, retries: 0, labels: { history: 'intermittent' } });
    expect(tron.insights).toMatchObject({ executedInRuns: 4, failRate: { current: 0.5, baseline: 0.3333 }, flakyRate: { current: 1 } });
    const steady = doc.results.tests.find((t: { tags?: string[] }) => t.tags?.includes('POOLS-OMITTED-INTERNALS'));
    expect(steady).toMatchObject({ status: 'passed', flaky: false, insights: { passRate: { current: 1 }, flakyRate: { current: 0 } } });
    expect(doc.results.summary).toMatchObject({ tests: 4, failed: 2, flaky: 1 });
    expect(doc.extra.history).toMatchObject({ newFailures: [TIER], intermittent: [TRON], runs: 4 });
    // The first run has nothing to compare with: no baseline, insights on one run.
    const first = JSON.parse(readFileSync(join(written[0]!.dir, 'ctrf.json'), 'utf8'));
    expect(first.baseline).toBeUndefined();
    expect(first.insights.runsAnalyzed).toBe(1);
  });

  it('a run interrupted twice (written at once, synchronously) still leaves a valid ctrf.json of what finished', () => {
    const dir = join(tmp, 'twice');
    mkdirSync(dir);
    const { summary: _s, ...partial } = nightRun(nightAt(8));
    writeRunEmergency(dir, partial, partial.checks.slice(0, 2));
    const doc = JSON.parse(readFileSync(join(dir, 'ctrf.json'), 'utf8'));
    expect(validate(doc).errors).toEqual([]);
    expect(doc.results.summary).toMatchObject({ tests: 2, extra: { verdict: 'INTERRUPTED' } });
  });

  it('a ctrf.json is written without a store too, valid all the same', async () => {
    const { dir } = await writeRun(nightRun(nightAt(9)), { reportsDir: join(tmp, 'none'), history: false });
    const doc = JSON.parse(readFileSync(join(dir, 'ctrf.json'), 'utf8'));
    expect(validate(doc).errors).toEqual([]);
    expect(doc.insights).toBeUndefined();
  });
});
