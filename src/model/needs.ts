// The vocabulary of needs: what testing a rule requires from a target profile
// (a second tenant, a revoked key, a trigger that completes a session, a
// webhook receiver…). The names live here, with the spec model, so catalogue
// entries can name them; each need is implemented once, in its own file under
// src/needs/, which adds its name and the type of what it provides to this
// registry by declaration merging. The model imports nothing above it.

/** Need name → the value a check receives for it. Filled by src/needs/**\/*.ts. */
// eslint-disable-next-line @typescript-eslint/no-empty-interface
export interface NeedRegistry {}

export type NeedName = keyof NeedRegistry & string;
