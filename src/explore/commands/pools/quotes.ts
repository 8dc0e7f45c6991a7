// Pools quotes explored: firm and indicative quotes, the stored quote read, and reject. A quote is used only while
// it is clearly alive or clearly expired on both sides (a slow target's sequence can outlive one): near its
// "about 15 seconds" the two sides may rightly disagree. Waiting quotes out is the fixed TTL checks' job.
import fc from 'fast-check';
import type { RequirementId } from '../../../model/catalogue/index.js';
import { STORED_QUOTE_RELATIONS } from '../../../model/schemas/pools/resources.js';
import { holds, sameAsBefore, sameFields, sameOutcome } from '../../divergence.js';
import { live, type ExploreModel, type QuoteTwin, type Side } from '../../model.js';
import type { Real } from '../../real.js';
import { ExploreCommand, FEW, bodyOf, objectIndex } from '../command.js';
import { readBalance } from './balance.js';

export const quotePath = (id: string, rest = '') => `/pools/quotes/${encodeURIComponent(id)}${rest}`;
const poolPath = (pool: string, rest: string) => `/pools/${encodeURIComponent(pool)}${rest}`;
/** Room on each side of the lifetime for the two clocks, the network and the steps' own time. */
const MARGIN_MS = 3_000;

/** Where a quote stands in time: clearly alive, clearly past its lifetime, or too near it to judge. */
export function lifeOf(m: Readonly<ExploreModel>, q: QuoteTwin, now = Date.now()): 'alive' | 'past' | 'near' {
  const age = now - q.madeAt;
  if (age < m.can.quoteTtlMs - m.can.quoteTtlToleranceMs - MARGIN_MS) return 'alive';
  if (age > m.can.quoteTtlMs + m.can.quoteTtlToleranceMs + MARGIN_MS) return 'past';
  return 'near';
}

/** The state the specs give a quote now (precedence rejected > consumed > expired > active), and the rule that set it. */
export function quoteState(m: Readonly<ExploreModel>, q: QuoteTwin): { state: QuoteTwin['state']; rule: RequirementId } {
  if (q.state === 'active' && lifeOf(m, q) === 'past') return { state: 'expired', rule: 'POOLS-TTL-STATUS-EXPIRED' };
  return { state: q.state, rule: q.movedBy };
}

/** Quotes a step may use now: not parted, and not near their expiry. */
export function usableQuotes(m: Readonly<ExploreModel>): QuoteTwin[] {
  return live(m.quotes).filter((q) => lifeOf(m, q) !== 'near' || q.state !== 'active');
}

/**
 * The quote body a side is sent: the profile's. Its destNetwork is one of the target's own networks (pools.capabilities
 * .networks: a pool's EVM allowlist is the target's to set); the oracle is sent one of its own where it lacks that one
 * — nothing compared shows the destination's network, so both sides quote the same order.
 */
export async function quoteBody(r: Real, side: Side, type: 'firm' | 'indicative'): Promise<Record<string, unknown>> {
  const p = r.context.pools!;
  const body: Record<string, unknown> = { ...p.quote, type };
  if (side === 'target' || typeof body.destNetwork !== 'string') return body;
  if (!p.oracleNetworks) {
    const caps = await r.pools('oracle').get(poolPath(p.pool, '/capabilities'));
    const listed = bodyOf(caps).supportedNetworks;
    p.oracleNetworks = Array.isArray(listed) ? listed.filter((n): n is string => typeof n === 'string') : [];
  }
  if (!p.oracleNetworks.includes(body.destNetwork)) {
    if (p.oracleNetworks[0]) body.destNetwork = p.oracleNetworks[0];
    else delete body.destNetwork;
  }
  return body;
}

/** A firm quote on both sides: the sequence's new quote, or undefined when the oracle gave none or the pool is not available on the target. */
export async function requestFirmQuote(m: ExploreModel, r: Real): Promise<QuoteTwin | undefined> {
  const p = r.context.pools!;
  const ex = await r.both(async (side) => r.pools(side).post(poolPath(p.pool, '/quote'), await quoteBody(r, side, 'firm')));
  sameOutcome(r, ex, { requirement: { '2xx': 'POOLS-QUOTE-FIRM-SHAPE', 400: 'POOLS-QUOTE-BODY-REQUIRED-400' } });
  if (ex.oracle.status >= 300) return undefined;
  const b = { target: bodyOf(ex.target), oracle: bodyOf(ex.oracle) };
  // A pool's availability is its current state on the target, which the profile cannot tell the oracle.
  if (b.target.available !== true) return undefined;
  holds(r, !(b.target.executable !== true || typeof b.target.quoteId !== 'string'), 'POOLS-QUOTE-FIRM-SHAPE', () => ({
    what: 'a firm quote of an available pool',
    target: { executable: b.target.executable, quoteId: b.target.quoteId },
    oracle: { executable: true, quoteId: 'an id' },
  }));
  const q: QuoteTwin = {
    name: `quote#${m.quotes.length + 1}`,
    id: { target: String(b.target.quoteId), oracle: String(b.oracle.quoteId) },
    state: 'active',
    movedBy: 'POOLS-QUOTE-FIRM-SHAPE',
    madeAt: Date.now(),
    created: b,
  };
  m.quotes.push(q);
  return q;
}

export class FirmQuote extends ExploreCommand {
  constructor(readonly then: 'none' | 'get' = 'none') {
    super();
  }
  label(): string {
    return `request a firm quote${this.then === 'get' ? ', then read it' : ''}`;
  }
  applies(m: Readonly<ExploreModel>): boolean {
    return m.can.pools && live(m.quotes).length < FEW;
  }
  async act(m: ExploreModel, r: Real): Promise<void> {
    const q = await requestFirmQuote(m, r);
    if (q && this.then === 'get') await readQuote(m, r, q);
  }
}

/** An indicative quote: price only, no quoteId, not persisted. */
export class IndicativeQuote extends ExploreCommand {
  label(): string {
    return 'request an indicative quote';
  }
  applies(m: Readonly<ExploreModel>): boolean {
    return m.can.pools;
  }
  async act(m: ExploreModel, r: Real): Promise<void> {
    const p = r.context.pools!;
    const ex = await r.both(async (side) => r.pools(side).post(poolPath(p.pool, '/quote'), await quoteBody(r, side, 'indicative')));
    sameOutcome(r, ex, { requirement: { '2xx': 'POOLS-QUOTE-INDICATIVE' } });
    const t = bodyOf(ex.target);
    if (ex.oracle.status >= 300 || t.available !== true) return;
    holds(r, !(t.executable !== false || (t.quoteId !== undefined && t.quoteId !== null)), 'POOLS-QUOTE-INDICATIVE', () => ({
      what: 'an indicative quote',
      target: { executable: t.executable, quoteId: t.quoteId },
      oracle: { executable: false },
    }));
  }
}

abstract class OnQuote extends ExploreCommand {
  constructor(
    readonly index: number,
    /** Read the quote back after the step (steps that only read never do). */
    /** Read the quote after the step, or before and after it (steps that only read never do). */
    readonly then: 'none' | 'get' | 'around' = 'none',
  ) {
    super();
  }
  applies(m: Readonly<ExploreModel>): boolean {
    return m.can.pools && usableQuotes(m).length > 0;
  }
  protected twin(m: Readonly<ExploreModel>): QuoteTwin {
    return this.choose(usableQuotes(m), this.index)!;
  }
  label(m: ExploreModel): string {
    const q = this.twin(m);
    const then = { none: '', get: ', then read it', around: ', reading it before and after' }[this.then];
    return `${this.verb} ${q.name} (${quoteState(m, q).state})${then}`;
  }
  protected abstract readonly verb: string;
}

/** The stored quote: its status by the precedence, its pool and terms as quoted; a read neither consumes nor extends it. */
export async function readQuote(m: ExploreModel, r: Real, q: QuoteTwin): Promise<void> {
  const { rule } = quoteState(m, q);
  const ex = await r.both((side) => r.pools(side).get(quotePath(q.id[side])));
  sameOutcome(r, ex, { requirement: { '2xx': 'POOLS-SQ-SHAPE', 404: 'POOLS-SQ-SHAPE' } });
  if (ex.oracle.status >= 300) return;
  const b = { target: bodyOf(ex.target), oracle: bodyOf(ex.oracle) };
  sameFields(r, m, STORED_QUOTE_RELATIONS, b, { what: `${q.name} read`, requirementOf: { status: rule } });
  for (const side of ['target', 'oracle'] as Side[])
    // The same number and the same instant, however each writes them (pools.money.precision, pools.timestamps.precision).
    sameAsBefore(r, 'POOLS-SQ-READ-NO-EXTEND', 'the stored quote keeps its terms and expiry', side, q.created[side], b[side], ['rate', 'expiresAt'], {
      rate: 'decimal',
      expiresAt: 'instant',
    });
}

export class GetQuote extends OnQuote {
  protected readonly verb = 'read';
  act(m: ExploreModel, r: Real): Promise<void> {
    return readQuote(m, r, this.twin(m));
  }
}

/** Reject: an active quote becomes rejected (no money moves); a terminal one gives 409. */
export class RejectQuote extends OnQuote {
  protected readonly verb = 'reject';
  async act(m: ExploreModel, r: Real): Promise<void> {
    const q = this.twin(m);
    if (this.then === 'around') await readQuote(m, r, q);
    const ex = await r.both((side) => r.pools(side).post(quotePath(q.id[side], '/reject'), undefined));
    sameOutcome(r, ex, { requirement: { '2xx': 'POOLS-SQ-REJECT', 409: 'POOLS-SQ-REJECT-TERMINAL-409' } });
    if (ex.oracle.status >= 300) return;
    sameFields(
      r,
      m,
      STORED_QUOTE_RELATIONS,
      { target: bodyOf(ex.target), oracle: bodyOf(ex.oracle) },
      { what: `${q.name} rejected`, requirementOf: { status: 'POOLS-SQ-REJECT' } },
    );
    q.state = 'rejected';
    q.movedBy = 'POOLS-SQ-REJECT';
    m.balance.since.add('reject');
    if (this.then !== 'none') await readQuote(m, r, q);
    // A reject moves no money: the balance read after it shows.
    if (m.can.poolsBalance) await readBalance(m, r);
  }
}

export function quoteCommands(): fc.Arbitrary<ExploreCommand>[] {
  const i = objectIndex();
  const then = fc.constantFrom<'none' | 'get'>('none', 'get');
  return [
    then.map((t) => new FirmQuote(t)),
    fc.constant(null).map(() => new IndicativeQuote()),
    i.map((n) => new GetQuote(n)),
    fc.tuple(i, fc.constantFrom<'get' | 'around'>('get', 'around')).map(([n, t]) => new RejectQuote(n, t)),
  ];
}
