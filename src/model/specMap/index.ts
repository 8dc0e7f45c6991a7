// The reviewed account of every passage of both specs that no requirement
// tests: open points the spec leaves "not shown" in other words, and passages
// that cannot be tested from outside (one line why). Together with the
// catalogue's anchors this accounts for every sentence, list item and table
// row; `rampart spec-map` shows the result and a test keeps "unaccounted" at 0.
// A passage that names several cases (routes, fields, states, values) lists
// them under CASES with the requirements asserting each, or why none does: the
// map calls it partial while one case is unasserted. A case or a passage no
// request can ever reach is untestable, with its reason: `rampart spec-map
// --json` lists them.
// One file per spec; quotes are verbatim excerpts, matched like anchors (case,
// markdown marks and spacing ignored).
import type { SpecName } from '../specText.js';
import type { PassageCases } from './cases.js';
import * as gate from './gate.js';
import * as pools from './pools.js';

export interface Reviewed {
  spec: SpecName;
  quote: string;
  reason: string;
  /** A rule of the service no request can reach (not an editorial passage nor the partner's obligation): listed as untestable. */
  unreachable?: true;
}

export interface SpecCases extends PassageCases {
  spec: SpecName;
}

export type { CaseAccount, PassageCases } from './cases.js';

const tag = (spec: SpecName, list: { quote: string; reason: string; unreachable?: true }[]): Reviewed[] => list.map((x) => ({ spec, ...x }));

/** Passages the spec leaves open without the words "not shown" (those are found by themselves). */
export const NOT_SHOWN: Reviewed[] = [...tag('gate', gate.NOT_SHOWN), ...tag('pools', pools.NOT_SHOWN)];

/** Passages no request to the target can test. */
export const NOT_TESTABLE: Reviewed[] = [...tag('gate', gate.NOT_TESTABLE), ...tag('pools', pools.NOT_TESTABLE)];

/** Anchored passages that name several cases, each case with the requirements asserting it. */
export const CASES: SpecCases[] = [...gate.CASES.map((x) => ({ spec: 'gate' as const, ...x })), ...pools.CASES.map((x) => ({ spec: 'pools' as const, ...x }))];
