// Test support: a RunResults with its summary computed by the one judge (src/report/verdict.ts).
import type { RunResults } from '../../src/report/results.js';
import { requirementResults, summarize } from '../../src/report/verdict.js';

export function withSummary(r: Omit<RunResults, 'summary'>): RunResults {
  return { ...r, summary: summarize(r) };
}

/** The same, judging the requirements the checks name from the checks (as a run does). */
export function judged(r: Omit<RunResults, 'summary' | 'requirements'>): RunResults {
  const requirements = requirementResults(r.checks, { kinds: ['conformance', 'chaos', 'load'], depth: r.depth, onlyNamed: true });
  return withSummary({ ...r, requirements });
}
