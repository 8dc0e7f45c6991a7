// The gate spec's passages that no requirement tests, each with its reviewed reason.
// (Anchors of tested passages live with their requirements in src/model/catalogue/gate/.)

/** Open points the spec leaves open without saying "not shown". */
export const NOT_SHOWN: { quote: string; reason: string }[] = [];

/** Passages no request to the target can test, and why. */
export const NOT_TESTABLE: { quote: string; reason: string }[] = [];
