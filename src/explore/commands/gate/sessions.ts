// Gate sessions explored: create (and replay, and a conflicting body under the same key), retrieve, list, cancel,
// the sandbox's completion and expiry triggers, the embed bootstrap that expires a session past expires_at, and the
// embed token's refresh (open sessions only).
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import type { Exchange } from '../../../client/types.js';
import { CreatedGateSession, GATE_SESSION_RELATIONS } from '../../../model/schemas/gate/sessions.js';
import { findJwt } from '../../../wire/jwt.js';
import { holds, sameAsBefore, sameFields, sameOutcome } from '../../divergence.js';
import { live, pick, type ExploreModel, type SessionTwin, type Side } from '../../model.js';
import type { Real } from '../../real.js';
import { ExploreCommand, FEW, bodyOf, objectIndex } from '../command.js';
import { listedFrom, walkList } from '../lists.js';
import { completeLate, noticedByList } from './sessionSteering.js';

const SIDES: Side[] = ['target', 'oracle'];
const path = (id: string, rest = '') => `/gate_sessions/${encodeURIComponent(id)}${rest}`;

/** The sessions a step may still use: made by this sequence, not parted, clearly inside their lifetime. */
function usable(m: Readonly<ExploreModel>): SessionTwin[] {
  const now = Date.now();
  // A tenth of the lifetime (at most a minute) kept back: the two sides' clocks and latencies differ.
  const margin = Math.min(60_000, m.can.sessionLifetimeMs / 10);
  return live(m.sessions).filter((s) => s.state !== 'open' || s.expiresPast || now - s.madeAt < m.can.sessionLifetimeMs - margin);
}

const VARIANTS = ['plain', 'metadata', 'reference'] as const;

/**
 * What a step reads back: the session after it (retrieve), with the list it shows in, or the session before and after
 * it and the list after (around: what a read kept from before the change must not outlive it). A change is read back on
 * every view that shows it, the session and the list: a cache, a second copy or an index one path forgets shows in the
 * read that follows it.
 */
export type SessionReadBack = 'none' | 'get' | 'list' | 'around';
const THEN: Record<SessionReadBack, string> = {
  none: '',
  get: ', then retrieve it',
  list: ', then retrieve it and list sessions',
  around: ', retrieving it before and after and listing sessions',
};

async function readBefore(m: ExploreModel, r: Real, s: SessionTwin, then: SessionReadBack): Promise<void> {
  if (then === 'around') await retrieve(m, r, s);
}

async function readBack(m: ExploreModel, r: Real, s: SessionTwin, then: SessionReadBack): Promise<void> {
  if (then === 'none') return;
  await retrieve(m, r, s);
  if (then === 'list' || then === 'around') await listSessions(m, r);
}

/** A session both sides created: its twin, added to the model. */
export function addSession(m: ExploreModel, b: Record<Side, Record<string, unknown>>, key: string, body: Record<string, unknown>): SessionTwin {
  const twin: SessionTwin = {
    name: `session#${m.sessions.length + 1}`,
    id: { target: String(b.target.id), oracle: String(b.oracle.id) },
    state: 'open',
    movedBy: 'GATE-SESS-CREATE-SHAPE',
    madeAt: Date.now(),
    idempotencyKey: key,
    body,
    clientSecret: { target: b.target.client_secret as string | undefined, oracle: b.oracle.client_secret as string | undefined },
    created: b,
  };
  m.sessions.push(twin);
  return twin;
}

export class CreateSession extends ExploreCommand {
  constructor(
    readonly variant: (typeof VARIANTS)[number],
    readonly then: SessionReadBack = 'none',
  ) {
    super();
  }
  label(): string {
    return `create a session (${this.variant})${THEN[this.then]}`;
  }
  applies(m: Readonly<ExploreModel>): boolean {
    return m.can.gate && live(m.sessions).length < FEW;
  }
  async act(m: ExploreModel, r: Real): Promise<void> {
    const body: Record<string, unknown> = { ...r.context.sessionBody };
    if (this.variant === 'metadata') body.metadata = { rampart: 'explore', tag: r.context.tag, n: m.serial };
    if (this.variant === 'reference') body.user_reference = `explore-${r.context.tag}-${m.serial}`;
    const key = randomUUID();
    const ex = await r.both((side) => r.gate(side).post('/gate_sessions', body, { idempotencyKey: key }));
    sameOutcome(r, ex, { requirement: { '2xx': 'GATE-SESS-CREATE-SHAPE', 400: 'GATE-SESS-CREATE-MALFORMED-400' } });
    if (ex.oracle.status >= 300) return;
    const shape = CreatedGateSession.safeParse(ex.target.json);
    holds(r, shape.success, 'GATE-SESS-CREATE-SHAPE', () => ({
      what: `the created session: ${shape.error!.issues[0]?.message}`,
      target: ex.target.json,
      oracle: 'a GateSession with client_secret',
    }));
    const b = { target: bodyOf(ex.target), oracle: bodyOf(ex.oracle) };
    // Nothing of the sequence has this id yet: a reused id would name an earlier session.
    sameFields(r, m, GATE_SESSION_RELATIONS, b, { what: 'the created session' });
    const twin = addSession(m, b, key, body);
    listedFrom(r, 'sessions', twin.id);
    await readBack(m, r, twin, this.then);
  }
}

abstract class OnSession extends ExploreCommand {
  constructor(
    readonly index: number,
    /** What the step reads back after it (steps that only read never do). */
    readonly then: SessionReadBack = 'none',
  ) {
    super();
  }
  /** The step's precondition on the session it picked. */
  protected when(_s: SessionTwin, _m: Readonly<ExploreModel>): boolean {
    return true;
  }
  applies(m: Readonly<ExploreModel>): boolean {
    const s = m.can.gate ? this.choose(usable(m), this.index) : undefined;
    return !!s && this.when(s, m);
  }
  protected twin(m: Readonly<ExploreModel>): SessionTwin {
    return this.choose(usable(m), this.index)!;
  }
  label(m: ExploreModel): string {
    return `${this.verb} ${this.twin(m).name}${THEN[this.then]}`;
  }
  protected abstract readonly verb: string;
}

/** A repeat with the same key and body returns the original response, whatever happened to the session since. */
export class ReplaySessionCreate extends OnSession {
  protected readonly verb = 'replay the creation of';
  async act(m: ExploreModel, r: Real): Promise<void> {
    const s = this.twin(m);
    const ex = await r.both((side) => r.gate(side).post('/gate_sessions', s.body, { idempotencyKey: s.idempotencyKey }));
    sameOutcome(r, ex, { requirement: { '2xx': 'GATE-SESS-IDEMPOTENT-REPLAY', 409: 'GATE-SESS-IDEMPOTENT-REPLAY' } });
    if (ex.oracle.status >= 300) return;
    for (const side of ['target', 'oracle'] as Side[])
      sameAsBefore(
        r,
        'GATE-SESS-IDEMPOTENT-REPLAY',
        'the replay returns the original response',
        side,
        s.created[side],
        bodyOf(ex[side]),
        ['id', 'status', 'amount', 'currency', 'metadata', 'client_secret'],
        { amount: 'decimal' },
      );
  }
}

/** The same key with another body is refused with a conflict. */
export class ConflictingSessionCreate extends OnSession {
  protected readonly verb = 'reuse the key of';
  async act(m: ExploreModel, r: Real): Promise<void> {
    const s = this.twin(m);
    // Another valid amount (one more, its decimals kept): the body differs only in its fingerprint, never in its validity,
    // so which of 409 and 400 comes first (gate.idempotency.order) is never asked.
    const other = { ...s.body, amount: anotherAmount(s.body.amount) };
    const ex = await r.both((side) => r.gate(side).post('/gate_sessions', other, { idempotencyKey: s.idempotencyKey }));
    sameOutcome(r, ex, { requirement: { 409: 'GATE-SESS-IDEMPOTENCY-CONFLICT-409', '2xx': 'GATE-SESS-IDEMPOTENCY-CONFLICT-409' } });
  }
}

/** A valid amount other than `amount`: one more in its own decimals ("26.5" → "27.5", "10.00" → "11.00"). */
export function anotherAmount(amount: unknown): string {
  const m = typeof amount === 'string' ? /^(\d+)(\.\d+)?$/.exec(amount) : null;
  if (!m) return '11.00';
  return `${BigInt(m[1]!) + 1n}${m[2] ?? ''}`;
}

/** Retrieve: the session as its transitions left it, no client_secret, and retrieve itself never moves it. */
async function retrieve(m: ExploreModel, r: Real, s: SessionTwin): Promise<void> {
  const ex = await r.both((side) => r.gate(side).get(path(s.id[side])));
  sameOutcome(r, ex, { requirement: { '2xx': 'GATE-SESS-RETRIEVE', 404: 'GATE-SESS-RETRIEVE' } });
  if (ex.oracle.status >= 300) return;
  const b = { target: bodyOf(ex.target), oracle: bodyOf(ex.oracle) };
  sameFields(r, m, GATE_SESSION_RELATIONS, b, { what: `${s.name} retrieved`, requirementOf: { status: s.movedBy } });
  holds(r, !('client_secret' in b.target), 'GATE-SESS-CLIENT-SECRET-CREATE-ONLY', () => ({
    what: 'retrieve carries client_secret',
    target: 'present',
    oracle: 'absent',
  }));
  s.state = b.oracle.status as SessionTwin['state'];
}

export class GetSession extends OnSession {
  protected readonly verb = 'retrieve';
  act(m: ExploreModel, r: Real): Promise<void> {
    return retrieve(m, r, this.twin(m));
  }
}

/**
 * A step that ends a session (cancel, the sandbox's completion), inside its lifetime or late: a late one first moves
 * expires_at into the past (sandbox) where it is not yet. Past expires_at a session still reads open until a bootstrap,
 * and a move that comes then decides its status: the state a status derived with the wrong precedence shows, which a
 * sequence otherwise reaches only by drawing the expiry and the move in that order. A session takes one ending: when
 * the one the step picked has ended, the step opens a fresh one first while the sequence may make more (as a trade's
 * outcome does), so the endings drawn are asked; past that, a cancel is asked of the ended one (its 409).
 */
abstract class EndSession extends OnSession {
  constructor(
    index: number,
    then: SessionReadBack,
    readonly late = false,
  ) {
    super(index, then);
  }
  /** What the profile must allow for the step at all (the sandbox's completion trigger). */
  protected allowed(_m: Readonly<ExploreModel>): boolean {
    return true;
  }
  /** The step opens a fresh session first: the one it picked has ended (or none is left), and one more may be made. */
  private fresh(m: Readonly<ExploreModel>): boolean {
    const s = pick(usable(m), this.index);
    return (!s || s.state !== 'open') && live(m.sessions).length < FEW;
  }
  override applies(m: Readonly<ExploreModel>): boolean {
    if (!m.can.gate || !this.allowed(m) || (this.late && !m.can.expireSession)) return false;
    return this.fresh(m) ? live(m.sessions).length > 0 : super.applies(m);
  }
  private expiresFirst(s: SessionTwin): boolean {
    return this.late && s.state === 'open' && !s.expiresPast;
  }
  override label(m: ExploreModel): string {
    const late = 'move past expires_at (sandbox), then ';
    if (this.fresh(m)) return `create a session, then ${this.late ? late : ''}${this.verb} the session${THEN[this.then]}`;
    return this.expiresFirst(this.twin(m)) ? `${late}${super.label(m)}` : super.label(m);
  }
  /**
   * The session the step ends: the one it picked, or a fresh one; with a late step's expiry first. Undefined when the
   * sides parted on the way (a side refused the creation or the trigger).
   */
  protected async subject(m: ExploreModel, r: Real): Promise<SessionTwin | undefined> {
    let s: SessionTwin | undefined = this.twin(m);
    if (this.fresh(m)) {
      const made = m.sessions.length;
      await new CreateSession('plain', 'get').act(m, r);
      s = m.sessions.length > made ? m.sessions.at(-1) : undefined;
    }
    if (!s || s.parted) return undefined;
    if (this.expiresFirst(s)) {
      await sandboxBoth(r, s, 'expireSession');
      if (s.parted) return undefined;
      s.expiresPast = true;
      s.movedBy = 'GATE-SESS-RETRIEVE-NO-STATUS-CHANGE';
    }
    return s;
  }
}

/** Cancel: an open session becomes cancelled; a terminal one gives 409 and stays. */
export class CancelSession extends EndSession {
  protected readonly verb = 'cancel';
  async act(m: ExploreModel, r: Real): Promise<void> {
    const s = await this.subject(m, r);
    if (!s) return;
    await readBefore(m, r, s, this.then);
    const ex = await r.both((side) => r.gate(side).post(path(s.id[side], '/cancel'), undefined));
    sameOutcome(r, ex, { requirement: { '2xx': 'GATE-SESS-CANCEL', 409: 'GATE-SESS-CANCEL-TERMINAL-409' } });
    if (ex.oracle.status >= 300) return;
    const b = { target: bodyOf(ex.target), oracle: bodyOf(ex.oracle) };
    // The answer's body is not shown: where both sides show the session, it must show it cancelled.
    if (b.target.object === 'gate_session' && b.oracle.object === 'gate_session')
      sameFields(r, m, GATE_SESSION_RELATIONS, b, { what: `${s.name} cancelled`, requirementOf: { status: 'GATE-SESS-CANCEL' } });
    s.state = 'cancelled';
    s.movedBy = 'GATE-SESS-CANCEL';
    await readBack(m, r, s, this.then);
  }
}

/** The sandbox completes an open session (a linked buy succeeds): it reads completed. */
export class CompleteSession extends EndSession {
  protected readonly verb = 'complete (sandbox)';
  protected override allowed(m: Readonly<ExploreModel>): boolean {
    return m.can.completeSession;
  }
  // Past expires_at a session still reads open until a bootstrap: a linked buy may still complete it.
  protected when(s: SessionTwin): boolean {
    return s.state === 'open';
  }
  async act(m: ExploreModel, r: Real): Promise<void> {
    const s = await this.subject(m, r);
    if (!s) return;
    await readBefore(m, r, s, this.then);
    if (s.expiresPast) await completeLate(r, s);
    else {
      await sandboxBoth(r, s, 'completeSession');
      s.state = 'completed';
    }
    if (s.parted) return;
    s.movedBy = 'GATE-SESS-COMPLETE';
    await readBack(m, r, s, this.then);
  }
}

/** The sandbox moves expires_at into the past; the next bootstrap expires the session. */
export class ExpireSession extends OnSession {
  protected readonly verb = 'move past expires_at (sandbox)';
  protected when(s: SessionTwin, m: Readonly<ExploreModel>): boolean {
    return m.can.expireSession && m.can.embed && s.state === 'open' && !s.expiresPast;
  }
  async act(m: ExploreModel, r: Real): Promise<void> {
    const s = this.twin(m);
    await readBefore(m, r, s, this.then);
    await sandboxBoth(r, s, 'expireSession');
    if (s.parted) return;
    s.expiresPast = true;
    // Retrieve never changes status: past expires_at an open session still reads open.
    if (s.state === 'open') s.movedBy = 'GATE-SESS-RETRIEVE-NO-STATUS-CHANGE';
    await readBack(m, r, s, this.then);
  }
}

/** Bootstrap the widget with the session's client_secret: an open session past expires_at becomes expired; a terminal one stays. */
export class BootstrapSession extends OnSession {
  protected readonly verb = 'bootstrap the widget of';
  protected when(s: SessionTwin, m: Readonly<ExploreModel>): boolean {
    return m.can.embed && !!s.clientSecret.target && !!s.clientSecret.oracle;
  }
  async act(m: ExploreModel, r: Real): Promise<void> {
    const s = this.twin(m);
    await readBefore(m, r, s, this.then);
    await bootstrap(r, s);
    await readBack(m, r, s, this.then);
  }
}

/** The widget bootstrapped with the session's client_secret on both sides; the embed tokens kept when both answered one. */
async function bootstrap(r: Real, s: SessionTwin): Promise<void> {
  const ex = await r.both((side) => {
    const pk = r.sides[side].publishable!;
    return pk.client.post('/embed/bootstrap', { clientSecret: s.clientSecret[side] }, { auth: 'publishable', headers: { Origin: pk.origin } });
  });
  // The answer for a session that is not open, or past expires_at, is not shown: only an open live one must bootstrap.
  if (s.state === 'open' && !s.expiresPast) sameOutcome(r, ex, { requirement: { '2xx': 'GATE-EMBED-BOOTSTRAP' } });
  keepTokens(s, ex);
  if (s.state === 'open' && s.expiresPast) {
    s.state = 'expired';
    s.movedBy = 'GATE-SESS-EXPIRE-ON-BOOTSTRAP';
  } else if (s.state !== 'open') s.movedBy = 'GATE-SESS-TERMINAL-STAYS';
}

function keepTokens(s: SessionTwin, ex: Record<Side, Exchange>): void {
  const t = ex.target.status < 300 ? findJwt(ex.target.json)?.token : undefined;
  const o = ex.oracle.status < 300 ? findJwt(ex.oracle.json)?.token : undefined;
  if (t && o) s.embedToken = { target: t, oracle: o };
}

/**
 * POST /embed/refresh with the session's embed token (bootstrapping first when the sequence holds none): it rotates
 * the token while the bound session is open, and refuses (4xx) once it is cancelled, completed or expired. Past
 * expires_at, not yet noticed, what it answers is not shown (observed).
 */
export class RefreshEmbed extends OnSession {
  protected readonly verb = 'refresh the embed token of';
  protected when(s: SessionTwin, m: Readonly<ExploreModel>): boolean {
    return m.can.embed && !!s.clientSecret.target && !!s.clientSecret.oracle && (!!s.embedToken || (s.state === 'open' && !s.expiresPast));
  }
  label(m: ExploreModel): string {
    return `${this.twin(m).embedToken ? '' : 'bootstrap the widget, then '}${super.label(m)}`;
  }
  async act(m: ExploreModel, r: Real): Promise<void> {
    const s = this.twin(m);
    if (!s.embedToken) await bootstrap(r, s);
    const tokens = s.embedToken;
    if (!tokens) return;
    const ex = await r.both((side) => {
      const pk = r.sides[side].publishable!;
      return pk.client.post('/embed/refresh', undefined, { auth: 'none', headers: { 'x-embed-token': tokens[side], Origin: pk.origin } });
    });
    const R = 'GATE-EMBED-REFRESH-OPEN-ONLY';
    if (s.state === 'open' && s.expiresPast) {
      r.observe(R, `refresh past expires_at (not yet noticed): target ${ex.target.status}, oracle ${ex.oracle.status}`);
      return;
    }
    r.judged(R);
    if (s.state === 'open') {
      sameOutcome(r, ex, { requirement: { '2xx': R } });
      keepTokens(s, ex);
      return;
    }
    // Closed: a refusal (its status is not shown), and no new token.
    for (const side of SIDES)
      holds(r, ex[side].status >= 400 && ex[side].status < 500 && !findJwt(ex[side].json), R, () => ({
        what: `refresh of ${s.name}'s embed token once it is ${s.state}, on the ${side}`,
        target: side === 'target' ? `${ex.target.status}${findJwt(ex.target.json) ? ' with a new token' : ''}` : '(refused)',
        oracle: side === 'oracle' ? `${ex.oracle.status}${findJwt(ex.oracle.json) ? ' with a new token' : ''}` : '(refused)',
      }));
  }
}

/** List the partner's sessions: every session of the sequence once, as it reads on its own. */
async function listSessions(m: ExploreModel, r: Real): Promise<void> {
  const mine = usable(m);
  const found = await walkList(r, {
    page: (side, after) => r.gate(side).get('/gate_sessions', after ? { starting_after: after } : undefined),
    items: (j) => (Array.isArray((j as { data?: unknown })?.data) ? ((j as { data: Record<string, unknown>[] }).data ?? []) : []),
    more: (j) => (j as { has_more?: unknown })?.has_more === true,
    cursor: (item) => String(item.id),
    wanted: (side) => new Set(mine.map((s) => s.id[side])),
    requirement: 'GATE-SESS-LIST-PAGINATION',
    frontier: { list: 'sessions', ours: (side, id) => m.sessions.some((s) => s.id[side] === id) },
  });
  for (const s of mine) {
    const t = found.target.get(s.id.target);
    const o = found.oracle.get(s.id.oracle);
    if (!o) continue;
    if (!t) {
      holds(r, !found.complete.target, 'GATE-SESS-LIST-PAGINATION', () => ({ what: `${s.name} in the list`, target: 'absent', oracle: 'listed' }));
      continue;
    }
    const oracle = await noticedByList(r, s, t.item, o.item);
    if (s.parted) continue;
    sameFields(r, m, GATE_SESSION_RELATIONS, { target: t.item, oracle }, { what: `${s.name} as listed`, requirementOf: { status: s.movedBy } });
  }
}

export class ListSessions extends ExploreCommand {
  label(): string {
    return 'list sessions';
  }
  applies(m: Readonly<ExploreModel>): boolean {
    return m.can.gate && usable(m).length > 0;
  }
  act(m: ExploreModel, r: Real): Promise<void> {
    return listSessions(m, r);
  }
}

/** A sandbox trigger on both sides; a side whose trigger refuses leaves the session to it alone (parted). */
async function sandboxBoth(r: Real, s: SessionTwin, name: 'completeSession' | 'expireSession'): Promise<void> {
  const answers: Partial<Record<Side, number>> = {};
  for (const side of ['target', 'oracle'] as Side[]) {
    const ex = await r.trigger(side, 'gate', name, { sessionId: s.id[side] });
    answers[side] = ex?.status;
  }
  const ok = (st?: number) => st !== undefined && st >= 200 && st < 300;
  // The sandbox's controls are the profile's, not the specs': a refusal there is a broken trigger, not a divergence.
  if (!ok(answers.target) || !ok(answers.oracle)) s.parted = `the ${name} trigger answered ${answers.target} on the target and ${answers.oracle} on the oracle`;
}

export function sessionCommands(): fc.Arbitrary<ExploreCommand>[] {
  const i = objectIndex();
  // A step that changes a session reads it back, and the list it shows in: a read before and after it, and the list
  // after, are where caches, second copies and indexes that one path forgot show.
  const then = fc.constantFrom<SessionReadBack>('list', 'around');
  return [
    fc.tuple(fc.constantFrom(...VARIANTS), fc.constantFrom<SessionReadBack>('get', 'list')).map(([v, t]) => new CreateSession(v, t)),
    i.map((n) => new GetSession(n)),
    fc.tuple(i, then, fc.boolean()).map(([n, t, late]) => new CancelSession(n, t, late)),
    i.map((n) => new ReplaySessionCreate(n)),
    i.map((n) => new ConflictingSessionCreate(n)),
    fc.tuple(i, then, fc.boolean()).map(([n, t, late]) => new CompleteSession(n, t, late)),
    fc.tuple(i, then).map(([n, t]) => new ExpireSession(n, t)),
    fc.tuple(i, then).map(([n, t]) => new BootstrapSession(n, t)),
    fc.constant(null).map(() => new ListSessions()),
    i.map((n) => new RefreshEmbed(n)),
  ];
}
