// Status polling (GET /pools/transactions/{quoteId}, which advances
// settlement) and the pure trade reads (GET /pools/trades and
// GET /pools/trades/{transactId}, which never do).
import { choiceOf } from '../kit/dialect.js';
import { HttpError, type Req } from '../kit/http.js';
import { parse } from './money.js';
import { idShaped } from './wire.js';
import type { Caller, PoolsArea, PoolsWorld, TradeRecord } from './world.js';
import { afterPoll, indexedCreatedAt, tradeRead } from './blindTradeCopies.js';
import { refundOnStaleRead } from './raceFaults.js';

const TRADE_STATUSES = ['quoted', 'reserved', 'settled', 'released', 'failed', 'returned'];
/** What no transactId can hold: control characters, or U+FFFD where the query's bytes were not UTF-8. */
const MALFORMED_CURSOR = /[\u0000-\u001f\u007f\ufffd]/;

/** Polls each reserved trade has had (pools.poll.advance 'second-poll': the first keeps it reserved). */
const pollsWhileReserved = new WeakMap<TradeRecord, number>();

/** One settlement step, as a poll discovers it. */
function advance(world: PoolsWorld, caller: Caller, t: TradeRecord): void {
  const f = world.faults;
  const outcome = world.outcomes.get(t.quoteId) ?? 'settled';
  const now = world.stamp();
  const st = world.state(caller);
  if (t.status === 'reserved') {
    // Reading (pools.poll.advance 'second-poll'): settlement progresses on the first poll and ends on a later one.
    const polls = (pollsWhileReserved.get(t) ?? 0) + 1;
    pollsWhileReserved.set(t, polls);
    if (polls < 2 && choiceOf(world.profile, 'pools.poll.advance') === 'second-poll') return;
    if (outcome === 'settled' || outcome === 'returned') {
      t.status = 'settled';
      t.settledAtMs = now;
      t.engineFillTxId = world.newId('fill');
      if (!f.has('pools-settled-event-missing')) world.emitTradeEvent(t, 'pool.transaction.settled');
      if (f.has('pools-event-id-per-poll')) world.emitTradeEvent(t, 'pool.transaction.settled');
      // Reading (pools.poll.returnedPath 'at-once'): the return is discovered by the same poll, which reads returned.
      // (The never-reached fault keeps it settled here too, as it keeps every settled trade from its return.)
      if (outcome === 'returned' && choiceOf(world.profile, 'pools.poll.returnedPath') === 'at-once' && !f.has('pools-returned-never-reached'))
        returnTrade(world, st, t);
    } else {
      // released unwinds the reservation: the debit comes back; failed too, unless (reading pools.trade.failedUnwinds 'keeps') it keeps it.
      t.status = outcome;
      const keeps =
        (outcome === 'released' && f.has('pools-release-keeps-reservation')) ||
        (outcome === 'failed' && choiceOf(world.profile, 'pools.trade.failedUnwinds') === 'keeps');
      if (!keeps && t.reserved !== 0n) world.post(st, 'reservation_release', t.reserved, t);
      if (outcome === 'failed' && !f.has('pools-failed-event-missing')) world.emitTradeEvent(t, 'pool.transaction.failed');
      if (outcome === 'released' && !f.has('pools-released-event-missing')) world.emitTradeEvent(t, 'pool.transaction.released');
    }
    return;
  }
  // The reopening fault lets a released reservation settle on a later poll.
  if (t.status === 'released' && f.has('pools-released-then-settles')) {
    t.status = 'settled';
    t.settledAtMs = now;
    return;
  }
  if ((f.has('pools-event-id-per-poll') || f.has('pools-settled-event-refired-on-repoll')) && t.status === 'settled' && outcome === 'settled')
    world.emitTradeEvent(t, 'pool.transaction.settled');
  if (outcome === 'returned' && (t.status === 'settled' || (t.status === 'returned' && f.has('pools-refund-twice')))) returnTrade(world, st, t);
}

/** The bank returned the payout: an automatic, idempotent refund and no webhook. */
function returnTrade(world: PoolsWorld, st: ReturnType<PoolsWorld['state']>, t: TradeRecord): void {
  const f = world.faults;
  t.status = 'returned';
  if (!t.refunded || f.has('pools-refund-twice')) {
    t.refunded = true;
    world.post(st, 'buy_refund', parse(t.fiatAmount), t);
  }
  if (f.has('pools-webhook-on-returned')) world.emitEvent(t.partner, t.mode, 'pool.transaction.returned', world.tradeView(t));
  // Fault: the returned webhook names only an internal reference (the payload shape is not shown), never the trade or its quote.
  if (f.has('pools-returned-webhook-anonymous')) world.emitEvent(t.partner, t.mode, 'pool.transaction.returned', { reference: world.newId('ret') });
}

/**
 * The status the trades list filters on: the trade's own, or under the sequence fault seq-pools-trades-status-index-misses-unwind
 * an index written by transact and by the settling poll only — a poll that unwinds the reservation (released, failed) leaves it reserved.
 */
function indexedStatus(world: PoolsWorld, t: TradeRecord): string {
  const unwound = t.status === 'released' || t.status === 'failed';
  return unwound && world.faults.has('seq-pools-trades-status-index-misses-unwind') ? 'reserved' : t.status;
}

function dateBound(req: Req, name: string, lenient: boolean): number | null {
  const v = req.query.get(name);
  if (v === null) return null;
  // ISO 8601 / RFC 3339: 't' and 'z' may be lowercase, a leap second reads as the second before.
  const ms = /^\d{4}-\d{2}-\d{2}/.test(v) ? Date.parse(v.toUpperCase().replace(/(T\d{2}:\d{2}):60/, '$1:59')) : NaN;
  if (Number.isNaN(ms)) {
    if (lenient) return null;
    throw new HttpError(400, `${name} must be an ISO 8601 date-time.`, 'invalid_date');
  }
  return ms;
}

function listTrades(world: PoolsWorld, req: Req) {
  const f = world.faults;
  const caller = world.auth(req);
  const rawLimit = req.query.get('limit');
  let limit = f.has('pools-trades-default-limit-20') ? 20 : 50;
  if (rawLimit !== null) {
    const n = /^-?\d+$/.test(rawLimit) ? Number(rawLimit) : NaN;
    const max = f.has('pools-trades-limit-max-99') ? 99 : 100;
    if (!Number.isInteger(n) || n < 1 || n > max) {
      if (!f.has('pools-trades-limit-unchecked')) throw new HttpError(400, 'limit must be an integer from 1 to 100.', 'invalid_limit');
    } else limit = n;
  }
  const side = req.query.get('side');
  if (side !== null && side !== 'on_ramp' && side !== 'off_ramp') throw new HttpError(400, 'side must be on_ramp or off_ramp.', 'parameter_invalid');
  const status = req.query.get('status');
  if (status !== null && !TRADE_STATUSES.includes(status)) throw new HttpError(400, `status must be one of ${TRADE_STATUSES.join(', ')}.`, 'parameter_invalid');
  const lenient = f.has('pools-trades-bad-date-ignored');
  const after = dateBound(req, 'created_after', lenient);
  const before = dateBound(req, 'created_before', lenient);
  const opaque = f.has('pools-trades-cursor-opaque');
  const rawCursor = req.query.get('cursor');
  // The opaque-cursor fault hands out c<base64url(transactId)> and reads it back.
  const cursor = opaque && rawCursor?.startsWith('c') ? Buffer.from(rawCursor.slice(1), 'base64url').toString('utf8') : rawCursor;
  // The spec fixes no cursor format: a cursor this partner was never handed is unknown (an empty page). Malformed is
  // what no transactId can be: text with control characters, or bytes that are not text at all.
  let malformed = false;
  // Reading (pools.trades.malformedCursor 'not-id-shaped'): any cursor not shaped like a transactId is malformed.
  const strict = choiceOf(world.profile, 'pools.trades.malformedCursor') === 'not-id-shaped';
  if (cursor !== null && (MALFORMED_CURSOR.test(cursor) || (strict && !idShaped(cursor, 'ptx')))) {
    // Fault: a malformed cursor is looked up like any other, found nowhere, and answered with an empty page.
    if (f.has('pools-trades-malformed-cursor-empty-page')) return { data: [], nextCursor: null, hasMore: false };
    if (!f.has('pools-trades-malformed-cursor-ignored'))
      throw new HttpError(400, 'cursor is malformed: pass nextCursor from the previous page.', 'invalid_cursor');
    malformed = true;
  }
  const exclusive = f.has('pools-trades-date-exclusive');
  let all = [...world.trades.values()].filter(
    (t) =>
      (t.partner === caller.partner.name || f.has('pools-trades-cross-partner')) &&
      t.mode === caller.mode &&
      (side === null || t.side === side) &&
      (status === null || f.has('pools-trades-status-filter-ignored') || indexedStatus(world, t) === status) &&
      (after === null || (exclusive ? t.createdAtMs > after : indexedCreatedAt(world, t) >= after)) &&
      (before === null || (exclusive ? t.createdAtMs < before : indexedCreatedAt(world, t) <= before)),
  );
  // Newest first; equal createdAt in creation order, or (reading pools.trades.tieOrder 'transact-id-desc') by transactId.
  const byId = choiceOf(world.profile, 'pools.trades.tieOrder') === 'transact-id-desc';
  const newestFirst = (a: TradeRecord, b: TradeRecord) =>
    byId ? b.createdAtMs - a.createdAtMs || (a.transactId < b.transactId ? 1 : a.transactId > b.transactId ? -1 : 0) : b.seq - a.seq;
  all.sort((a, b) => (f.has('pools-trades-oldest-first') ? a.seq - b.seq : newestFirst(a, b)));
  let start = 0;
  if (cursor !== null && !malformed) {
    const i = all.findIndex((t) => t.transactId === cursor);
    // An unknown cursor (never issued to this partner under these filters) yields an empty page.
    start = i === -1 ? (f.has('pools-trades-unknown-cursor-restarts') ? 0 : all.length) : f.has('pools-trades-cursor-repeats') ? i : i + 1;
  }
  all = all.slice(start);
  const data = all.slice(0, limit);
  const hasMore = all.length > limit;
  const last = data[data.length - 1];
  const nextId = hasMore || (f.has('pools-trades-next-cursor-at-end') && last) ? last!.transactId : null;
  const nextCursor = nextId !== null && opaque ? `c${Buffer.from(nextId, 'utf8').toString('base64url')}` : nextId;
  return { data: data.map((t) => world.tradeView(t)), nextCursor, hasMore };
}

export const area: PoolsArea = {
  name: 'trades',
  faults: [
    {
      name: 'seq-pools-trades-status-index-misses-unwind',
      service: 'pools',
      requirements: ['POOLS-TRADES-FILTERS'],
      description:
        'Sequence: GET /pools/trades filters on a status index written by transact and by the poll that settles a trade, not by the poll that unwinds its reservation — a released or failed trade (reading so, and listed so unfiltered) is still listed under status=reserved and missed by its own status.',
      suite: 'explore',
    },
    {
      name: 'pools-trade-created-at-local',
      service: 'pools',
      requirements: ['POOLS-TRADES-SHAPE'],
      description: 'Trades carry createdAt as "2026-12-01 10:00:00.123": no T, no UTC designator or offset (Date.parse reads it as local time).',
      suite: 'conformance',
    },
    {
      name: 'pools-poll-does-not-advance',
      service: 'pools',
      requirements: ['POOLS-POLL-ADVANCES'],
      description: 'Polling GET /pools/transactions/{quoteId} never advances a reserved trade.',
      suite: 'conformance',
    },
    {
      name: 'pools-trade-read-advances',
      service: 'pools',
      requirements: ['POOLS-POLL-PURE-READS'],
      description: 'GET /pools/trades/{transactId} advances settlement like the poll.',
      suite: 'conformance',
    },
    {
      name: 'pools-poll-status-unknown',
      service: 'pools',
      requirements: ['POOLS-POLL-STATUS'],
      description: 'The poll answers status "complete" for a settled trade, outside the trade status enum.',
      suite: 'conformance',
    },
    {
      name: 'pools-refund-twice',
      service: 'pools',
      requirements: ['POOLS-BAL-RETURNED-REFUND', 'POOLS-LEDGER-BUY-REFUND'],
      description: 'Every poll of a returned trade credits the refund again.',
      suite: 'conformance',
    },
    {
      name: 'pools-returned-never-reached',
      service: 'pools',
      requirements: ['POOLS-POLL-RETURNED'],
      description: 'A settled trade whose payout came back stays settled (returned is never discovered).',
      suite: 'conformance',
    },
    {
      name: 'pools-webhook-on-returned',
      service: 'pools',
      requirements: ['POOLS-EVT-NO-RETURNED-WEBHOOK'],
      description: 'A returned trade fires a pool.transaction.returned webhook.',
      suite: 'conformance',
    },
    {
      name: 'pools-returned-webhook-anonymous',
      service: 'pools',
      requirements: ['POOLS-EVT-NO-RETURNED-WEBHOOK'],
      description:
        'A returned trade fires a pool.transaction.returned webhook whose payload names neither the trade nor its quote (an internal reference only).',
      suite: 'conformance',
    },
    {
      name: 'pools-settled-event-missing',
      service: 'pools',
      requirements: ['POOLS-EVT-SETTLED'],
      description: 'No pool.transaction.settled webhook when a trade settles.',
      suite: 'conformance',
    },
    {
      name: 'pools-failed-event-missing',
      service: 'pools',
      requirements: ['POOLS-EVT-FAILED'],
      description: 'No pool.transaction.failed webhook when a trade fails.',
      suite: 'conformance',
    },
    {
      name: 'pools-released-event-missing',
      service: 'pools',
      requirements: ['POOLS-EVT-RELEASED'],
      description: 'No pool.transaction.released webhook when a reservation is released.',
      suite: 'conformance',
    },
    {
      name: 'pools-event-signed-with-other-secret',
      service: 'pools',
      requirements: ['POOLS-EVT-SIGNED'],
      description:
        'Pools events carry a Gate-Signature made with another secret than the partner’s webhookSecret (caught where the profile declares pools.webhookSignature: gate).',
      suite: 'conformance',
    },
    {
      name: 'pools-event-id-per-poll',
      service: 'pools',
      requirements: ['POOLS-EVT-EVENT-ID'],
      description: 'The settled event is sent again under a new eventId on every poll.',
      suite: 'conformance',
    },
    {
      name: 'pools-settled-event-refired-on-repoll',
      service: 'pools',
      requirements: ['POOLS-EVT-EVENT-ID'],
      description: 'A settled trade polled again fires pool.transaction.settled again under a new eventId (the settlement itself fires one).',
      suite: 'conformance',
    },
    {
      name: 'pools-trades-limit-unchecked',
      service: 'pools',
      requirements: ['POOLS-TRADES-LIMIT-INVALID-400'],
      description: 'limit outside 1–100 is ignored instead of 400 invalid_limit.',
      suite: 'conformance',
    },
    {
      name: 'pools-trades-limit-max-99',
      service: 'pools',
      requirements: ['POOLS-TRADES-LIMIT-EDGES'],
      description: 'limit=100 is refused with 400 (the bound is off by one).',
      suite: 'conformance',
    },
    {
      name: 'pools-trades-default-limit-20',
      service: 'pools',
      requirements: ['POOLS-TRADES-LIMIT-DEFAULT'],
      description: 'The default page holds 20 trades instead of 50.',
      suite: 'conformance',
    },
    {
      name: 'pools-trades-oldest-first',
      service: 'pools',
      requirements: ['POOLS-TRADES-NEWEST-FIRST'],
      description: 'Trades are listed oldest first.',
      suite: 'conformance',
    },
    {
      name: 'pools-trades-cursor-repeats',
      service: 'pools',
      requirements: ['POOLS-TRADES-CURSOR-WALK'],
      description: 'The page after a cursor starts with the cursor trade again (duplicates across pages).',
      suite: 'conformance',
    },
    {
      name: 'pools-trades-next-cursor-at-end',
      service: 'pools',
      requirements: ['POOLS-TRADES-NEXTCURSOR-NULL'],
      description: 'nextCursor is set on the last page although hasMore is false.',
      suite: 'conformance',
    },
    {
      name: 'pools-trades-unknown-cursor-restarts',
      service: 'pools',
      requirements: ['POOLS-TRADES-UNKNOWN-CURSOR'],
      description: 'An unknown cursor returns page one instead of an empty page.',
      suite: 'conformance',
    },
    {
      name: 'pools-trades-malformed-cursor-empty-page',
      service: 'pools',
      requirements: ['POOLS-TRADES-MALFORMED-CURSOR'],
      description: 'A malformed cursor (even bytes that are no text) is answered with an empty page, as an unknown cursor is, instead of 400.',
      suite: 'conformance',
    },
    {
      name: 'pools-trades-malformed-cursor-ignored',
      service: 'pools',
      requirements: ['POOLS-TRADES-MALFORMED-CURSOR'],
      description: 'A malformed cursor is ignored and page one is returned.',
      suite: 'conformance',
    },
    {
      name: 'pools-trades-date-exclusive',
      service: 'pools',
      requirements: ['POOLS-TRADES-DATE-INCLUSIVE'],
      description: 'created_after and created_before are exclusive bounds.',
      suite: 'conformance',
    },
    {
      name: 'pools-trades-bad-date-ignored',
      service: 'pools',
      requirements: ['POOLS-TRADES-DATE-INVALID-400'],
      description: 'An unparseable date filter is ignored instead of 400.',
      suite: 'conformance',
    },
    {
      name: 'pools-trades-status-filter-ignored',
      service: 'pools',
      requirements: ['POOLS-TRADES-FILTERS'],
      description: 'The status filter is ignored.',
      suite: 'conformance',
    },
    {
      name: 'pools-trades-cross-partner',
      service: 'pools',
      requirements: ['POOLS-TRADES-PARTNER-SCOPED'],
      description: "The trades list includes other partners' trades.",
      suite: 'conformance',
    },
    {
      name: 'pools-trade-read-missing-pair',
      service: 'pools',
      requirements: ['POOLS-TRADES-SHAPE'],
      description: 'GET /pools/trades/{transactId} answers the trade without its pair field.',
      suite: 'conformance',
    },
    {
      name: 'pools-trades-list-has-more-string',
      service: 'pools',
      requirements: ['POOLS-TRADES-LIST-SHAPE'],
      description: 'GET /pools/trades answers hasMore as the string "true"/"false" instead of a boolean.',
      suite: 'conformance',
    },
    {
      name: 'pools-released-then-settles',
      service: 'pools',
      requirements: ['POOLS-POLL-TERMINAL-FINAL'],
      description: 'A released trade settles on a later poll (released is not terminal).',
      suite: 'conformance',
    },
    {
      name: 'pools-release-keeps-reservation',
      service: 'pools',
      requirements: ['POOLS-BAL-RELEASED-UNWOUND'],
      description: 'A released trade keeps its reservation: the balance never gets the amount back.',
      suite: 'conformance',
    },
    {
      name: 'pools-trades-cursor-opaque',
      service: 'pools',
      requirements: ['POOLS-TRADES-CURSOR-IS-TRANSACT-ID'],
      description: 'nextCursor is an opaque token (base64 of the transactId) instead of a transactId.',
      suite: 'conformance',
    },
    {
      name: 'pools-total-bps-spread-only',
      service: 'pools',
      requirements: ['POOLS-TRADES-TOTAL-BPS'],
      description: 'totalBps reports spreadBps only, not spreadBps + feeBps.',
      suite: 'conformance',
    },
    {
      name: 'pools-settled-repoll-fails',
      service: 'pools',
      requirements: ['POOLS-POLL-TERMINAL-FINAL'],
      description: 'A settled trade polled again moves on to failed (settlement runs again).',
      suite: 'conformance',
    },
  ],
  register(router, world) {
    const f = world.faults;

    router.on('GET', '/pools/transactions/:quoteId', async (req) => {
      const caller = world.auth(req);
      const q = world.quote(caller, req.params.quoteId!);
      const t = world.tradeByQuote.get(q.quoteId);
      // A quote never transacted has no trade to report (not shown; chosen: 404).
      if (!t) throw new HttpError(404, `No trade for quote ${q.quoteId}.`, 'trade_not_found');
      const returnHidden = f.has('pools-returned-never-reached') && t.status === 'settled';
      // Race fault: a return decided on what this poll read, and refunded a round trip later.
      const raced = await refundOnStaleRead(world, caller, t);
      // Fault: a settled trade polled again is settled anew, and this time the settlement fails.
      if (!raced && f.has('pools-settled-repoll-fails') && t.status === 'settled' && (world.outcomes.get(t.quoteId) ?? 'settled') === 'settled')
        t.status = 'failed';
      else if (!raced && !f.has('pools-poll-does-not-advance') && !returnHidden) advance(world, caller, t);
      afterPoll(world, t);
      // Reading (pools.poll.fields 'status-only'): the poll answers the trade's status alone.
      const view = world.tradeView(t);
      const body: Record<string, unknown> = choiceOf(world.profile, 'pools.poll.fields') === 'status-only' ? { status: view.status } : { ...view };
      if (f.has('pools-poll-status-unknown') && t.status === 'settled') body.status = 'complete';
      return { status: 200, body };
    });

    router.on('GET', '/pools/trades', (req) => {
      const body = listTrades(world, req);
      return { status: 200, body: f.has('pools-trades-list-has-more-string') ? { ...body, hasMore: String(body.hasMore) } : body };
    });

    router.on('GET', '/pools/trades/:transactId', (req) => {
      const caller = world.auth(req);
      const t = world.trade(caller, req.params.transactId!);
      if (f.has('pools-trade-read-advances')) advance(world, caller, t);
      const body = tradeRead(world, t, world.tradeView(t));
      if (f.has('pools-trade-read-missing-pair')) delete body.pair;
      return { status: 200, body };
    });
  },
};
