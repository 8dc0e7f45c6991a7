// How an answer of the target is compared with the oracle's in one serial order: explore's rules (the outcome —
// a success, or the documented error's status and type — and the fields of a success by the spec model's relations,
// src/model/relations.ts), with refs named as the order meets them, so an id is compared by the object it names
// and a target's own reading of an open point passes. (A local adapter of src/explore/divergence.ts sameOutcome and
// sameFields, which throw inside an explored sequence; this returns where the answers part.)
import type { Exchange } from '../client/types.js';
import type { OutcomeRule } from '../explore/divergence.js';
import { relate, type RelationContext } from '../model/relations.js';
import type { Parting } from './judge.js';
import type { AnswerRule } from './family.js';

type SideName = 'target' | 'oracle';
const is2xx = (s: number) => s >= 200 && s < 300;
const cls = (s: number): number | '2xx' => (is2xx(s) ? '2xx' : s);

/**
 * The ids each side's answers named, as one serial order meets them: the setup's objects by their names, and every
 * new id paired with the other side's new id in the same field of the same answer (both a new object, made by this
 * request) — so "the second create answered another session than the first" parts on the id.
 */
export class Names {
  private readonly byId: Record<SideName, Map<string, string>> = { target: new Map(), oracle: new Map() };
  private readonly stables: Record<SideName, Map<string, unknown>> = { target: new Map(), oracle: new Map() };
  private made = 0;
  constructor(refs: Record<SideName, Record<string, string>>) {
    for (const side of ['target', 'oracle'] as const) for (const [name, id] of Object.entries(refs[side])) this.byId[side].set(id, name);
  }
  nameOf(side: SideName, id: unknown): string | undefined {
    return typeof id === 'string' ? this.byId[side].get(id) : undefined;
  }
  /** Both sides name an object neither has named yet: it is one new object, under a fresh name. */
  pair(t: unknown, o: unknown): void {
    if (typeof t !== 'string' || typeof o !== 'string' || this.nameOf('target', t) || this.nameOf('oracle', o)) return;
    const name = `made#${++this.made}`;
    this.byId.target.set(t, name);
    this.byId.oracle.set(o, name);
  }
  context(): RelationContext {
    return {
      refOf: (side, id) => this.nameOf(side, id),
      stableOf: (side, key) => this.stables[side].get(key),
      remember: (side, key, v) => void this.stables[side].set(key, v),
    };
  }
}

function envelope(ex: Exchange): { type?: unknown; code?: unknown } {
  const j = ex.json as Record<string, unknown> | undefined;
  return { type: j?.type, code: j?.code };
}

/** Where two outcomes part (undefined: the same, or two readings the specs both document). */
export function outcomeParting(t: Exchange, o: Exchange, rule: OutcomeRule): Omit<Parting, 'request'> | undefined {
  const requirement = rule.requirement[cls(o.status)] ?? rule.requirement[cls(t.status)];
  const req = requirement ? { requirement } : {};
  if (cls(t.status) !== cls(o.status)) {
    const reading = rule.readings?.some((g) => g.includes(cls(t.status)) && g.includes(cls(o.status)));
    return reading ? undefined : { what: 'the outcome (status)', target: t.status, oracle: o.status, ...req };
  }
  if (is2xx(t.status)) return undefined;
  const et = envelope(t);
  const eo = envelope(o);
  if (et.type !== eo.type) return { what: `the ${o.status} error's type`, target: et.type, oracle: eo.type, ...req };
  if (typeof eo.code === 'string' && rule.documentedCodes?.includes(eo.code) && et.code !== eo.code)
    return { what: `the ${o.status} error's documented code`, target: et.code, oracle: eo.code, ...req };
  return undefined;
}

/** Where two answers part: the outcome, then (both a success, of the same status class) the fields by the relations. */
export function answerParting(t: Exchange, o: Exchange, rule: AnswerRule, names: Names): Omit<Parting, 'request'> | undefined {
  if (rule.uncompared) return undefined;
  const outcome = outcomeParting(t, o, rule.outcome);
  if (outcome || !rule.relations || !is2xx(t.status) || !is2xx(o.status)) return outcome;
  const tb = t.json as Record<string, unknown> | undefined;
  const ob = o.json as Record<string, unknown> | undefined;
  if (!ob || typeof ob !== 'object') return undefined; // the oracle shows no body: nothing is determined
  if (!tb || typeof tb !== 'object' || Array.isArray(tb))
    return { what: 'the answer: a JSON object', target: t.bodyText.slice(0, 200), oracle: 'an object', requirement: rule.relations.requirement };
  for (const [field, r] of Object.entries(rule.relations.fields)) if (r.relation === 'ref') names.pair(tb[field], ob[field]);
  const first = relate(rule.relations, tb, ob, { ...names.context(), requirementOf: rule.requirementOf })[0];
  if (!first) return undefined;
  const shown = (side: SideName, v: unknown) => (first.relation === 'ref' ? `${String(v)} (${names.nameOf(side, v) ?? 'no object of the race'})` : v);
  return {
    what: `field ${first.field} (${first.relation})`,
    target: shown('target', first.target),
    oracle: shown('oracle', first.oracle),
    requirement: first.requirement,
  };
}
