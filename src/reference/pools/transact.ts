// POST /pools/{id}/transact: one-time transact against a firm quote. The
// Idempotency-Key is required; transact is idempotent on quoteId (endpoint
// rule 3); the fiat amount is reserved from the pre-funded balance; the
// delivery address comes from the quote, never from this body.
import { createHash } from 'node:crypto';
import { choiceOf } from '../kit/dialect.js';
import { HttpError, jsonObject, type Reply } from '../kit/http.js';
import { format, lessBps, mul, parse } from './money.js';
import { PRICING } from './pricing.js';
import type { Caller, PoolsArea, PoolsWorld, QuoteRecord, TradeRecord } from './world.js';
import { heldKeyRecord } from './blindTradeCopies.js';
import { debitDeferred, POOLS_RACE, poolsRaceGap, velocityRaceGap } from './raceFaults.js';

const DAY_MS = 24 * 60 * 60 * 1000;

interface IdemEntry {
  fingerprint: string;
  reply: Reply;
}

/**
 * The velocity window's own clock per partner and mode: the sandbox helper moves it forward (its trades age as
 * if the time had passed), and each trade is stamped on it when made. Kept here, beside the cap it serves.
 */
interface VelocityClock {
  /** How far the partner's window runs ahead of the world's clock. */
  aheadMs: number;
  /** Each trade's time on this clock (transactId → ms). */
  stamps: Map<string, number>;
  /** Fault pools-velocity-fixed-window: where the current fixed 24 h window began. */
  windowStartMs?: number;
}
const velocityClocks = new WeakMap<PoolsWorld, Map<string, VelocityClock>>();

function velocityClock(world: PoolsWorld, caller: Caller): VelocityClock {
  let m = velocityClocks.get(world);
  if (!m) velocityClocks.set(world, (m = new Map()));
  const key = `${caller.partner.name}\u0000${caller.mode}`;
  let c = m.get(key);
  if (!c) m.set(key, (c = { aheadMs: 0, stamps: new Map() }));
  return c;
}

/** Sandbox: age the partner's velocity window by `ms` (POST {helperPrefix}/velocity/advance). */
export function advanceVelocity(world: PoolsWorld, caller: Caller, ms: number): void {
  velocityClock(world, caller).aheadMs += ms;
}

/** Rolling 24 h notional of the partner's trades, for the velocity cap. */
function notional24h(world: PoolsWorld, caller: Caller): bigint {
  const c = velocityClock(world, caller);
  const now = world.clock.now() + c.aheadMs;
  let since = now - DAY_MS;
  // Faults: the notional never rolls (every trade counts); a fixed window from its first trade, reset whole after 24 h.
  if (world.faults.has('pools-velocity-never-rolls')) since = -Infinity;
  if (world.faults.has('pools-velocity-fixed-window')) {
    if (c.windowStartMs === undefined || now - c.windowStartMs >= DAY_MS) c.windowStartMs = now;
    since = c.windowStartMs - 1;
  }
  let sum = 0n;
  for (const t of world.trades.values()) {
    if (t.partner !== caller.partner.name || t.mode !== caller.mode) continue;
    if ((c.stamps.get(t.transactId) ?? t.createdAtMs) > since) sum += parse(t.fiatAmount);
  }
  return sum;
}

function createTrade(world: PoolsWorld, caller: Caller, q: QuoteRecord, bodyAddress: unknown): TradeRecord {
  const t: TradeRecord = {
    transactId: world.newId('ptx'),
    quoteId: q.quoteId,
    partner: caller.partner.name,
    mode: caller.mode,
    poolId: q.poolId,
    side: q.side,
    status: 'reserved',
    cryptoNetwork: q.cryptoNetwork,
    destAddress: world.faults.has('pools-address-from-transact-body') && typeof bodyAddress === 'string' ? bodyAddress : q.destAddress,
    fiatAmount: q.fiatAmount,
    cryptoAmount: q.cryptoAmount,
    quotedRate: q.rate,
    ...(world.faults.has('pools-trade-reprices') ? repriced(world, q) : {}),
    spreadBps: q.spreadBps,
    feeBps: q.feeBps,
    engineFillTxId: null,
    createdAtMs: world.stamp(),
    settledAtMs: null,
    seq: world.nextSeq(),
    refunded: false,
    reserved: 0n,
  };
  world.trades.set(t.transactId, t);
  const vc = velocityClock(world, caller);
  vc.stamps.set(t.transactId, world.clock.now() + vc.aheadMs);
  world.tradeByQuote.set(q.quoteId, t);
  q.consumedAtMs = t.createdAtMs;
  const st = world.state(caller);
  // Fault: the reservation draws nothing from the balance (the trade is never paid for).
  t.reserved = world.faults.has('pools-reserve-draws-nothing') ? 0n : reservationOf(world, q.fiatAmount);
  if (t.reserved !== 0n && !debitDeferred(world.faults)) world.post(st, 'buy_debit', -t.reserved, t);
  return t;
}

/**
 * What a reservation draws: the trade's fiat amount, or (reading reference.poolsBalanceFees; the spec states no amount)
 * that plus the draw fee, drawFeeBps of it.
 */
export function reservationOf(world: PoolsWorld, fiatAmount: string): bigint {
  const amount = parse(fiatAmount);
  return world.profile.reference?.poolsBalanceFees ? amount + (amount * BigInt(PRICING.feeBps)) / 10_000n : amount;
}

/** The re-pricing fault: the trade executes 5 bps below the firm quote's rate (its own arithmetic still holds). */
function repriced(world: PoolsWorld, q: QuoteRecord): { cryptoAmount: string; quotedRate: string } {
  const rate = format(lessBps(parse(q.rate), 5), 10);
  const places = world.pool(q.poolId)!.cryptoDecimals;
  return q.side === 'on_ramp'
    ? { quotedRate: rate, cryptoAmount: format(mul(parse(q.fiatAmount), parse(rate)), places) }
    : { quotedRate: rate, cryptoAmount: q.cryptoAmount };
}

/** transact's answer: the whole trade, or (reading pools.transact.fields 'three-fields') only the three fields shown. */
function tradeReply(world: PoolsWorld, t: TradeRecord, status: number): Reply {
  const view = world.tradeView(t);
  if (choiceOf(world.profile, 'pools.transact.fields') === 'whole-trade') return { status, body: view };
  return { status, body: { transactId: view.transactId, quoteId: view.quoteId, status: view.status } };
}

/** Trades a balance read has posted (the sequence fault seq-pools-other-key-transact-draws-again). */
export const postedByBalanceRead = new WeakSet<TradeRecord>();

export const area: PoolsArea = {
  name: 'transact',
  faults: [
    {
      name: 'seq-pools-other-key-transact-draws-again',
      service: 'pools',
      requirements: ['POOLS-TX-OTHER-KEY-SAME-QUOTE'],
      description:
        "Sequence: once the balance has been read after a trade was made, a transact of its consumed quote under another Idempotency-Key answers the existing trade (rule 3; or 409, the state table's reading) but draws its reserve from the balance again — the balance read posts the pending reservation to the ledger total, and this path, finding none pending, posts a new one: one trade, two debits (transacts racing on one quote, with no balance read between, draw once).",
      suite: 'explore',
    },
    {
      name: 'pools-idempotency-key-optional',
      service: 'pools',
      requirements: ['POOLS-TX-IDEMPOTENCY-KEY-REQUIRED'],
      description: 'Transact without an Idempotency-Key is accepted.',
      suite: 'conformance',
    },
    {
      name: 'pools-idempotency-conflict-undetected',
      service: 'pools',
      requirements: ['POOLS-TX-KEY-CONFLICT-409'],
      description: 'The same Idempotency-Key with a different body replays the first trade instead of 409.',
      suite: 'conformance',
    },
    {
      name: 'pools-replay-new-trade',
      service: 'pools',
      requirements: ['POOLS-TX-REPLAY-SAME-TRADE'],
      description: 'A retry with the same key and body answers 409 instead of the existing trade.',
      suite: 'conformance',
    },
    {
      name: 'pools-consumed-quote-second-trade',
      service: 'pools',
      requirements: ['POOLS-TX-OTHER-KEY-SAME-QUOTE', 'POOLS-TX-QUOTE-CONSUMED'],
      description: 'A consumed quote transacted with another key creates a second trade.',
      suite: 'conformance',
    },
    {
      name: 'pools-transact-race-double-trade',
      service: 'pools',
      requirements: ['POOLS-TX-RACE-UNDER-LOAD', 'POOLS-TX-CONCURRENT-SINGLE-USE'],
      description: 'Concurrent transacts on one quote each create a trade (check and create are not atomic).',
      suite: 'load',
    },
    {
      name: 'pools-transact-expired-accepted',
      service: 'pools',
      requirements: ['POOLS-TTL-TRANSACT-AFTER-EXPIRY-409', 'POOLS-TTL-UNDER-LOAD', 'POOLS-TTL-UNDER-NETWORK-FAULTS'],
      description: 'An expired quote can still be transacted (TTL not enforced).',
      suite: 'conformance',
    },
    {
      name: 'pools-quote-expires-early',
      service: 'pools',
      requirements: ['POOLS-TTL-TRANSACT-BEFORE-EXPIRY'],
      description: 'A firm quote is treated as expired 3 s before its expiresAt: transact just before expiry gives 409.',
      suite: 'conformance',
    },
    {
      name: 'pools-transact-rejected-accepted',
      service: 'pools',
      requirements: ['POOLS-SQ-TRANSACT-REJECTED-409'],
      description: 'A rejected quote can still be transacted.',
      suite: 'conformance',
    },
    {
      name: 'pools-insufficient-balance-accepted',
      service: 'pools',
      requirements: ['POOLS-TX-INSUFFICIENT-402'],
      description: 'Transact beyond the pre-funded balance is accepted (the balance goes negative).',
      suite: 'conformance',
    },
    {
      name: 'pools-off-ramp-accepted',
      service: 'pools',
      requirements: ['POOLS-TX-OFF-RAMP-501'],
      description: 'off_ramp transact is accepted for a partner without off_ramp enabled.',
      suite: 'conformance',
    },
    {
      name: 'pools-address-from-transact-body',
      service: 'pools',
      requirements: ['POOLS-ADDR-LOCKED-AT-QUOTE'],
      description: 'A destAddress in the transact body replaces the address locked at quote time.',
      suite: 'conformance',
    },
    {
      name: 'pools-velocity-cap-ignored',
      service: 'pools',
      requirements: ['POOLS-VEL-CAP-429'],
      description: 'The velocity cap is never enforced.',
      suite: 'conformance',
    },
    {
      name: 'pools-velocity-429-below-cap',
      service: 'pools',
      requirements: ['POOLS-VEL-CAP-429'],
      description: 'The velocity cap answers 429 one trade early: while the notional with the trade would still be within the cap.',
      suite: 'conformance',
    },
    {
      name: 'pools-velocity-counts-retries',
      service: 'pools',
      requirements: ['POOLS-VEL-RETRY-EXCLUDED'],
      description: 'Idempotent retries count against the velocity cap and get 429 once it is reached.',
      suite: 'conformance',
    },
    {
      name: 'pools-reserve-draws-nothing',
      service: 'pools',
      requirements: ['POOLS-BAL-RESERVE-DEBIT'],
      description: 'Transact reserves nothing: the trade never draws on the pre-funded balance.',
      suite: 'conformance',
    },
    {
      name: 'pools-replay-debits-again',
      service: 'pools',
      requirements: ['POOLS-TX-RETRY-ONE-DEBIT'],
      description: 'A retry with the same Idempotency-Key answers the same trade but debits the balance again.',
      suite: 'chaos',
    },
    {
      name: 'pools-event-on-reserve',
      service: 'pools',
      requirements: ['POOLS-EVT-TERMINAL-ONLY'],
      description: 'Transact fires a pool.transaction.reserved webhook for the non-terminal reserved trade.',
      suite: 'conformance',
    },
    {
      name: 'pools-off-ramp-enabled-501',
      service: 'pools',
      requirements: ['POOLS-TX-OFF-RAMP-ENABLED'],
      description: 'off_ramp transact gives 501 even for a partner with off_ramp enabled.',
      suite: 'conformance',
    },
    {
      name: 'pools-velocity-default-cap',
      service: 'pools',
      requirements: ['POOLS-VEL-OFF-BY-DEFAULT'],
      description: 'Partners without a configured velocity cap get a default 200.00 EUR rolling 24 h cap.',
      suite: 'conformance',
    },
    {
      name: 'pools-trade-reprices',
      service: 'pools',
      requirements: ['POOLS-TX-FIRM-PRICE'],
      description: 'Transact re-prices the trade 5 bps below the firm quote (quotedRate and cryptoAmount differ from the stored quote).',
      suite: 'conformance',
    },
    {
      name: 'pools-transact-status-quoted',
      service: 'pools',
      requirements: ['POOLS-TX-RESERVED'],
      description: 'Transact answers the trade with status quoted instead of reserved.',
      suite: 'conformance',
    },
    {
      name: 'pools-velocity-never-rolls',
      service: 'pools',
      requirements: ['POOLS-VEL-ROLLING-24H'],
      description: 'The velocity notional never rolls: every trade the partner ever made counts against the cap.',
      suite: 'conformance',
    },
    {
      name: 'pools-velocity-fixed-window',
      service: 'pools',
      requirements: ['POOLS-VEL-ROLLING-24H'],
      description: 'The velocity window is fixed, not rolling: it starts at a trade and resets whole 24 h later, forgetting trades younger than a day.',
      suite: 'conformance',
    },
  ],
  register(router, world) {
    const f = world.faults;
    const idem = new Map<string, IdemEntry>();

    router.on('POST', '/pools/:id/transact', async (req) => {
      const { caller, pool } = world.authEntitled(req, req.params.id!);
      const key = req.headers['idempotency-key'];
      const keyStr = typeof key === 'string' && key.length > 0 ? key : null;
      if (!keyStr && !f.has('pools-idempotency-key-optional'))
        throw new HttpError(400, 'Idempotency-Key header is required for transact.', 'idempotency_key_required');
      const b = jsonObject(req);
      const fingerprint = createHash('sha256')
        .update(`${pool.id}\n${JSON.stringify(b.quoteId ?? null)}`)
        .digest('hex');
      const idemKey = keyStr ? `${caller.partner.name}\u0000${caller.mode}\u0000${keyStr}` : null;
      const prior = idemKey ? heldKeyRecord(world, idem.get(idemKey)) : undefined;
      if (prior) {
        if (prior.fingerprint !== fingerprint && !f.has('pools-idempotency-conflict-undetected')) {
          throw new HttpError(409, 'This Idempotency-Key was used with a different request body.', 'idempotency-conflict');
        }
        if (f.has('pools-replay-new-trade')) throw new HttpError(409, 'The quote was already consumed.', 'quote_consumed');
        const replayed = world.tradeByQuote.get(String(b.quoteId));
        if (f.has('pools-velocity-counts-retries')) checkVelocity(world, caller, replayed?.fiatAmount ?? '0');
        if (f.has('pools-replay-debits-again')) {
          const t = world.tradeByQuote.get(String(b.quoteId));
          if (t) world.post(world.state(caller), 'buy_debit', -t.reserved, t);
        }
        // Reading (pools.transact.replay 'trade-now'): the existing trade as it is now, not the original response.
        if (replayed && choiceOf(world.profile, 'pools.transact.replay') === 'trade-now') return tradeReply(world, replayed, prior.reply.status);
        return prior.reply;
      }
      // Any string is a quote id to look up (an empty or unknown one is 404); only a missing or non-string one is malformed.
      if (typeof b.quoteId !== 'string') throw new HttpError(400, 'quoteId is required.', 'parameter_missing');
      const q = world.quote(caller, b.quoteId);
      if (q.poolId !== pool.id) throw new HttpError(400, `Quote ${q.quoteId} belongs to pool ${q.poolId}, not ${pool.id}.`, 'quote_pool_mismatch');
      const status = world.quoteStatus(q);
      const existing = world.tradeByQuote.get(q.quoteId);
      // Endpoint rule 3 (chosen over the state table's 409): a consumed quote answers its existing trade. Reading
      // pools.transact.consumedNewKey '409', the state table: a terminal quote gives 409.
      if (status === 'consumed' && existing && !f.has('pools-consumed-quote-second-trade')) {
        // Sequence fault: the reserve is drawn again on this path, whichever answer it gives (the same key's replay path draws nothing).
        if (f.has('seq-pools-other-key-transact-draws-again') && existing.reserved !== 0n && postedByBalanceRead.has(existing))
          world.post(world.state(caller), 'buy_debit', -existing.reserved, existing);
        if (choiceOf(world.profile, 'pools.transact.consumedNewKey') === '409')
          throw new HttpError(409, `Quote ${q.quoteId} was already consumed.`, 'quote_consumed');
        return remember(idem, idemKey, fingerprint, tradeReply(world, existing, 200));
      }
      if (status === 'rejected' && !f.has('pools-transact-rejected-accepted')) throw new HttpError(409, `Quote ${q.quoteId} was rejected.`, 'quote_rejected');
      if (status === 'expired' && !f.has('pools-transact-expired-accepted')) throw new HttpError(409, `Quote ${q.quoteId} has expired.`, 'quote_expired');
      if (q.side === 'off_ramp') {
        const enabled = caller.partner.offRamp && !f.has('pools-off-ramp-enabled-501');
        if (!enabled && !f.has('pools-off-ramp-accepted'))
          throw new HttpError(501, 'off_ramp is not enabled for this partner, pool or environment.', 'off_ramp_not_enabled');
        // Enabled off_ramp sells from the partner crypto balance, which only deposits to cryptoDepositAddress fund; the sandbox has none.
        if (caller.partner.offRamp)
          throw new HttpError(402, 'Insufficient crypto balance: send crypto to cryptoDepositAddress first.', 'insufficient_crypto_balance');
      }
      if (!f.has('pools-velocity-cap-ignored')) checkVelocity(world, caller, q.fiatAmount);
      // Race fault: a capped partner's notional was checked; the trade is made a round trip later.
      const velocityGap = velocityRaceGap(f, caller);
      if (velocityGap) await velocityGap;
      const st = world.state(caller);
      if (st.balance < reservationOf(world, q.fiatAmount) && !f.has('pools-insufficient-balance-accepted')) {
        throw new HttpError(402, 'Insufficient pre-funded balance to reserve this trade.', 'insufficient_balance');
      }
      // The race fault yields between check and create, so concurrent transacts both pass the check.
      if (f.has('pools-transact-race-double-trade')) await new Promise((r) => setTimeout(r, 25));
      const t = createTrade(world, caller, q, b.destAddress);
      // Race fault: the balance was checked and the trade made; its debit is posted a round trip later.
      if (debitDeferred(f) && t.reserved !== 0n) {
        await poolsRaceGap(f, POOLS_RACE.balance);
        world.post(st, 'buy_debit', -t.reserved, t);
      }
      if (f.has('pools-event-on-reserve')) world.emitEvent(t.partner, t.mode, 'pool.transaction.reserved', world.tradeView(t));
      // Reading (pools.transact.status): 201 Created, or 200.
      const reply = tradeReply(world, t, choiceOf(world.profile, 'pools.transact.status') === '200' ? 200 : 201);
      if (f.has('pools-transact-status-quoted')) (reply.body as Record<string, unknown>).status = 'quoted';
      return remember(idem, idemKey, fingerprint, reply);
    });
  },
};

function checkVelocity(world: PoolsWorld, caller: Caller, amount: string): void {
  // Off by default; the default-cap fault gives every partner without one a cap of 200.00.
  const cap = caller.partner.velocityCap ?? (world.faults.has('pools-velocity-default-cap') ? '200.00' : undefined);
  if (!cap) return;
  // The premature fault counts the trade twice, so the cap bites one trade early.
  const counted = world.faults.has('pools-velocity-429-below-cap') ? 2n * parse(amount) : parse(amount);
  if (notional24h(world, caller) + counted > parse(cap)) {
    throw new HttpError(429, `The rolling 24-hour notional velocity cap (${cap} EUR) would be exceeded.`, 'velocity_cap_exceeded');
  }
}

function remember(idem: Map<string, IdemEntry>, key: string | null, fingerprint: string, reply: Reply): Reply {
  if (key) idem.set(key, { fingerprint, reply });
  return reply;
}
