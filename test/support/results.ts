// Test support: a RunResults with its summary computed by the one judge (src/report/verdict.ts).
import type { RunResults } from '../../src/report/results.js';
import { summarize } from '../../src/report/verdict.js';

export function withSummary(r: Omit<RunResults, 'summary'>): RunResults {
  return { ...r, summary: summarize(r) };
}
