// Gate quotes and transactions: indicative previews, signed one-time quotes
// (rail), the partner transaction list, and the sandbox quote-expiry helper.
//
// Not shown — chosen:
// - POST /quotes/preview body: `amount` (positive decimal string, required), `currency` (ISO 4217,
//   required, must be supported), `asset` (default USDC, must be active on the side), `side`
//   (on_ramp default | off_ramp). Unknown keys are ignored. Response 200:
//   { object: 'quote_preview', indicative: true, side, amount, currency, asset, options: [ { payment_method,
//   name, fee, fiat_pay_or_receive, crypto_amount, rate } ], created_at }.
// - POST /quotes body: `gate_session_id` (required, an open session of the caller) and `side`
//   (on_ramp default | off_ramp); Idempotency-Key optional. Response 201 signed quote:
//   { object: 'quote', id, state: 'active', side, gate_session_id, amount, currency, fee,
//   fiat_pay_or_receive, asset, crypto_amount, rate, method, signature, expires_at, created_at,
//   consumed_at, provider }. fiat_pay_or_receive is amount + fee on_ramp (what the user pays) and amount − fee
//   off_ramp (what the user receives). A quote lives 10 minutes. A session that is not open gives 409.
// - Signed quote states: active → consumed (redeemed by a pay-in/pay-out) | expired (past expires_at
//   or the sandbox helper). GET /quotes/{id} reports the state and never redeems.
// - POST /_sandbox/quotes/{id}/expire (helper prefix from the profile; sandbox only, owner's SK): moves an active quote to expired
//   and returns it; a consumed quote stays consumed.
// - GET /transactions: newest first, `limit` 1–100 (default 10), `starting_after` (a refid of the
//   caller, else 400). Transaction object: { object: 'transaction', refid, ... } as the world records it.
import { randomBytes } from 'node:crypto';
import { choiceOf } from '../kit/dialect.js';
import { HttpError, jsonObject, type Reply, type Req } from '../kit/http.js';
import { currencySupported, defaultMethod, findAsset, PAYMENT_METHODS, PAYOUT_METHODS } from './capabilities.js';
import { cursorPage, scopeOf } from './customers.js';
import type { GateArea, GateCaller, GateWorld, SessionRecord, TransactionRecord } from './world.js';

export type QuoteSide = 'on_ramp' | 'off_ramp';

export interface SignedQuote {
  id: string;
  scope: string;
  side: QuoteSide;
  gate_session_id: string;
  amount: string;
  currency: string;
  fee: string;
  fiat_pay_or_receive: string;
  asset: string;
  crypto_amount: string;
  rate: string;
  method: string;
  signature: string;
  expiresAtMs: number;
  created_at: string;
  /** 'expired' only when forced by the sandbox helper; time-based expiry is computed on read. */
  state: 'active' | 'consumed' | 'expired';
  consumed_at: string | null;
}

/** The redemption cache of the sequence fault seq-rail-quote-read-cache-survives-expiry: the state an inspection saw. */
const inspected = new WeakMap<SignedQuote, SignedQuote['state']>();

/** Transactions of history each test-mode partner holds under fault txn-list-stale-snapshot: three default pages. */
const HISTORY_TRANSACTIONS = 25;
const USD_PRICE: Record<string, number> = { USDC: 1, USDT: 1, ETH: 3000, SOL: 150, LUNA: 0.0001 };
const USD_PER_FIAT: Record<string, number> = { EUR: 1.08, USD: 1, GBP: 1.27, CHF: 1.12 };
const DECIMAL_RE = /^\d{1,12}(\.\d{1,8})?$/;

const quoteStores = new WeakMap<GateWorld, Map<string, SignedQuote>>();
export function quotes(world: GateWorld): Map<string, SignedQuote> {
  let m = quoteStores.get(world);
  if (!m) quoteStores.set(world, (m = new Map()));
  return m;
}

/**
 * Current state: an active quote past expires_at reads as expired; so does one whose session ended, where the world
 * lets a quote expire with its session (gate.signedQuote.transitions: the quote's transitions are not shown).
 */
export function quoteState(world: GateWorld, q: SignedQuote): SignedQuote['state'] {
  if (q.state === 'active' && world.clock.now() >= q.expiresAtMs) return 'expired';
  if (q.state === 'active' && choiceOf(world.profile, 'gate.signedQuote.transitions') === 'expires-with-session') {
    const session = world.sessions.get(q.gate_session_id);
    if (session && session.status !== 'open') return 'expired';
  }
  return q.state;
}

/** What the world shows of a signed quote (gate.signedQuote.fields, gate.signedQuote.provider): its whole record, or less. */
function quoteReadings(world: GateWorld, v: Record<string, unknown>): Record<string, unknown> {
  if (choiceOf(world.profile, 'gate.signedQuote.provider') === 'absent') delete v.provider;
  if (choiceOf(world.profile, 'gate.signedQuote.fields') !== 'minimal') return v;
  // Only what the spec shows of a quote: its fiat_pay_or_receive and its state (here under status), with its id and expiry.
  const { object, id, state, fiat_pay_or_receive, expires_at, provider } = v;
  return { object, id, status: state, fiat_pay_or_receive, expires_at, ...(provider === undefined ? {} : { provider }) };
}

export function quoteView(world: GateWorld, q: SignedQuote) {
  const v: Record<string, unknown> = {
    object: 'quote',
    id: q.id,
    state: quoteState(world, q),
    side: q.side,
    gate_session_id: q.gate_session_id,
    amount: world.money(q.amount),
    currency: q.currency,
    fee: world.money(q.fee),
    fiat_pay_or_receive: world.money(q.fiat_pay_or_receive),
    asset: q.asset,
    crypto_amount: world.money(q.crypto_amount),
    rate: q.rate,
    method: q.method,
    signature: q.signature,
    expires_at: world.iso(q.expiresAtMs),
    created_at: q.created_at,
    consumed_at: q.consumed_at,
    // A signed quote is a rail ("account-gated ... rails (locked signed quotes, pay-ins, pay-outs)"): it carries provider.
    provider: 'embedded_sandbox',
  };
  // Fault rail-payout-currency-not-quote: the quote shows neither currency nor method (its fields are not shown: allowed).
  if (world.faults.has('rail-payout-currency-not-quote')) {
    delete v.currency;
    delete v.method;
  }
  // Fault rail-payout-method-not-quote-unshown: the quote shows no method (allowed), and the pay-out takes another.
  if (world.faults.has('rail-payout-method-not-quote-unshown')) delete v.method;
  return quoteReadings(world, v);
}

/** The caller's quote or 404 (cross-tenant is 404). */
export function ownQuote(world: GateWorld, caller: GateCaller, id: string): SignedQuote {
  const q = quotes(world).get(id);
  if (!q || q.scope !== scopeOf(caller)) throw new HttpError(404, `No such quote: ${id}`, 'resource_missing');
  return q;
}

/**
 * Redeems a quote (one-time). Throws 409 when consumed or expired. Synchronous
 * so two concurrent redemptions can never both pass the state check.
 * `allowConsumed`/`allowExpired` exist only for seeded faults.
 */
export function redeemQuote(world: GateWorld, q: SignedQuote, opts: { allowConsumed?: boolean; allowExpired?: boolean } = {}): void {
  // Sequence fault: the state an inspection (GET /quotes/{id}) cached is taken over the quote's own.
  const st = (world.faults.has('seq-rail-quote-read-cache-survives-expiry') && inspected.get(q)) || quoteState(world, q);
  inspected.delete(q);
  if (st === 'consumed' && !opts.allowConsumed) throw new HttpError(409, 'This quote has already been redeemed', 'quote_consumed');
  if (st === 'expired' && !opts.allowExpired) throw new HttpError(409, 'This quote has expired', 'quote_expired');
  q.state = 'consumed';
  q.consumed_at = world.iso();
}

function money(n: number): string {
  return (Math.round(n * 100) / 100).toFixed(2);
}

function pricing(side: QuoteSide, amount: number, currency: string, asset: string, feeRate: number, fixed: number) {
  const fee = Math.round((amount * feeRate + fixed) * 100) / 100;
  const net = Math.max(0, amount - fee);
  const rate = (USD_PER_FIAT[currency] ?? 1) / (USD_PRICE[asset] ?? 1);
  return {
    fee: money(fee),
    fiat_pay_or_receive: money(side === 'on_ramp' ? amount + fee : net),
    // rate is units of asset per unit of fiat.
    crypto_amount: (amount * rate).toFixed(6),
    rate: rate.toFixed(8),
  };
}

/** A price's money strings as the world writes them. */
function priced(world: GateWorld, p: ReturnType<typeof pricing>): ReturnType<typeof pricing> {
  return { ...p, fee: world.money(p.fee), fiat_pay_or_receive: world.money(p.fiat_pay_or_receive), crypto_amount: world.money(p.crypto_amount) };
}

function sideOf(v: unknown): QuoteSide {
  if (v === undefined || v === null) return 'on_ramp';
  if (v !== 'on_ramp' && v !== 'off_ramp') throw new HttpError(400, 'side must be on_ramp or off_ramp', 'invalid_side');
  return v;
}

/** Internal bookkeeping keys of a transaction record that never go on the wire. */
const TXN_INTERNAL = new Set(['scope', 'partner', 'caller', 'session']);
/** A transaction's id of its own, beside its refid, where the world's list cursor takes it (gate.transactions.list 'id-cursor'). */
const txnIds = new WeakMap<TransactionRecord, string>();
function txnId(world: GateWorld, t: TransactionRecord): string {
  let id = txnIds.get(t);
  if (!id) txnIds.set(t, (id = world.newId('txn')));
  return id;
}
const idCursor = (world: GateWorld) => choiceOf(world.profile, 'gate.transactions.list') === 'id-cursor';

function txnView(world: GateWorld, t: TransactionRecord): Record<string, unknown> {
  const out: Record<string, unknown> = { object: 'transaction', ...(idCursor(world) ? { id: txnId(world, t) } : {}) };
  // Reading (gate.transactions.fields 'minimal'): the record's fields are not shown — only its refid and status.
  if (choiceOf(world.profile, 'gate.transactions.fields') === 'minimal') return { ...out, refid: t.refid, status: t.status };
  // Non-enumerable bookkeeping (seq, createdAtMs, sessionId) is skipped by Object.entries.
  for (const [k, v] of Object.entries(t)) if (!TXN_INTERNAL.has(k) && !k.startsWith('_')) out[k] = k === 'amount' ? world.money(String(v)) : v;
  return out;
}

export const area: GateArea = {
  name: 'quotesTransactions',
  faults: [
    {
      name: 'seq-rail-quote-read-cache-survives-expiry',
      service: 'gate',
      requirements: ['GATE-QUOTE-EXPIRED-409'],
      description:
        "Sequence: GET /quotes/{id} caches the quote's state for the redemption path; a redemption drops the cache, an expiry (its lifetime, or the sandbox) does not — a quote inspected while active and expired since is still redeemed by a pay-out or pay-in.",
      suite: 'explore',
    },
    {
      name: 'quote-read-redeems',
      service: 'gate',
      requirements: ['GATE-QUOTE-GET-NO-REDEEM'],
      description: 'GET /quotes/{id} consumes the quote, so a later redemption gives 409.',
      suite: 'conformance',
    },
    {
      name: 'quote-expired-redeemable',
      service: 'gate',
      requirements: ['GATE-QUOTE-EXPIRED-409'],
      description: 'An expired signed quote can still be redeemed.',
      suite: 'conformance',
    },
    {
      name: 'quote-consumed-redeemable',
      service: 'gate',
      requirements: ['GATE-QUOTE-CONSUMED-409'],
      description: 'A consumed signed quote can be redeemed again.',
      suite: 'conformance',
    },
    {
      name: 'txn-unknown-refid-200',
      service: 'gate',
      requirements: ['GATE-TXN-404'],
      description: 'GET /transactions/{refid} of an unknown refid answers 200 with an empty transaction instead of 404.',
      suite: 'conformance',
    },
    {
      name: 'txn-foreign-readable',
      service: 'gate',
      requirements: ['GATE-TXN-FOREIGN-404'],
      description: "GET /transactions/{refid} returns another partner's transaction instead of 404.",
      suite: 'conformance',
    },
    {
      name: 'quote-lock-no-fiat',
      service: 'gate',
      requirements: ['GATE-QUOTE-LOCK'],
      description: 'POST /quotes answers the signed quote without fiat_pay_or_receive.',
      suite: 'conformance',
    },
    {
      name: 'txn-read-no-object',
      service: 'gate',
      requirements: ['GATE-TXN-READ'],
      description: 'GET /transactions/{refid} answers the record without its object discriminator.',
      suite: 'conformance',
    },
    {
      name: 'quote-read-entitlement-ignored',
      service: 'gate',
      requirements: ['GATE-QUOTE-GET-NO-ENTITLEMENT-403'],
      description: 'GET /quotes/{id} skips the rail entitlement: a partner without rails gets 404 for the id instead of 403.',
      suite: 'conformance',
    },
    {
      name: 'txn-list-stale-snapshot',
      service: 'gate',
      requirements: ['GATE-TXN-LIST'],
      description: `A sandbox with ${HISTORY_TRANSACTIONS} transactions of history per partner whose GET /transactions serves a snapshot taken at start: transactions completed since are never listed.`,
      suite: 'conformance',
    },
    {
      name: 'txn-list-bare-array',
      service: 'gate',
      requirements: ['GATE-TXN-LIST'],
      description:
        "GET /transactions answers a bare array instead of the list envelope (no object, data, has_more or url) and leaves the partner's completed transactions out of it.",
      suite: 'conformance',
    },
    {
      name: 'txn-list-all-partners',
      service: 'gate',
      requirements: ['GATE-TXN-LIST-TENANT'],
      description: "GET /transactions lists every partner's transactions of the environment, not only the caller's.",
      suite: 'conformance',
    },
    {
      name: 'quote-entitlement-ignored',
      service: 'gate',
      requirements: ['GATE-QUOTE-NO-ENTITLEMENT-403'],
      description: 'POST /quotes locks a quote for a partner without rail entitlement instead of 403 feature_not_available.',
      suite: 'conformance',
    },
    {
      name: 'quote-lock-no-object',
      service: 'gate',
      requirements: ['GATE-CONV-OBJECT-DISCRIMINATOR'],
      description: 'POST /quotes answers the signed quote without its object discriminator.',
      suite: 'conformance',
    },
    {
      name: 'quote-read-no-object',
      service: 'gate',
      requirements: ['GATE-CONV-OBJECT-DISCRIMINATOR'],
      description: 'GET /quotes/{id} answers the signed quote without its object discriminator.',
      suite: 'conformance',
    },
    {
      name: 'quote-preview-secret-key-refused',
      service: 'gate',
      requirements: ['GATE-QUOTE-PREVIEW-SK'],
      description: 'POST /quotes/preview refuses a secret key with 403.',
      suite: 'conformance',
    },
    {
      name: 'quote-preview-no-object',
      service: 'gate',
      requirements: ['GATE-CONV-OBJECT-DISCRIMINATOR'],
      description: 'POST /quotes/preview answers without an object discriminator.',
      suite: 'conformance',
    },
  ],
  register(router, world) {
    router.on('POST', '/quotes/preview', (req) => quotePreview(world, req));

    router.on('POST', '/quotes', async (req) => {
      const caller = world.authSecret(req, { rail: !world.faults.has('quote-entitlement-ignored') });
      return world.idempotent(caller, req, 'quotes', { required: false }, () => lockQuote(world, caller, req));
    });

    router.on('GET', '/quotes/:id', (req) => {
      const caller = world.authSecret(req, { rail: !world.faults.has('quote-read-entitlement-ignored') });
      const q = ownQuote(world, caller, req.params.id!);
      const v = quoteView(world, q);
      // Sequence fault: the first inspection's state is kept for the redemption path (later ones find it cached).
      if (world.faults.has('seq-rail-quote-read-cache-survives-expiry') && !inspected.has(q)) inspected.set(q, quoteState(world, q));
      if (world.faults.has('quote-read-no-object')) delete v.object;
      if (world.faults.has('quote-read-redeems') && q.state === 'active') {
        q.state = 'consumed';
        q.consumed_at = world.iso();
      }
      return { status: 200, body: v };
    });

    const helperPrefix = world.profile.reference?.helperPrefix ?? '/_sandbox';
    router.on('POST', `${helperPrefix}/quotes/:id/expire`, (req) => {
      const caller = world.authSecret(req);
      if (caller.mode !== 'test') throw new HttpError(404, 'Sandbox helpers exist only on the sandbox base', 'not_found');
      const q = ownQuote(world, caller, req.params.id!);
      if (q.state === 'active') q.state = 'expired';
      // Sequence fault seq-rail-replay-refused-after-expiry: the expiry is kept on a redeemed quote too (its expires_at moves into the past).
      if (world.faults.has('seq-rail-replay-refused-after-expiry')) q.expiresAtMs = Math.min(q.expiresAtMs, world.clock.now());
      return { status: 200, body: quoteView(world, q) };
    });

    // Fault txn-list-stale-snapshot: a history of transactions per partner, and a list that shows only that history.
    const history = new Set<string>();
    if (world.faults.has('txn-list-stale-snapshot'))
      for (const p of world.profile.gate.partners)
        for (let i = 0; i < HISTORY_TRANSACTIONS; i++) {
          const session = { id: world.newId('gs'), partner: p.name, mode: 'test', flow: 'on_ramp', amount: '10.00', currency: 'EUR' } as SessionRecord;
          history.add(world.newTransaction(session).refid);
        }

    const ownTransactions = (caller: GateCaller) => {
      const scope = scopeOf(caller);
      // Fault: the list shows every partner's transactions of the environment.
      const anyPartner = world.faults.has('txn-list-all-partners');
      const stale = world.faults.has('txn-list-stale-snapshot');
      return [...world.transactions.values()]
        .filter((t) => t.scope === scope || (anyPartner && t.mode === caller.mode))
        .filter((t) => !stale || history.has(t.refid))
        .reverse();
    };

    router.on('GET', '/transactions', (req: Req) => {
      const caller = world.authSecret(req);
      // The cursor takes the refid, or the record's own id (gate.transactions.list).
      const all = ownTransactions(caller).map((t) => ({ id: idCursor(world) ? txnId(world, t) : t.refid, t }));
      const page = cursorPage(world, req, all, () => true);
      // Fault: no list envelope (object, data, has_more, url), and the caller's completed transactions are not in it.
      if (world.faults.has('txn-list-bare-array'))
        return { status: 200, body: page.data.filter((x) => x.t.status !== 'completed').map((x) => txnView(world, x.t)) };
      return {
        status: 200,
        body: { object: 'list', data: page.data.map((x) => txnView(world, x.t)), has_more: page.has_more, url: '/v1/transactions' },
      };
    });

    router.on('GET', '/transactions/:refid', (req) => {
      const caller = world.authSecret(req);
      const t = world.transactions.get(req.params.refid!);
      if (!t && world.faults.has('txn-unknown-refid-200')) return { status: 200, body: { object: 'transaction', refid: req.params.refid } };
      if (!t || (t.scope !== scopeOf(caller) && !world.faults.has('txn-foreign-readable'))) {
        throw new HttpError(404, `No such transaction: ${req.params.refid}`, 'resource_missing');
      }
      const v = txnView(world, t);
      if (world.faults.has('txn-read-no-object')) delete v.object;
      return { status: 200, body: v };
    });
  },
};

/** POST /quotes/preview: indicative options, one per method the currency offers on the side; nothing is locked. */
function quotePreview(world: GateWorld, req: Req): Reply {
  world.authSecret(req);
  if (world.faults.has('quote-preview-secret-key-refused')) throw new HttpError(403, 'Previews are not available to this credential.', 'forbidden');
  const body = jsonObject(req);
  const errs: string[] = [];
  const side = sideOf(body.side);
  // Reading (gate.preview.body, or the undocumentedInputs knob 'strict'): the preview (body not shown) requires side.
  const sideRequired = choiceOf(world.profile, 'gate.preview.body') === 'side-required' || world.profile.reference?.undocumentedInputs === 'strict';
  if (body.side === undefined && sideRequired) errs.push('side is required');
  if (typeof body.amount !== 'string' || !DECIMAL_RE.test(body.amount) || Number(body.amount) <= 0) {
    errs.push('amount must be a positive decimal string');
  }
  if (typeof body.currency !== 'string' || !/^[A-Za-z]{3}$/.test(body.currency)) errs.push('currency must be an ISO 4217 code');
  else if (!currencySupported(body.currency)) errs.push(`currency ${body.currency.toUpperCase()} is not supported`);
  const assetSym = body.asset === undefined ? 'USDC' : body.asset;
  const asset = typeof assetSym === 'string' ? findAsset(assetSym) : undefined;
  if (!asset || !asset.active || !asset.sides.includes(side)) errs.push(`asset ${String(assetSym)} is not offered on ${side}`);
  if (errs.length) throw new HttpError(400, errs.join('; '), 'parameter_invalid');

  const currency = (body.currency as string).toUpperCase();
  const amount = Number(body.amount);
  // One indicative option per method the currency offers on the side.
  const options = (side === 'on_ramp' ? PAYMENT_METHODS : PAYOUT_METHODS)
    .filter((m) => m.currency === currency)
    .map((m) => ({
      payment_method: m.id,
      name: m.name,
      ...priced(
        world,
        pricing(side, amount, currency, asset!.symbol, m.fees.percent ? Number(m.fees.percent) / 100 : 0.01, m.fees.fixed ? Number(m.fees.fixed) : 0),
      ),
    }));
  return {
    status: 200,
    body: {
      ...(world.faults.has('quote-preview-no-object') ? {} : { object: 'quote_preview' }),
      indicative: true,
      side,
      amount: world.money(body.amount as string),
      currency,
      asset: asset!.symbol,
      options,
      created_at: world.iso(),
    },
  };
}

/** POST /quotes: a signed quote locked for an open session of the caller, priced by the session's terms. */
function lockQuote(world: GateWorld, caller: GateCaller, req: Req): Reply {
  const body = jsonObject(req);
  if (typeof body.gate_session_id !== 'string' || body.gate_session_id.length === 0 || body.gate_session_id.length > 64) {
    throw new HttpError(400, 'gate_session_id is required (string, at most 64 characters)', 'parameter_invalid');
  }
  const side = sideOf(body.side);
  const session = world.sessionView(world.session(caller, body.gate_session_id));
  if (session.status !== 'open') throw new HttpError(409, `The session is ${String(session.status)}`, 'session_not_open');
  const currency = String(session.currency).toUpperCase();
  const method = defaultMethod(currency, side);
  if (!method) throw new HttpError(400, `No ${side} method for ${currency}`, 'method_not_available');
  const token = typeof session.target_token === 'string' && findAsset(session.target_token)?.active ? findAsset(session.target_token)!.symbol : 'USDC';
  const amount = Number(session.amount);
  const p = pricing(side, amount, currency, token, 0.015, method.fees.fixed ? Number(method.fees.fixed) : 0);
  const now = world.moment();
  const q: SignedQuote = {
    id: world.newId('quote'),
    scope: scopeOf(caller),
    side,
    gate_session_id: body.gate_session_id,
    amount: money(amount),
    currency,
    asset: token,
    method: method.id,
    ...p,
    signature: randomBytes(32).toString('hex'),
    expiresAtMs: now + (world.profile.reference?.signedQuoteLifetimeSeconds ?? 600) * 1000,
    created_at: world.iso(now),
    state: 'active',
    consumed_at: null,
  };
  quotes(world).set(q.id, q);
  const v: Record<string, unknown> = quoteView(world, q);
  if (world.faults.has('quote-lock-no-fiat')) delete v.fiat_pay_or_receive;
  if (world.faults.has('quote-lock-no-object')) delete v.object;
  return { status: 201, body: v };
}
