// The reviewed account of every passage of both specs that no requirement
// tests: open points the spec leaves "not shown" in other words, and passages
// that cannot be tested from outside (one line why). Together with the
// catalogue's anchors this accounts for every sentence, list item and table
// row; `rampart spec-map` shows the result and a test keeps "unaccounted" at 0.
// Quotes are verbatim excerpts, matched like anchors (case, markdown marks and
// spacing ignored).
import type { SpecName } from './specText.js';

export interface Reviewed {
  spec: SpecName;
  quote: string;
  reason: string;
}

/** Passages the spec leaves open without the words "not shown" (those are found by themselves). */
export const NOT_SHOWN: Reviewed[] = [];

/** Passages no request to the target can test. */
export const NOT_TESTABLE: Reviewed[] = [];
