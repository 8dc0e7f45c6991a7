// One entry per atomic documented rule, declared once with this builder. An
// area file (one per spec section, under gate/ or pools/) exports
// `defineArea(...)` as its default and adds its entries to CatalogueAreas, so
// RequirementId is the union of every declared id: a check, a fault or a k6
// case naming an unknown id fails to compile. The catalogue itself is gathered
// by discovery (index.ts): there is no hand-kept list of areas.
import type { NeedName } from '../needs.js';

export type Service = 'gate' | 'pools';

export type RequirementKind =
  'status' | 'error' | 'field' | 'enum' | 'pagination' | 'limit' | 'auth' | 'idempotency' | 'transition' | 'event' | 'signature' | 'envelope';

/** Which kind of suite is expected to cover the rule. */
export type SuiteKindName = 'conformance' | 'load' | 'chaos';

/** Area file key (e.g. 'gate/sessions') → its entries. Filled by each area file by declaration merging. */
// eslint-disable-next-line @typescript-eslint/no-empty-interface
export interface CatalogueAreas {}

export type RequirementId = { [A in keyof CatalogueAreas]: keyof CatalogueAreas[A] & string }[keyof CatalogueAreas];

export interface EntryDecl {
  /** One-line statement of the rule, close to the spec's words. */
  title: string;
  kind: RequirementKind;
  /** Spec section path, e.g. "Endpoints > Sessions" (defaults to the area's). */
  section?: string;
  /**
   * Where in the spec text the rule comes from: a verbatim excerpt (or several) of a sentence,
   * table row or list item, matched ignoring case, markdown marks and spacing. The spec map
   * (rampart spec-map) marks those passages tested by this rule.
   */
  anchor?: string | readonly string[];
  /** What testing the rule needs; every check naming it inherits these. */
  needs?: readonly NeedName[];
  /** 'full' when testing it needs real time beyond a quick run (the 300/h window, the real retry schedule). */
  depth?: 'quick' | 'full';
  /** Defaults to the area's suite. */
  suite?: SuiteKindName;
}

export interface AreaDecl<E extends Record<string, EntryDecl>> {
  service: Service;
  /** Default spec section of the entries. */
  section: string;
  /** Default suite of the entries (conformance when absent). */
  suite?: SuiteKindName;
  /** Needs every entry of the area inherits. */
  needs?: readonly NeedName[];
  entries: E;
}

export interface Area<E extends Record<string, EntryDecl> = Record<string, EntryDecl>> extends AreaDecl<E> {
  readonly kind: 'catalogue-area';
}

export function defineArea<const E extends Record<string, EntryDecl>>(area: AreaDecl<E>): Area<E> {
  return { ...area, kind: 'catalogue-area' };
}

/** A catalogue entry as code reads it: every default of its area applied. */
export interface Requirement {
  id: RequirementId;
  service: Service;
  section: string;
  title: string;
  kind: RequirementKind;
  anchors: string[];
  needs: NeedName[];
  suite: SuiteKindName;
  depth: 'quick' | 'full';
  /** The area file it is declared in, e.g. 'gate/sessions'. */
  area: string;
}

type EntryOf<R extends string> = { [A in keyof CatalogueAreas]: R extends keyof CatalogueAreas[A] ? CatalogueAreas[A][R] : never }[keyof CatalogueAreas];

/** The needs catalogue entries declare, as a type: what a check naming them inherits. */
export type EntryNeeds<R extends string> = EntryOf<R> extends infer E ? (E extends { needs: readonly (infer N)[] } ? N & NeedName : never) : never;
