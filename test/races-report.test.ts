// A race finding in every output: results.json's races record, junit.xml (the check failed on its rule, the burst's
// requests with their times and the replay command), report.html (a Races section: the families, the finding with a
// timeline of the burst, every answer beside the closest serial order's, the reads after, the replay script), and the
// verdict: NOT CERTIFIED naming the rule.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toHtml } from '../src/report/html.js';
import { toJunit } from '../src/report/junit.js';
import type { RunResults } from '../src/report/results.js';
import { requirementResults, summarize } from '../src/report/verdict.js';
import { startEmbedded } from './support/embedded.js';
import { racesAgainst } from './support/races.js';
import { runOf } from './support/results.js';

const FAULT = 'race-pools-reject-gap';
let results: RunResults;
const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of closers) await c();
});

beforeAll(async () => {
  const w = await startEmbedded({ faults: [FAULT] });
  closers.push(() => w.close());
  const { outcome, races } = await racesAgainst(w.profile, { seed: 4, families: ['transact-beside-reject', 'sessions-same-key'], faults: [FAULT] });
  const base = runOf({ command: 'races', checks: outcome.checks, observations: outcome.observations, races });
  const requirements = requirementResults(base.checks, { kinds: ['races'], depth: 'quick' });
  const scoped = { ...base, requirements, scope: { kinds: ['races' as const], depth: 'quick' as const, whole: false, partial: 'races only' } };
  results = { ...scoped, summary: summarize(scoped) };
}, 60_000);

describe('a race finding in the outputs', () => {
  it('the verdict: NOT CERTIFIED, the rule the burst breaks failed, the clean family passed', () => {
    expect(results.summary.verdict).toBe('NOT CERTIFIED');
    // The family's check failed: each rule it judges reads failed, its failure naming the one the parting step breaks.
    const failed = results.requirements.filter((r) => r.status === 'failed').map((r) => r.id);
    expect(failed.sort()).toEqual(['POOLS-SQ-REJECT-TERMINAL-409', 'POOLS-SQ-TRANSACT-REJECTED-409']);
    const check = results.checks.find((c) => c.status === 'failed')!;
    expect(['POOLS-SQ-REJECT-TERMINAL-409', 'POOLS-SQ-TRANSACT-REJECTED-409']).toContain(check.failure?.requirement);
    expect(results.races?.findings[0]?.requirement).toBe(check.failure?.requirement);
    expect(results.requirements.find((r) => r.id === 'GATE-SESS-IDEMPOTENT-REPLAY')?.status).toBe('passed');
    expect(results.races?.families['sessions-same-key']).toMatchObject({ status: 'passed', rounds: 2, explained: 2 });
  });

  it('junit: the failed testcase carries the burst, request by request, and the replay command', () => {
    const xml = toJunit(results);
    expect(xml).toContain('name="races.family" value="transact-beside-reject"');
    expect(xml).toMatch(/race transact-beside-reject, burst \d \(seed 4\)/);
    expect(xml).toMatch(/1\. POST \/pools\/\{id\}\/transact: sent [12]\. at \+[\d.]+ ms, answered \+[\d.]+ ms → 20\d \(applied\)/);
    expect(xml).toContain('replay: npx rampart races --fault');
  });

  it("report.html: a Races section with the burst's timeline, both sides' answers, the reads after and the replay script", () => {
    const html = toHtml(results);
    expect(html).toContain('<h2 id="races">Races');
    expect(html).toContain('<a href="#races">races (1)</a>');
    expect(html).toMatch(/<svg class="timeline"[^>]*>(?:(?!<\/svg>).)*<rect /s);
    expect(html).toContain('oracle, closest order');
    expect(html).toContain('Read after the burst');
    expect(html).toContain('replay script (fires the burst N times in parallel');
    expect(html).toContain('transact-beside-reject');
  });
});

describe('the verdict line of a race finding', () => {
  it('names the rule the burst breaks', () => {
    expect(results.summary.verdictLine).toMatch(
      /races: a burst breaks POOLS-SQ-(REJECT-TERMINAL|TRANSACT-REJECTED)-409 \(races, pools: a transact beside a reject/,
    );
  });
});
