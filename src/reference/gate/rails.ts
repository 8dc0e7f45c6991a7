// Gate account-gated rails: pay-ins and pay-outs redeeming signed quotes.
// Amount, currency and method always come from the locked quote; the body
// never carries money, method, identity or payout-instruction fields.
//
// Not shown — chosen:
// - POST /rails/pay_ins: Idempotency-Key required like pay-outs (any non-empty key: the spec names no format); body `gate_session_id`
//   (≤64, required), `quote_id` (≤64, required), `reference` (≤128), `metadata` (object); any other
//   key gives 400 (the pay-out rule applied to pay-ins too). The quote must be an on_ramp quote of that
//   session (else 400 quote_mismatch). Response 201 { object: 'rail_pay_in', id, kind: 'pay_in',
//   status: 'pending', gate_session_id, quote_id, method, amount (= fiat_pay_or_receive), currency,
//   reference, metadata, provider, created_at }.
// - Pay-outs need an off_ramp quote of the named session (else 400 quote_mismatch).
// - A session that is not open cannot take a rail (409 session_not_open).
// - `provider` is 'embedded_sandbox' (reconciliation data only).
// - The per-user cumulative volume cap is the partner's railVolumeCap from the profile (none: no cap),
//   in the session currency. The user is the session's user_reference (a session without one is a user of
//   its own). Pay-ins and pay-outs both add their amount; the rail that takes a user's total past the cap
//   succeeds with `account_blocked: true`, and every later rail of that user gives 403 account_blocked.
// - Status stays `pending`: no documented trigger moves pay-in/pay-out states.
import { choiceOf } from '../kit/dialect.js';
import { HttpError, jsonObject, type Reply, type Req, type Router } from '../kit/http.js';
import { scopeOf } from './customers.js';
import { idempotencyKey, railIdMax, validateBody } from './railRequests.js';
import { decAdd, decGreater, volumes } from './railVolumes.js';
import { ownQuote, quotes, quoteState, redeemQuote, type SignedQuote } from './quotesTransactions.js';
import type { GateArea, GateCaller, GateWorld } from './world.js';
import { RAIL_FAULTS } from './railFaults.js';
import { railKeyRecords } from './blindRailReplays.js';
import { RACE, raceGap, railRedeemRaceGap } from './raceFaults.js';

interface RailRecord {
  id: string;
  scope: string;
  kind: 'pay_in' | 'pay_out';
  status: 'pending' | 'settled';
  gate_session_id: string;
  quote_id: string;
  method: string;
  amount: string;
  currency: string;
  reference: string | null;
  metadata: Record<string, unknown>;
  created_at: string;
  /** This rail pushed the user past the cumulative volume cap. */
  accountBlocked?: true;
}

const railStores = new WeakMap<GateWorld, Map<string, RailRecord>>();
function rails(world: GateWorld): Map<string, RailRecord> {
  let m = railStores.get(world);
  if (!m) railStores.set(world, (m = new Map()));
  return m;
}

/** A currency that is not `c`, in its case (for the fault that pays out in another currency than the quote's). */
function otherCurrency(c: string): string {
  const other = c.toUpperCase() === 'EUR' ? 'GBP' : 'EUR';
  return c === c.toLowerCase() ? other.toLowerCase() : other;
}

function view(world: GateWorld, r: RailRecord) {
  const v: Record<string, unknown> = {
    object: r.kind === 'pay_out' ? 'rail_pay_out' : 'rail_pay_in',
    id: r.id,
    kind: r.kind,
    status: r.status,
    gate_session_id: r.gate_session_id,
    quote_id: r.quote_id,
    method: r.method,
    amount: world.money(r.amount),
    currency: r.currency,
    reference: r.reference,
    metadata: structuredClone(r.metadata),
    provider: 'embedded_sandbox',
    created_at: r.created_at,
    ...(r.accountBlocked ? { account_blocked: true } : {}),
  };
  if (world.faults.has('rail-provider-missing')) delete v.provider;
  // Reading (gate.payIn.fields 'minimal'): a pay-in's fields are not shown — fewer than a pay-out's; provider stays (the Rails rule).
  if (r.kind === 'pay_in' && choiceOf(world.profile, 'gate.payIn.fields') === 'minimal')
    for (const k of ['kind', 'method', 'gate_session_id', 'reference', 'metadata']) delete v[k];
  return v;
}

/**
 * Sequence fault seq-rail-replay-refused-after-expiry: the quote's state is derived with its expiry ranked above its
 * redemption, and checked before the Idempotency-Key's stored answer — a replay of a rail whose quote expired since
 * (its lifetime, or the sandbox) is refused 409 instead of answered.
 */
function refuseExpiredBeforeReplay(world: GateWorld, caller: GateCaller, req: Req): void {
  if (!world.faults.has('seq-rail-replay-refused-after-expiry')) return;
  let id: unknown;
  try {
    id = jsonObject(req).quote_id;
  } catch {
    return; // a malformed body is the validation's to refuse
  }
  const q = typeof id === 'string' ? quotes(world).get(id) : undefined;
  if (!q || q.scope !== scopeOf(caller)) return;
  if (quoteState(world, q) === 'expired' || world.clock.now() >= q.expiresAtMs) throw new HttpError(409, 'This quote has expired', 'quote_expired');
}

/**
 * Amount, method and currency of a rail: the locked quote's. Faults: a pay-out's amount is the session's; its method
 * and currency are not the quote's; its method is not, where the quote shows none; its currency is not.
 */
function termsOf(world: GateWorld, q: SignedQuote, kind: RailRecord['kind']): Pick<RailRecord, 'amount' | 'method' | 'currency'> {
  const f = world.faults;
  const out = kind === 'pay_out';
  const notQuotes = out && f.has('rail-payout-currency-method-not-quote');
  return {
    amount: out && f.has('rail-payout-amount-not-quote') ? q.amount : q.fiat_pay_or_receive,
    method: notQuotes || (out && f.has('rail-payout-method-not-quote-unshown')) ? (q.method === 'card' ? 'bank_transfer' : 'card') : q.method,
    currency: notQuotes || (out && f.has('rail-payout-currency-not-quote')) ? otherCurrency(q.currency) : q.currency,
  };
}

function ownRail(world: GateWorld, caller: GateCaller, id: string, kind: RailRecord['kind']): RailRecord {
  const r = rails(world).get(id);
  if (!r || r.kind !== kind) throw new HttpError(404, `No such ${kind}: ${id}`, 'resource_missing');
  if (r.scope !== scopeOf(caller) && !(kind === 'pay_in' && world.faults.has('rail-payin-foreign-readable'))) {
    if (kind === 'pay_out' && world.faults.has('rail-payout-foreign-403')) throw new HttpError(403, 'Not your pay-out', 'forbidden');
    throw new HttpError(404, `No such ${kind}: ${id}`, 'resource_missing');
  }
  return r;
}

/** GET /rails/pay_ins/{id} and /rails/pay_outs/{id}: the caller's own rail (rail entitlement; another partner's is 404). */
function registerReads(router: Router, world: GateWorld): void {
  router.on('GET', '/rails/pay_ins/:id', (req) => {
    const caller = world.authSecret(req, { rail: !world.faults.has('rail-payin-read-entitlement-ignored') });
    const own = ownRail(world, caller, req.params.id!, 'pay_in');
    if (world.faults.has('rail-payin-read-404') && own.scope === scopeOf(caller)) throw new HttpError(404, `No such pay_in: ${own.id}`, 'resource_missing');
    const v = view(world, own);
    if (world.faults.has('rail-payin-read-no-provider')) delete v.provider;
    return { status: 200, body: v };
  });
  router.on('GET', '/rails/pay_outs/:id', (req) => {
    const caller = world.authSecret(req, { rail: !world.faults.has('rail-payout-read-entitlement-ignored') });
    const own = ownRail(world, caller, req.params.id!, 'pay_out');
    if (world.faults.has('rail-payout-read-404')) throw new HttpError(404, `No such pay_out: ${own.id}`, 'resource_missing');
    // Reading (gate.payOut.transitions 'settles-on-read'): a pay-out's transitions are not shown; this world settles it when read.
    if (choiceOf(world.profile, 'gate.payOut.transitions') === 'settles-on-read' && own.status === 'pending') own.status = 'settled';
    const v = view(world, own);
    if (world.faults.has('rail-payout-read-no-provider')) delete v.provider;
    return { status: 200, body: v };
  });
}

export const area: GateArea = {
  name: 'rails',
  faults: RAIL_FAULTS,
  register(router, world) {
    // Fault rail-payin-fingerprint-ignored: the first answer per key, whatever the body.
    const firstPayInByKey = new Map<string, Promise<Reply>>();
    // Fault rail-payout-lost-retry-new-object: each pay-out key's answer, and whether it was repeated yet.
    const payOutByKey = new Map<string, { reply: Promise<Reply>; repeated: boolean }>();
    const create = (kind: RailRecord['kind']) => async (req: Req) => {
      const skipEntitlement = world.faults.has(kind === 'pay_out' ? 'rail-entitlement-ignored' : 'rail-payin-entitlement-ignored');
      const caller = world.authSecret(req, { rail: !skipEntitlement });
      // Pay-outs require a UUID key (the spec says so); a pay-in names the key without saying it is required.
      const keyOptional = kind === 'pay_in' || world.faults.has('rail-payout-idempotency-optional');
      if (!(keyOptional && req.headers['idempotency-key'] === undefined)) idempotencyKey(req, kind === 'pay_out', world.faults);
      const scope = kind === 'pay_out' ? 'rails.pay_outs' : 'rails.pay_ins';
      refuseExpiredBeforeReplay(world, caller, req);
      const handle = (fn: (again?: boolean) => Reply | Promise<Reply>) => {
        if (kind === 'pay_out' && world.faults.has('rail-payout-lost-retry-new-object')) return firstRepeatAnew(caller, req, fn);
        if (kind === 'pay_out' && world.faults.has('rail-payout-replay-not-idempotent')) return fn();
        if (kind === 'pay_in' && world.faults.has('rail-payin-replay-not-idempotent')) return fn();
        if (kind === 'pay_in' && world.faults.has('rail-payin-fingerprint-ignored')) {
          const k = `${scopeOf(caller)}\u0000${String(req.headers['idempotency-key'])}`;
          let first = firstPayInByKey.get(k);
          if (!first) firstPayInByKey.set(k, (first = Promise.resolve().then(() => fn())));
          return first;
        }
        const validate = () => validateBody(world, jsonObject(req), kind);
        return railKeyRecords(world, kind, caller, req, () => world.idempotent(caller, req, scope, { required: !keyOptional, validate }, () => fn()));
      };
      return handle(async (again = false) => {
        const body = jsonObject(req);
        // Fault: another partner's quote and session are found, not 404 (or 403).
        const anyTenant = kind === 'pay_out' && world.faults.has('rail-payout-foreign-quote-redeemable');
        // Reading (gate.rails.validationOrder '404-first'): a well-formed quote_id is looked up before the body's other fields are checked.
        const wellFormedId = typeof body.quote_id === 'string' && body.quote_id.length <= railIdMax(world, kind);
        if (choiceOf(world.profile, 'gate.rails.validationOrder') === '404-first' && !anyTenant && wellFormedId)
          ownQuote(world, caller, body.quote_id as string);
        validateBody(world, body, kind);
        const q: SignedQuote = (anyTenant && quotes(world).get(body.quote_id as string)) || ownQuote(world, caller, body.quote_id as string);
        // Fault: a missing gate_session_id is taken from the quote.
        const sessionId = (body.gate_session_id as string | undefined) ?? q.gate_session_id;
        const session = world.sessionView((anyTenant && world.sessions.get(sessionId)) || world.session(caller, sessionId));
        const wantSide = kind === 'pay_out' ? 'off_ramp' : 'on_ramp';
        // Fault rail-payout-payin-quote-400: pay-outs take a quote of either side (not shown: allowed), but answer a quote a pay-in consumed with 400.
        const anySide = kind === 'pay_out' && world.faults.has('rail-payout-payin-quote-400');
        if (anySide && [...rails(world).values()].some((r) => r.kind === 'pay_in' && r.quote_id === q.id))
          throw new HttpError(400, 'quote_id names a quote that cannot be paid out', 'quote_invalid');
        if (q.gate_session_id !== sessionId || (q.side !== wantSide && !anySide)) {
          throw new HttpError(400, `quote_id must name an ${wantSide} quote of gate_session_id`, 'quote_mismatch');
        }
        if (session.status !== 'open') throw new HttpError(409, `The session is ${String(session.status)}`, 'session_not_open');
        // Steering fault: a pay-out refused 409 as if its quote were spent, though the quote is active (GET /quotes/{id} says so).
        if (kind === 'pay_out' && world.faults.has('rail-payout-409-active-quote') && quoteState(world, q) === 'active')
          throw new HttpError(409, 'This quote cannot be redeemed', 'quote_not_active');
        // The user is derived from the session: its user_reference, or the session itself when it has none.
        const user = `${scopeOf(caller)}\u0000${typeof session.user_reference === 'string' ? `ref:${session.user_reference}` : `session:${sessionId}`}`;
        const vol = volumes(world);
        const cap = caller.partner.railVolumeCap;
        const capOn = cap !== undefined && !world.faults.has('rail-volume-cap-ignored');
        if (capOn && vol.blocked.has(user)) throw new HttpError(403, 'The account is blocked for future rails pending manual review.', 'account_blocked');
        if (kind === 'pay_in' && world.faults.has('rail-payin-not-redeeming')) {
          if (quoteState(world, q) !== 'active') throw new HttpError(409, 'This quote cannot be redeemed', 'quote_not_active');
        } else {
          // Race faults: the quote was checked active; it is consumed a round trip later without checking again.
          const checked = await railRedeemRaceGap(world.faults, kind, quoteState(world, q));
          redeemQuote(world, q, {
            allowConsumed: again || checked || world.faults.has('quote-consumed-redeemable'),
            allowExpired: world.faults.has('quote-expired-redeemable'),
          });
        }
        // Race fault: the user's total is read, and written with this rail's amount a round trip later.
        const before = vol.total.get(user) ?? '0';
        await raceGap(world.faults, RACE.volumeCap);
        const total = decAdd(before, q.fiat_pay_or_receive);
        vol.total.set(user, total);
        const pushedPastCap = capOn && decGreater(total, cap);
        if (pushedPastCap) vol.blocked.add(user);
        const r: RailRecord = {
          id: world.newId(kind === 'pay_out' ? 'po' : 'pi'),
          scope: scopeOf(caller),
          kind,
          status: 'pending',
          gate_session_id: sessionId,
          quote_id: q.id,
          // Faults: the method is not the quote's (the second one only where the quote shows no method).
          ...termsOf(world, q, kind),
          reference: typeof body.reference === 'string' ? body.reference : null,
          metadata: body.metadata && typeof body.metadata === 'object' ? structuredClone(body.metadata as Record<string, unknown>) : {},
          created_at: world.iso(),
          ...(pushedPastCap ? { accountBlocked: true as const } : {}),
        };
        rails(world).set(r.id, r);
        const status = kind === 'pay_out' && world.faults.has('rail-payout-status-200') ? 200 : 201;
        const made = view(world, r);
        if (kind === 'pay_in' && world.faults.has('rail-payin-create-no-object')) delete made.object;
        if (kind === 'pay_in' && world.faults.has('rail-payin-create-no-provider')) delete made.provider;
        return { status, body: made };
      });
    };
    /**
     * Fault rail-payout-lost-retry-new-object: the first repeat of a pay-out's Idempotency-Key (the retry after a
     * lost answer) is processed as a new pay-out, the quote's single use not enforced for it; later repeats answer
     * that second pay-out. The quote pays out twice, and every answer the client reads looks like the one pay-out.
     */
    function firstRepeatAnew(caller: GateCaller, req: Req, fn: (again?: boolean) => Reply | Promise<Reply>): Promise<Reply> {
      const k = `${scopeOf(caller)}\u0000${String(req.headers['idempotency-key'])}`;
      const seen = payOutByKey.get(k);
      if (seen?.repeated) return seen.reply.then((r) => ({ ...r, headers: { ...(r.headers ?? {}), 'idempotent-replayed': 'true' } }));
      const reply = Promise.resolve().then(() => fn(!!seen));
      payOutByKey.set(k, { reply, repeated: !!seen });
      reply.catch(() => payOutByKey.delete(k));
      return reply;
    }
    router.on('POST', '/rails/pay_ins', create('pay_in'));
    router.on('POST', '/rails/pay_outs', create('pay_out'));

    registerReads(router, world);
  },
};
