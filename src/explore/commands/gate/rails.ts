// Gate rails explored: signed quotes locked for sessions the sequence opens (through the profile's createSignedQuote:
// POST /quotes is not shown), inspected (GET /quotes/{id}: never redeemed), expired by the sandbox (expireSignedQuote),
// and redeemed once — by a pay-out (an off_ramp quote) or a pay-in (an on_ramp one, the profile's payInBody) — with a
// replay under the same key answering the original, the records read back, and a consumed or expired quote refused 409.
// Which side a pay-out or pay-in takes beyond these is not shown: never sent.
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import type { Exchange } from '../../../client/types.js';
import type { RequirementId } from '../../../model/catalogue/index.js';
import { sameDecimal } from '../../../model/relations.js';
import { RAIL_PAY_OUT_RELATIONS, RailPayOut } from '../../../model/schemas/gate/rails.js';
import { fillDeep, pick as pickPath, TemplateError } from '../../../needs/support/triggers.js';
import { holds, sameFields, sameOutcome } from '../../divergence.js';
import { live, type ExploreModel, type RailTwin, type SessionTwin, type Side, type SignedQuoteTwin } from '../../model.js';
import type { Real } from '../../real.js';
import { ExploreCommand, FEW, bodyOf, objectIndex } from '../command.js';
import { listedFrom } from '../lists.js';
import { addSession } from './sessions.js';
import { ConflictRail, OnRail, ReadRail, ReplayRail, railsOf, readRail, replayRail } from './railRecords.js';

const SIDES: Side[] = ['target', 'oracle'];
/** Room kept before a declared quote lifetime ends: the two clocks, the network, the step's own time. */
const MARGIN_MS = 5_000;
const ok = (ex?: Exchange) => !!ex && ex.status >= 200 && ex.status < 300;

/** A quote clearly inside the lifetime the profile declares; undefined when it declares none (not shown). */
function clearlyAlive(m: Readonly<ExploreModel>, q: SignedQuoteTwin): boolean | undefined {
  const life = m.can.signedQuoteLifetimeMs;
  return life === undefined ? undefined : Date.now() - q.lockSentAt < life - MARGIN_MS;
}

/** Open a session on both sides for a quote to be locked for (the profile's session body). */
async function openSession(m: ExploreModel, r: Real): Promise<SessionTwin | undefined> {
  const body = { ...r.context.sessionBody, user_reference: `explore-${r.context.tag}-${m.serial}` };
  const key = randomUUID();
  const ex = await r.both((side) => r.gate(side).post('/gate_sessions', body, { idempotencyKey: key }));
  sameOutcome(r, ex, { requirement: { '2xx': 'GATE-SESS-CREATE-SHAPE' } });
  if (ex.oracle.status >= 300) return undefined;
  const s = addSession(m, { target: bodyOf(ex.target), oracle: bodyOf(ex.oracle) }, key, body);
  listedFrom(r, 'sessions', s.id);
  return s;
}

/** Lock a signed quote (one side of the rail) for a new session, on both sides through each side's createSignedQuote. */
export class LockQuote extends ExploreCommand {
  constructor(
    readonly side: SignedQuoteTwin['side'],
    readonly then: 'none' | 'read',
  ) {
    super();
  }
  label(): string {
    return `lock an ${this.side} quote for a new session${this.then === 'read' ? ', then read it' : ''}`;
  }
  applies(m: Readonly<ExploreModel>): boolean {
    return m.can.gate && m.can.rails && live(m.signedQuotes).length < FEW && (this.side === 'off_ramp' || m.can.payIn);
  }
  async act(m: ExploreModel, r: Real): Promise<void> {
    const s = await openSession(m, r);
    if (s) await lockFor(m, r, s, this.side, this.then);
  }
}

/** Lock a signed quote for session `s` on both sides, through each side's createSignedQuote. */
async function lockFor(
  m: ExploreModel,
  r: Real,
  s: SessionTwin,
  quoteSide: SignedQuoteTwin['side'],
  then: 'none' | 'read',
): Promise<SignedQuoteTwin | undefined> {
  const lockSentAt = Date.now();
  const got: Partial<Record<Side, { id?: unknown; fiat?: unknown; currency?: unknown; status: number | string }>> = {};
  for (const side of SIDES) {
    try {
      const ex = await r.trigger(side, 'gate', 'createSignedQuote', { sessionId: s.id[side], side: quoteSide });
      const extract = r.sides[side].triggers.gate.createSignedQuote?.extract ?? {};
      got[side] = {
        status: ex?.status ?? 'no trigger',
        id: ok(ex) ? pickPath(ex!.json, extract.id ?? 'id') : undefined,
        fiat: ok(ex) && extract.fiat_pay_or_receive ? pickPath(ex!.json, extract.fiat_pay_or_receive) : undefined,
        currency: ok(ex) ? bodyOf(ex!).currency : undefined,
      };
    } catch (e) {
      if (!(e instanceof TemplateError)) throw e;
      got[side] = { status: e.message };
    }
  }
  const idOf = (side: Side) => (typeof got[side]?.id === 'string' && got[side]!.id ? (got[side]!.id as string) : undefined);
  // The lock is the profile's request (POST /quotes is not shown): one a side refuses leaves the rail unexplored.
  if (!idOf('target') || !idOf('oracle')) {
    r.observe('explore-lock-signed-quote', `createSignedQuote answered ${got.target?.status} on the target, ${got.oracle?.status} on the oracle`);
    return undefined;
  }
  const fiat = { target: got.target?.fiat, oracle: got.oracle?.fiat };
  holds(r, fiat.target === undefined || (typeof fiat.target === 'string' && /^\d+(\.\d+)?$/.test(fiat.target)), 'GATE-QUOTE-LOCK', () => ({
    what: 'the locked quote’s fiat_pay_or_receive, a decimal string',
    target: fiat.target,
    oracle: fiat.oracle,
  }));
  const currencyOf = (side: Side) => (typeof got[side]?.currency === 'string' ? (got[side]!.currency as string) : undefined);
  const q: SignedQuoteTwin = {
    name: `signed-quote#${m.signedQuotes.length + 1}`,
    id: { target: idOf('target')!, oracle: idOf('oracle')! },
    state: 'active',
    movedBy: 'GATE-QUOTE-LOCK',
    madeAt: Date.now(),
    side: quoteSide,
    session: s.name,
    fiat: { target: fiat.target as string | undefined, oracle: fiat.oracle as string | undefined },
    currency: { target: currencyOf('target'), oracle: currencyOf('oracle') },
    lockSentAt,
  };
  m.signedQuotes.push(q);
  if (then === 'read') await readQuote(r, q);
  return q;
}

abstract class OnQuote extends ExploreCommand {
  constructor(readonly index: number) {
    super();
  }
  /** The quotes this step may take (a pay-out takes off_ramp ones, a pay-in on_ramp ones). */
  protected quotes(m: Readonly<ExploreModel>): SignedQuoteTwin[] {
    return live(m.signedQuotes);
  }
  applies(m: Readonly<ExploreModel>): boolean {
    return m.can.gate && this.quotes(m).length > 0;
  }
  protected twin(m: Readonly<ExploreModel>): SignedQuoteTwin {
    return this.choose(this.quotes(m), this.index)!;
  }
  label(m: ExploreModel): string {
    const q = this.twin(m);
    return `${this.verb} ${q.name} (${q.side}, ${q.state}${q.expired ? ', expired' : ''})`;
  }
  protected abstract readonly verb: string;
}

/** GET /quotes/{id}: the quote as locked (its fiat_pay_or_receive, where shown); it never redeems it. */
async function readQuote(r: Real, q: SignedQuoteTwin): Promise<void> {
  const ex = await r.both((side) => r.gate(side).get(`/quotes/${encodeURIComponent(q.id[side])}`));
  sameOutcome(r, ex, { requirement: { '2xx': 'GATE-QUOTE-GET-NO-REDEEM' } });
  if (ex.oracle.status >= 300) return;
  for (const side of SIDES) {
    const read = bodyOf(ex[side]);
    const shown = read.fiat_pay_or_receive;
    const locked = q.fiat[side];
    holds(r, shown === undefined || locked === undefined || sameDecimal(shown, locked), 'GATE-QUOTE-LOCK', () => ({
      what: `${q.name}'s fiat_pay_or_receive as read on the ${side}, against its lock`,
      target: side === 'target' ? shown : '(as locked)',
      oracle: side === 'oracle' ? shown : '(as locked)',
    }));
    // What the lock did not show of the quote's currency, its inspection may (the quote's fields are not shown).
    if (q.currency[side] === undefined && typeof read.currency === 'string') q.currency[side] = read.currency;
  }
}

export class ReadQuote extends OnQuote {
  protected readonly verb = 'read';
  act(m: ExploreModel, r: Real): Promise<void> {
    return readQuote(r, this.twin(m));
  }
}

/** The sandbox expires the quote (each side its own expireSignedQuote): no redemption may take it any more. */
export class ExpireQuote extends OnQuote {
  constructor(
    index: number,
    /** Read the quote before and after (what an inspection kept from before the expiry must not outlive it). */
    readonly then: 'none' | 'around',
  ) {
    super(index);
  }
  protected readonly verb = 'expire (sandbox)';
  applies(m: Readonly<ExploreModel>): boolean {
    return m.can.expireSignedQuote && super.applies(m);
  }
  label(m: ExploreModel): string {
    const redeemed = railsOf(m, this.twin(m)).length ? `, then replay its ${this.twin(m).side === 'off_ramp' ? 'pay-out' : 'pay-in'}` : '';
    return `${super.label(m)}${this.then === 'around' ? ', reading it before and after' : ''}${redeemed}`;
  }
  async act(m: ExploreModel, r: Real): Promise<void> {
    const q = this.twin(m);
    if (this.then === 'around') await readQuote(r, q);
    const answers: (number | string)[] = [];
    for (const side of SIDES) {
      try {
        const ex = await r.trigger(side, 'gate', 'expireSignedQuote', { quoteId: q.id[side] });
        answers.push(ok(ex) ? 'ok' : (ex?.status ?? 'no trigger'));
      } catch (e) {
        if (!(e instanceof TemplateError)) throw e;
        answers.push(e.message);
      }
    }
    if (answers.every((a) => a === 'ok')) q.expired = true;
    else q.parted = `expireSignedQuote answered ${answers[0]} on the target and ${answers[1]} on the oracle`;
    if (this.then === 'around' && !q.parted) await readQuote(r, q);
    // The answer a redemption's key keeps is a view of the quote too: an expiry must leave it as it was.
    if (!q.parted) for (const x of railsOf(m, q)) await replayRail(r, x);
  }
}

/** What redeeming the quote must answer now: the rule it follows, and whether it is judged (a declared lifetime). */
function redemptionRule(m: Readonly<ExploreModel>, q: SignedQuoteTwin, redeems: RequirementId): { rule: RequirementId; judged: boolean } {
  if (q.state === 'consumed') return { rule: 'GATE-QUOTE-CONSUMED-409', judged: true };
  if (q.expired) return { rule: 'GATE-QUOTE-EXPIRED-409', judged: true };
  return { rule: redeems, judged: clearlyAlive(m, q) === true };
}

/** A redemption on both sides: the same outcome; an active quote a side refuses past (or without) a declared lifetime parts. */
async function redeem(
  m: ExploreModel,
  r: Real,
  q: SignedQuoteTwin,
  rail: Omit<RailTwin, 'name' | 'id' | 'created' | 'status' | 'madeAt' | 'state' | 'movedBy'>,
  /** another: the session's second redemption — whether a session takes more than one is not shown, so a side refusing it parts the quote. */
  opts: { another?: boolean } = {},
) {
  const path = rail.kind === 'pay_out' ? '/rails/pay_outs' : '/rails/pay_ins';
  const redeems: RequirementId = rail.kind === 'pay_out' ? 'GATE-RAIL-PAYOUT-201' : 'GATE-RAIL-PAYIN-REDEEMS';
  const { rule, judged } = redemptionRule(m, q, redeems);
  const ex = await r.both((side) => r.gate(side).post(path, rail.body[side], { idempotencyKey: rail.idempotencyKey }));
  if (!judged && ex.target.status === 409 && ok(ex.oracle)) {
    q.parted = `the target refused the redemption (409) of a quote the profile declares no lifetime for, or near its end: it may have expired`;
    r.observe('explore-signed-quote-lifetime', q.parted);
    return undefined;
  }
  if (opts.another && ok(ex.target) !== ok(ex.oracle) && ex.target.status !== 429 && ex.target.status < 500) {
    q.parted = `a second ${rail.kind === 'pay_out' ? 'pay-out' : 'pay-in'} on one session answered ${ex.target.status} on the target, ${ex.oracle.status} on the oracle (whether a session takes more than one is not shown)`;
    r.observe('explore-rail-second-on-session', q.parted);
    return undefined;
  }
  sameOutcome(r, ex, { requirement: { '2xx': rule, 409: rule } });
  if (!ok(ex.oracle)) return undefined;
  q.state = 'consumed';
  q.movedBy = 'GATE-QUOTE-CONSUMED-409';
  const b = { target: bodyOf(ex.target), oracle: bodyOf(ex.oracle) };
  const twin: RailTwin = {
    ...rail,
    name: `${rail.kind === 'pay_out' ? 'pay-out' : 'pay-in'}#${m.rails.length + 1}`,
    id: { target: typeof b.target.id === 'string' ? b.target.id : '', oracle: typeof b.oracle.id === 'string' ? b.oracle.id : '' },
    state: 'made',
    movedBy: redeems,
    madeAt: Date.now(),
    created: b,
    status: { target: ex.target.status, oracle: ex.oracle.status },
  };
  m.rails.push(twin);
  return twin;
}

/** POST /rails/pay_outs redeeming an off_ramp quote: the pay-out names the session and quote, its amount the quote's. */
export class PayOut extends OnQuote {
  constructor(
    index: number,
    readonly then: 'none' | 'read',
  ) {
    super(index);
  }
  protected readonly verb = 'pay out';
  protected quotes(m: Readonly<ExploreModel>): SignedQuoteTwin[] {
    return live(m.signedQuotes).filter((q) => q.side === 'off_ramp');
  }
  label(m: ExploreModel): string {
    return `${super.label(m)}${this.then === 'read' ? ', then read the pay-out' : ''}`;
  }
  act(m: ExploreModel, r: Real): Promise<void> {
    return payOut(m, r, this.twin(m), this.then);
  }
}

/** Pay out quote `q` (on both sides) and judge the pay-out; `redeemOpts.another` as in redeem(). */
async function payOut(m: ExploreModel, r: Real, q: SignedQuoteTwin, then: 'none' | 'read', redeemOpts: { another?: boolean } = {}): Promise<void> {
  const s = m.sessions.find((x) => x.name === q.session)!;
  const reference = `explore-${r.context.tag}-${m.serial}`;
  const body = (side: Side) => ({ gate_session_id: s.id[side], quote_id: q.id[side], reference, metadata: { rampart: 'explore' } });
  const made = await redeem(
    m,
    r,
    q,
    {
      kind: 'pay_out',
      quote: q.name,
      idempotencyKey: randomUUID(),
      body: { target: body('target'), oracle: body('oracle') },
    },
    redeemOpts,
  );
  if (!made) return;
  const shape = RailPayOut.safeParse(made.created.target);
  holds(r, shape.success, 'GATE-RAIL-PAYOUT-201', () => ({
    what: `the pay-out: ${shape.error!.issues[0]?.path.join('.')} ${shape.error!.issues[0]?.message}`,
    target: made.created.target,
    oracle: 'a rail_pay_out',
  }));
  sameFields(r, m, RAIL_PAY_OUT_RELATIONS, made.created, { what: `${made.name}` });
  for (const side of SIDES) {
    const amount = made.created[side].amount;
    holds(r, q.fiat[side] === undefined || sameDecimal(amount, q.fiat[side]), 'GATE-RAIL-PAYOUT-AMOUNT-FROM-QUOTE', () => ({
      what: `${made.name}'s amount on the ${side}, against ${q.name}'s fiat_pay_or_receive ${q.fiat[side]}`,
      target: side === 'target' ? amount : '(the quote’s)',
      oracle: side === 'oracle' ? amount : '(the quote’s)',
    }));
    payOutCurrency(r, made, q, s, side);
  }
  if (then === 'read') await readRail(m, r, made);
}

/**
 * A pay-out's currency is its locked quote's, as the lock or the quote's inspection shows it (its case is the target's:
 * gate.rails.currencyCase), else the one its session fixes — judged on each side against its own, as conformance does.
 */
function payOutCurrency(r: Real, made: RailTwin, q: SignedQuoteTwin, s: SessionTwin, side: Side): void {
  const currency = made.created[side].currency;
  const fixed = q.currency[side] ?? (typeof s.body.currency === 'string' ? s.body.currency : undefined);
  holds(
    r,
    fixed === undefined || (typeof currency === 'string' && currency.toUpperCase() === fixed.toUpperCase()),
    'GATE-RAIL-PAYOUT-CURRENCY-METHOD-FROM-QUOTE',
    () => ({
      what: `${made.name}'s currency on the ${side}, against ${q.currency[side] ? `${q.name}'s` : `${s.name}'s`} ${fixed}`,
      target: side === 'target' ? currency : `(${fixed})`,
      oracle: side === 'oracle' ? currency : `(${fixed})`,
    }),
  );
}

/** POST /rails/pay_ins redeeming an on_ramp quote (the profile's body): its answer is not shown beyond a success. */
export class PayIn extends OnQuote {
  constructor(
    index: number,
    readonly then: 'none' | 'read',
  ) {
    super(index);
  }
  protected readonly verb = 'pay in';
  protected quotes(m: Readonly<ExploreModel>): SignedQuoteTwin[] {
    return live(m.signedQuotes).filter((q) => q.side === 'on_ramp');
  }
  label(m: ExploreModel): string {
    return `${super.label(m)}${this.then === 'read' ? ', then read the pay-in' : ''}`;
  }
  act(m: ExploreModel, r: Real): Promise<void> {
    return payIn(m, r, this.twin(m), this.then);
  }
}

/** Pay in quote `q` (on both sides, the profile's payInBody); `redeemOpts.another` as in redeem(). */
async function payIn(m: ExploreModel, r: Real, q: SignedQuoteTwin, then: 'none' | 'read', redeemOpts: { another?: boolean } = {}): Promise<void> {
  const s = m.sessions.find((x) => x.name === q.session)!;
  const body = (side: Side) =>
    fillDeep((r.sides[side].triggers.gate as Record<string, unknown>).payInBody, { quoteId: q.id[side], sessionId: s.id[side] }) as Record<string, unknown>;
  let bodies: Record<Side, Record<string, unknown>>;
  try {
    bodies = { target: body('target'), oracle: body('oracle') };
  } catch (e) {
    if (!(e instanceof TemplateError)) throw e;
    q.parted = `payInBody: ${e.message}`;
    return;
  }
  const made = await redeem(m, r, q, { kind: 'pay_in', quote: q.name, idempotencyKey: randomUUID(), body: bodies }, redeemOpts);
  if (made && then === 'read') await readRail(m, r, made);
}

/**
 * Another quote locked for the session a rail redeemed on, and redeemed the same way (a second pay-out or pay-in of
 * the session): each key's record stays its own, so a replay of the first answers the first (ReplayRail, around it).
 */
export class RedeemAnotherOnSession extends OnRail {
  protected readonly verb = 'lock and redeem another quote for the session of';
  protected rails(m: Readonly<ExploreModel>): RailTwin[] {
    return live(m.rails).filter((x) => !!m.signedQuotes.find((q) => q.name === x.quote));
  }
  applies(m: Readonly<ExploreModel>): boolean {
    return super.applies(m) && m.signedQuotes.length < FEW + 1;
  }
  async act(m: ExploreModel, r: Real): Promise<void> {
    const x = this.twin(m);
    const first = m.signedQuotes.find((q) => q.name === x.quote)!;
    const s = m.sessions.find((y) => y.name === first.session);
    if (!s) return;
    const q = await lockFor(m, r, s, first.side, 'none');
    if (!q) return;
    if (x.kind === 'pay_out') await payOut(m, r, q, 'read', { another: true });
    else await payIn(m, r, q, 'read', { another: true });
  }
}

/**
 * The rail operations on one side of a quote: locked (and read), redeemed (a pay-out for off_ramp, a pay-in for
 * on_ramp), expired by the sandbox, replayed, read. Every lock, redemption and expiry is read back (the quote, the
 * record; the quote before an expiry too): what an inspection kept from before a change must not outlive it.
 */
export function railCommands(side: SignedQuoteTwin['side']): fc.Arbitrary<ExploreCommand>[] {
  const i = objectIndex();
  return [
    fc.constant(null).map(() => new LockQuote(side, 'read')),
    i.map((n) => (side === 'off_ramp' ? new PayOut(n, 'read') : new PayIn(n, 'read'))),
    i.map((n) => new ExpireQuote(n, 'around')),
    i.map((n) => new ReplayRail(n)),
    i.map((n) => new ReadQuote(n)),
    i.map((n) => new ReadRail(n)),
    i.map((n) => new RedeemAnotherOnSession(n)),
    ...(side === 'off_ramp' ? [i.map((n) => new ConflictRail(n))] : []),
  ];
}
