// Test support: a RunResults with its summary computed by the one judge (src/report/verdict.ts).
import type { RunResults } from '../../src/report/results.js';
import { requirementResults, summarize } from '../../src/report/verdict.js';

/** The parts of a run every report test needs and none judges: a certify run of the embedded profile, unless told. */
export function runOf(parts: Partial<Omit<RunResults, 'summary'>>): Omit<RunResults, 'summary' | 'requirements'> & Partial<Pick<RunResults, 'requirements'>> {
  return {
    runId: 'test-run',
    tool: { name: 'rampart', version: '0.1.0' },
    command: 'certify',
    depth: 'quick',
    startedAt: '2026-05-25T10:00:00.000Z',
    finishedAt: '2026-05-25T10:20:00.000Z',
    profile: { name: 'embedded', baseUrls: {} },
    environment: { node: process.version, platform: 'linux-x64', host: 'ci', specVersion: '2026-05-25' },
    checks: [],
    observations: [],
    ...parts,
  };
}

export function withSummary(r: Omit<RunResults, 'summary'>): RunResults {
  return { ...r, summary: summarize(r) };
}

/** The same, judging the requirements the checks name from the checks (as a run does). */
export function judged(r: Omit<RunResults, 'summary' | 'requirements'>): RunResults {
  const requirements = requirementResults(r.checks, { kinds: ['conformance', 'chaos', 'load'], depth: r.depth, onlyNamed: true });
  return withSummary({ ...r, requirements });
}
