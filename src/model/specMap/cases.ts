// The shape of a passage's cases (one file, so each spec's list and the index read it without a circle).
import type { RequirementId } from '../catalogue/define.js';

/** How one case a passage names is asserted: the requirements whose checks assert it, or why none does. */
export type CaseAccount = readonly RequirementId[] | { unasserted: string };

/** The cases one anchored passage names, each with its account. */
export interface PassageCases {
  quote: string;
  cases: Record<string, CaseAccount>;
}
