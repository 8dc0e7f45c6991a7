// The shape of a passage's cases (one file, so each spec's list and the index read it without a circle).
import type { RequirementId } from '../catalogue/define.js';

/**
 * How one case a passage names is asserted: the requirements whose checks assert it; or why none does yet
 * (`unasserted`: the passage is partial); or why no request to the target can reach it at all (`untestable`:
 * a rule of the service no documented request can provoke or read, listed by `rampart spec-map --json`).
 */
export type CaseAccount = readonly RequirementId[] | { unasserted: string } | { untestable: string };

/** The cases one anchored passage names, each with its account. */
export interface PassageCases {
  quote: string;
  cases: Record<string, CaseAccount>;
}
