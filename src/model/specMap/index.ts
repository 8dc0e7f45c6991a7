// The reviewed account of every passage of both specs that no requirement
// tests: open points the spec leaves "not shown" in other words, and passages
// that cannot be tested from outside (one line why). Together with the
// catalogue's anchors this accounts for every sentence, list item and table
// row; `rampart spec-map` shows the result and a test keeps "unaccounted" at 0.
// One file per spec; quotes are verbatim excerpts, matched like anchors (case,
// markdown marks and spacing ignored).
import type { SpecName } from '../specText.js';
import * as gate from './gate.js';
import * as pools from './pools.js';

export interface Reviewed {
  spec: SpecName;
  quote: string;
  reason: string;
}

const tag = (spec: SpecName, list: { quote: string; reason: string }[]): Reviewed[] => list.map((x) => ({ spec, ...x }));

/** Passages the spec leaves open without the words "not shown" (those are found by themselves). */
export const NOT_SHOWN: Reviewed[] = [...tag('gate', gate.NOT_SHOWN), ...tag('pools', pools.NOT_SHOWN)];

/** Passages no request to the target can test. */
export const NOT_TESTABLE: Reviewed[] = [...tag('gate', gate.NOT_TESTABLE), ...tag('pools', pools.NOT_TESTABLE)];
