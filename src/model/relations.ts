// What the specs determine about two answers to the same request — the target's and the embedded reference's
// after the same sequence — field by field, and what they leave open. The rules are data, kept next to the
// schema each belongs to (schemas/*), each naming its requirement; `rampart explore` reads them and compares.
// Values the specs leave open (ids, timestamps, free text, not-shown bodies, a choice between two readings) are
// compared by shape and relation only: an id by what it refers to, a value by staying put across one side's answers.
import type { RequirementId } from './catalogue/index.js';

/**
 * How one field of two answers relates:
 * - same: equal on both sides (deep), the value the sequence determines;
 * - decimal: the same number, however each side writes the decimal string;
 * - instant: the same instant, however each side writes the timestamp (its precision, its zone designator);
 * - ref: an id; both sides name the same object of the sequence (or both a new one);
 * - stable: whatever each side says, it says it in every answer of the sequence (a partner id);
 * - open: not compared (a timestamp, free text, a value the specs leave to the target).
 */
export type Relation = 'same' | 'decimal' | 'instant' | 'ref' | 'stable' | 'open';

export interface FieldRelation {
  relation: Relation;
  /** The rule a divergence on this field breaks; absent: the resource's. */
  requirement?: RequirementId;
}

export interface ResourceRelations {
  /** The rule a divergence breaks when its field names none. */
  requirement: RequirementId;
  /** Fields not listed are open (additive fields are allowed: never compared). */
  fields: Record<string, FieldRelation>;
}

export const same = (requirement?: RequirementId): FieldRelation => ({ relation: 'same', ...(requirement ? { requirement } : {}) });
export const decimal = (requirement?: RequirementId): FieldRelation => ({ relation: 'decimal', ...(requirement ? { requirement } : {}) });
export const instant = (requirement?: RequirementId): FieldRelation => ({ relation: 'instant', ...(requirement ? { requirement } : {}) });
export const ref = (requirement?: RequirementId): FieldRelation => ({ relation: 'ref', ...(requirement ? { requirement } : {}) });
export const stable = (requirement?: RequirementId): FieldRelation => ({ relation: 'stable', ...(requirement ? { requirement } : {}) });
export const open = (): FieldRelation => ({ relation: 'open' });

/** Where the two answers part: the field, what each side said, and the rule it breaks. */
export interface FieldDivergence {
  field: string;
  relation: Relation;
  requirement: RequirementId;
  target: unknown;
  oracle: unknown;
}

export interface RelationContext {
  /** The object an id names on each side (the sequence's own objects), or undefined for one it never saw. */
  refOf(side: 'target' | 'oracle', id: unknown): string | undefined;
  /** The value a stable field had in this side's earlier answers, or undefined the first time. */
  stableOf(side: 'target' | 'oracle', key: string): unknown;
  remember(side: 'target' | 'oracle', key: string, value: unknown): void;
  /** Per field, the rule its divergence breaks in this step (a status after a cancel breaks the cancel's rule). */
  requirementOf?: Partial<Record<string, RequirementId>>;
  /** Told the rule of every field compared (an open one is not): what the comparison judged. */
  judged?(requirement: RequirementId): void;
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a as object).sort();
  const kb = Object.keys(b as object).sort();
  return ka.length === kb.length && ka.every((k, i) => k === kb[i] && deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/** Two decimal strings as one number ("100.0" and "100.00" and "0100"), compared as text, never as floats. */
export function sameDecimal(a: unknown, b: unknown): boolean {
  const norm = (v: unknown) => {
    if (typeof v !== 'string' || !/^-?\d+(\.\d+)?$/.test(v)) return undefined;
    const [i = '', f = ''] = v.replace(/^-/, '').split('.');
    const int = i.replace(/^0+/, '') || '0';
    const frac = f.replace(/0+$/, '');
    return `${v.startsWith('-') && (int !== '0' || frac) ? '-' : ''}${int}.${frac}`;
  };
  const x = norm(a);
  return x !== undefined && x === norm(b);
}

/**
 * Two timestamps as one instant ("…:15Z", "…:15.000Z" and "…:15+00:00"): equal to the coarser one's precision, so a
 * stamp written in whole seconds names the same instant as the same stamp written to the millisecond.
 */
export function sameInstant(a: unknown, b: unknown): boolean {
  if (typeof a !== 'string' || typeof b !== 'string') return false;
  const x = Date.parse(a);
  const y = Date.parse(b);
  if (Number.isNaN(x) || Number.isNaN(y)) return false;
  const fraction = (v: string) => /T\d{2}:\d{2}:\d{2}\.\d+/.test(v);
  return fraction(a) && fraction(b) ? x === y : Math.floor(x / 1000) === Math.floor(y / 1000);
}

/** One value of two answers as a relation compares it: the same JSON, the same number, or the same instant. */
export function sameValue(how: 'same' | 'decimal' | 'instant', a: unknown, b: unknown): boolean {
  if (how === 'decimal') return a === b || sameDecimal(a, b);
  if (how === 'instant') return a === b || sameInstant(a, b);
  return deepEqual(a, b);
}

/** -1, 0 or 1 as decimal string a is below, at or above b (scaled to the longer fraction: never floats). */
export function compareDecimals(a: string, b: string): number {
  const scale = Math.max(a.split('.')[1]?.length ?? 0, b.split('.')[1]?.length ?? 0);
  const big = (v: string) => {
    const neg = v.startsWith('-');
    const [i = '0', f = ''] = v.replace(/^-/, '').split('.');
    const n = BigInt(i + f.padEnd(scale, '0'));
    return neg ? -n : n;
  };
  const x = big(a);
  const y = big(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Compare two answers' bodies field by field; every divergence with the rule it breaks. */
export function relate(
  rules: ResourceRelations,
  target: Record<string, unknown>,
  oracle: Record<string, unknown>,
  ctx: RelationContext,
  scope = '',
): FieldDivergence[] {
  const out: FieldDivergence[] = [];
  for (const [field, rule] of Object.entries(rules.fields)) {
    const t = target[field];
    const o = oracle[field];
    const requirement = ctx.requirementOf?.[field] ?? rule.requirement ?? rules.requirement;
    const diverge = () => out.push({ field, relation: rule.relation, requirement, target: t, oracle: o });
    if (rule.relation !== 'open') ctx.judged?.(requirement);
    switch (rule.relation) {
      case 'same':
        if (!deepEqual(t, o)) diverge();
        break;
      case 'decimal':
      case 'instant':
        if (!sameValue(rule.relation, t, o)) diverge();
        break;
      case 'ref': {
        const rt = ctx.refOf('target', t);
        const ro = ctx.refOf('oracle', o);
        // Both name the same object of the sequence; or neither names one (a new object on each side), or both are null.
        if (rt !== ro || (rt === undefined && (t === null) !== (o === null))) diverge();
        break;
      }
      case 'stable': {
        for (const [side, v] of [
          ['target', t],
          ['oracle', o],
        ] as const) {
          const key = `${scope}${field}`;
          const before = ctx.stableOf(side, key);
          if (before === undefined) ctx.remember(side, key, v);
          else if (!deepEqual(before, v))
            out.push({ field, relation: 'stable', requirement, target: side === 'target' ? [before, v] : t, oracle: side === 'oracle' ? [before, v] : o });
        }
        break;
      }
      case 'open':
        break;
    }
  }
  return out;
}
