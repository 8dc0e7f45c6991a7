// What the specs leave open, as data: every "not shown" passage, every field whose spelling, precision or value
// the specs do not fix, every choice between two documented readings, every "when" left to the target, every
// order of validation the specs do not fix. One entry per open point, declared once with this builder in the
// file of its spec section (gate/, pools/), each naming its passage (a verbatim excerpt, matched like anchors),
// its documented choices (the first is the embedded reference's own), and the checks and explore relations that
// read it. The embedded reference can take every choice (src/reference/dialect.ts), so a world drawn from a seed
// — one choice per entry — proves every reading passes (`rampart serve --dialect SEED`).
import type { SpecName } from '../specText.js';

export type OpenPointKind =
  /** A passage the spec marks "not shown" (a shape, a status code, a field set, a value). */
  | 'not-shown'
  /** How a value is spelled: ids, a pair, key alphabets, request ids. */
  | 'spelling'
  /** Decimal or timestamp precision. */
  | 'precision'
  /** Fields beyond those a response shows. */
  | 'fields'
  /** A success status code the spec does not fix. */
  | 'success-status'
  /** Error codes beyond the documented ones. */
  | 'error-codes'
  /** List order between equal keys, or a list's order where none is stated. */
  | 'list-order'
  /** How many messages one invalid field adds to a joined validation message. */
  | 'message-join'
  /** A field a table gives a meaning but no type (or "or null"): null where it does not apply. */
  | 'nullable'
  /** A choice between two documented readings. */
  | 'reading'
  /** A moment left to the target: when a poll advances and to which outcome, when an expiry is noticed. */
  | 'when'
  /** An order of validation the specs do not fix (which error a request with two faults gets). */
  | 'validation-order'
  /** A value the target sets for itself (a lifetime, a balance, a network list, a cap). */
  | 'value';

export interface OpenPointDecl {
  kind: OpenPointKind;
  /** A verbatim excerpt of the passage that leaves it open (matched ignoring case, markdown marks and spacing). */
  passage: string;
  /** One line: what is open. */
  what: string;
  /** The documented choices, each a short name; the first is what the embedded reference does by default. */
  choices: readonly [string, string, ...string[]];
  /**
   * What reads the point: files (conformance/…, chaos/…, scenarios/…, support/…, src/explore/…) and explore
   * relations (`relation:NAME`, a *_RELATIONS export of src/model/schemas). A test holds each to exist.
   */
  readBy: readonly string[];
  /** Why a choice is documented, where the passage alone does not say (a second reading's own sentence). */
  note?: string;
}

export interface OpenPointAreaDecl<E extends Record<string, OpenPointDecl>> {
  spec: SpecName;
  /** The spec section the entries' passages stand in (for the spec map's grouping). */
  section: string;
  entries: E;
}

export interface OpenPointArea<E extends Record<string, OpenPointDecl> = Record<string, OpenPointDecl>> extends OpenPointAreaDecl<E> {
  readonly kind: 'open-point-area';
}

export function defineOpenPoints<const E extends Record<string, OpenPointDecl>>(area: OpenPointAreaDecl<E>): OpenPointArea<E> {
  return { ...area, kind: 'open-point-area' };
}

/** Area file key (e.g. 'gate/sessions') → its entries. Filled by each area file by declaration merging. */
// eslint-disable-next-line @typescript-eslint/no-empty-interface
export interface OpenPointAreas {}

export type OpenPointId = { [A in keyof OpenPointAreas]: keyof OpenPointAreas[A] & string }[keyof OpenPointAreas];

/** The choices of one open point, as a type: `chosen(dialect, 'pools.pair')` is 'EUR-USDT' | 'EUR/USDT' | …. */
export type ChoiceOf<K extends string> = {
  [A in keyof OpenPointAreas]: K extends keyof OpenPointAreas[A]
    ? OpenPointAreas[A][K] extends { choices: readonly (infer C)[] }
      ? C & string
      : never
    : never;
}[keyof OpenPointAreas];

/** An open point as code reads it. */
export interface OpenPoint extends OpenPointDecl {
  id: OpenPointId;
  spec: SpecName;
  section: string;
  /** The area file it is declared in, e.g. 'gate/sessions'. */
  area: string;
}

/** One choice per open point: a world of the embedded reference. Absent entries take the reference's own (the first). */
export type Dialect = Partial<Record<OpenPointId, string>>;
