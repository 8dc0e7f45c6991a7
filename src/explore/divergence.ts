// Where the target and the oracle part after the same sequence, judged only on what the specs determine: the
// outcome of each step (a success or the documented error: status and envelope type), and the fields of a
// resource by its relations (src/model/relations.ts). A divergence is thrown: fast-check takes it as the
// sequence failing, and shrinks the sequence to the shortest that still parts.
import type { Exchange } from '../client/types.js';
import type { RequirementId } from '../model/catalogue/index.js';
import { relate, sameValue, type ResourceRelations } from '../model/relations.js';
import { nameOf, type ExploreModel, type Side } from './model.js';
import type { Real } from './real.js';
import { Stopped } from './stop.js';

export interface DivergenceDetail {
  /** The step (1-based) whose answers part. */
  step: number;
  label: string;
  /** The rule the divergence breaks; absent: no requirement of the catalogue names it (a gap in the catalogue). */
  requirement?: RequirementId;
  /** What was compared ("the outcome", "field status"). */
  what: string;
  target: unknown;
  oracle: unknown;
}

export class Divergence extends Error {
  constructor(readonly detail: DivergenceDetail) {
    super(
      `step ${detail.step} (${detail.label}): ${detail.what} — target ${JSON.stringify(detail.target)}, oracle ${JSON.stringify(detail.oracle)}${detail.requirement ? ` [${detail.requirement}]` : ' [no requirement names it]'}`,
    );
    this.name = 'Divergence';
  }
}

const is2xx = (s: number) => s >= 200 && s < 300;

export function diverge(r: Real, d: Omit<DivergenceDetail, 'step' | 'label'>): never {
  const step = r.steps.at(-1)!;
  throw new Divergence({ step: step.n, label: step.label, ...d });
}

/**
 * A comparison of the step: its rule judged (the explore check names what its comparisons judged), and a divergence
 * thrown when it does not hold. The detail is built only then.
 */
export function holds(
  r: Real,
  ok: boolean,
  requirement: RequirementId | undefined,
  detail: () => Omit<DivergenceDetail, 'step' | 'label' | 'requirement'>,
): void {
  if (requirement) r.judged(requirement);
  if (!ok) diverge(r, { ...(requirement ? { requirement } : {}), ...detail() });
}

/** The error envelope's documented fields (type; the code where the spec names one). */
function envelopeOf(ex: Exchange): { type?: unknown; code?: unknown } {
  const j = ex.json as Record<string, unknown> | undefined;
  return { type: j?.type, code: j?.code };
}

export interface OutcomeRule {
  /** The rule the step's outcome follows, by the oracle's status ('2xx' for any success). */
  requirement: Partial<Record<number | '2xx', RequirementId>>;
  /** Codes the spec names for this step's errors: compared where the oracle gives one of them. */
  documentedCodes?: readonly string[];
  /** Statuses the specs let either side answer for the same step (two documented readings). */
  readings?: readonly (readonly (number | '2xx')[])[];
}

const cls = (s: number): number | '2xx' => (is2xx(s) ? '2xx' : s);

/**
 * The same outcome on both sides: both a success (the success status is not always shown: any 2xx), or the same
 * error status with the same envelope type (and code, where the spec names it). Returns the reading the target
 * chose when the specs allow two and the sides chose differently.
 */
export function sameOutcome(r: Real, ex: Record<Side, Exchange>, rule: OutcomeRule): string | undefined {
  const t = ex.target.status;
  const o = ex.oracle.status;
  // The client waited and retried as the spec advises: a 429 still is the target limiting the run, never a verdict.
  if (t === 429)
    throw new Stopped(
      'rate-limited',
      `rate limited by the target: it answered 429 at step ${r.steps.length} (${r.steps.at(-1)?.label}) after rampart's paced retries`,
    );
  const requirement = rule.requirement[cls(o)] ?? rule.requirement[cls(t)];
  if (requirement) r.judged(requirement);
  if (cls(t) !== cls(o)) {
    const reading = rule.readings?.find((g) => g.includes(cls(t)) && g.includes(cls(o)));
    if (reading) return `target ${t}, oracle ${o}: both documented`;
    diverge(r, { requirement, what: 'the outcome (status)', target: t, oracle: o });
  }
  if (is2xx(t)) return undefined;
  const et = envelopeOf(ex.target);
  const eo = envelopeOf(ex.oracle);
  if (et.type !== eo.type) diverge(r, { requirement, what: `the ${o} error's type`, target: et.type, oracle: eo.type });
  if (typeof eo.code === 'string' && rule.documentedCodes?.includes(eo.code) && et.code !== eo.code)
    diverge(r, { requirement, what: `the ${o} error's documented code`, target: et.code, oracle: eo.code });
  return undefined;
}

/** The two bodies related field by field (refs resolved through the model); the first divergence is thrown. */
export function sameFields(
  r: Real,
  m: ExploreModel,
  rules: ResourceRelations,
  body: Record<Side, unknown>,
  opts: { scope?: string; requirementOf?: Partial<Record<string, RequirementId>>; what?: string } = {},
): void {
  const t = body.target as Record<string, unknown> | undefined;
  const o = body.oracle as Record<string, unknown> | undefined;
  if (!t || typeof t !== 'object' || !o || typeof o !== 'object') {
    if (!o || typeof o !== 'object') return; // the oracle shows no body: nothing is determined
    diverge(r, { requirement: rules.requirement, what: `${opts.what ?? 'the answer'}: a JSON object`, target: t ?? null, oracle: 'an object' });
  }
  const found = relate(
    rules,
    t,
    o,
    {
      refOf: (side, id) => nameOf(m, side, id),
      stableOf: (side, key) => r.stableOf(side, key),
      remember: (side, key, v) => r.remember(side, key, v),
      judged: (id) => r.judged(id),
      requirementOf: opts.requirementOf,
    },
    opts.scope,
  );
  const first = found[0];
  if (first)
    diverge(r, {
      requirement: first.requirement,
      what: `${opts.what ? `${opts.what}: ` : ''}field ${first.field} (${first.relation})`,
      target: first.relation === 'ref' ? `${String(first.target)} (${nameOf(m, 'target', first.target) ?? 'no object of the sequence'})` : first.target,
      oracle: first.relation === 'ref' ? `${String(first.oracle)} (${nameOf(m, 'oracle', first.oracle) ?? 'no object of the sequence'})` : first.oracle,
    });
}

/**
 * A relation within one side across two of its answers (an idempotent replay gives its original answer again): each
 * field as before — a decimal as the same number, a timestamp as the same instant (`as`), never as text.
 */
export function sameAsBefore(
  r: Real,
  requirement: RequirementId,
  what: string,
  side: Side,
  before: unknown,
  now: unknown,
  fields: readonly string[],
  as: Partial<Record<string, 'decimal' | 'instant'>> = {},
): void {
  const b = (before ?? {}) as Record<string, unknown>;
  const n = (now ?? {}) as Record<string, unknown>;
  r.judged(requirement);
  for (const f of fields)
    if (!sameValue(as[f] ?? 'same', b[f], n[f]))
      diverge(r, {
        requirement,
        what: `${what}: field ${f} on the ${side} changed`,
        target: side === 'target' ? n[f] : '(as before)',
        oracle: side === 'oracle' ? n[f] : '(as before)',
      });
}
