// Pools trades: the Trade resource (the all-in rate judged exactly) and the
// trades list (limit, order, cursor walk, date bounds, filters).
import { check, defineSuite, type CheckTools, type RequirementId } from '../../src/runner/check.js';
import type { PoolsActor } from '../../src/needs/define.js';
import { StoredQuote, TradesPage, type Trade } from '../../src/model/schemas/pools/index.js';
import { POOLS_LIMITS } from '../../src/model/limits.js';
import { parseIso8601DateTime } from '../../src/model/schemas/timestamps.js';
import { expect2xx } from '../../support/expect.js';
import { expectPoolsError } from '../../support/pools/errors.js';
import {
  allInRateHolds,
  cheapOrderAmount,
  decCmp,
  decEq,
  decMul,
  pollToTerminal,
  poolsProfile,
  quotePath,
  readBalance,
  readTrade,
  reservedTrade,
} from '../../support/pools/pools.js';

type Query = Record<string, string | number | undefined>;

/** A cursor no reading calls well-formed, percent-encoded as sent: a NUL, then bytes that start no UTF-8 sequence. */
const NOT_TEXT_CURSOR = '%00%FF%FE%C0';

const ids = (ts: Trade[]) => ts.map((x) => x.transactId);
/** Epoch ms of a createdAt the Trade schema accepted (ISO 8601, extended or basic format). */
const timeOf = (iso: string) => parseIso8601DateTime(iso) ?? NaN;

async function page(t: CheckTools, actor: PoolsActor, query: Query, requirement: RequirementId) {
  const ex = expect2xx(t, await actor.client.get('/pools/trades', query), requirement, 'GET /pools/trades');
  return { ex, page: t.expect.schema(ex, TradesPage, requirement) };
}

/**
 * Follow nextCursor with the same filters; bounded by `maxPages`. Each
 * nextCursor must be a transactId: of a trade on the page it ends or on the
 * page it opens (which of the two is not shown).
 */
async function walk(t: CheckTools, actor: PoolsActor, query: Query, maxPages: number, requirement: RequirementId): Promise<Trade[]> {
  const out: Trade[] = [];
  let cursor: string | undefined;
  let ended: Trade[] = [];
  for (let i = 0; i < maxPages; i++) {
    const { ex, page: p } = await page(t, actor, { ...query, cursor }, requirement);
    t.expect.that(p.data.length <= Number(query.limit), `a page holds at most limit=${query.limit} trades`, {
      requirement: 'POOLS-TRADES-LIMIT-EDGES',
      actual: p.data.length,
      exchange: ex,
    });
    if (cursor !== undefined) {
      t.expect.that(
        [...ended, ...p.data].some((x) => x.transactId === cursor),
        `nextCursor ${cursor} is a transactId of the page it ends or the page it opens`,
        {
          requirement: 'POOLS-TRADES-CURSOR-IS-TRANSACT-ID',
          actual: { cursor, ended: ids(ended), opened: ids(p.data) },
          exchange: ex,
        },
      );
    }
    ended = p.data;
    out.push(...p.data);
    if (!p.hasMore) {
      t.expect.equal(p.nextCursor, null, 'nextCursor is null when hasMore is false', { requirement: 'POOLS-TRADES-NEXTCURSOR-NULL', exchange: ex });
      return out;
    }
    t.expect.that(typeof p.nextCursor === 'string' && p.nextCursor.length > 0, 'hasMore true comes with a nextCursor', { requirement, exchange: ex });
    cursor = p.nextCursor!;
  }
  t.expect.that(false, `the cursor walk ends within ${maxPages} pages`, { requirement });
  return out;
}

export default defineSuite({
  service: 'pools',
  section: 'Endpoints > Trades list query',
  checks: [
    check({
      name: "a trade carries its documented fields, the quoted pool and legs, totalBps = spreadBps + feeBps, the all-in rate (cryptoAmount = fiatAmount × quotedRate, exactly), the network locked at quote time and the firm quote's price",
      requirements: ['POOLS-TRADES-SHAPE', 'POOLS-TRADES-TOTAL-BPS', 'POOLS-TRADES-RATE-OUTPUT-PER-INPUT', 'POOLS-TX-FIRM-PRICE'],
      needs: ['poolsPartner'],
      async run({ poolsPartner: actor }, t: CheckTools) {
        const made = await reservedTrade(t, actor, 'POOLS-TRADES-SHAPE');
        const trade = await readTrade(t, actor, made.transactId, 'POOLS-TRADES-SHAPE');
        t.expect.equal(trade.transactId, made.transactId, 'transactId', { requirement: 'POOLS-TRADES-SHAPE' });
        t.expect.equal(trade.quoteId, made.quoteId, 'quoteId', { requirement: 'POOLS-TRADES-SHAPE' });
        t.expect.equal(trade.side, 'on_ramp', 'side is the quoted side', { requirement: 'POOLS-TRADES-SHAPE' });
        t.expect.equal(trade.totalBps, trade.spreadBps + trade.feeBps, 'totalBps = spreadBps + feeBps', { requirement: 'POOLS-TRADES-TOTAL-BPS' });
        // All-in, output per input (on_ramp: crypto per fiat): the exact product, rounded to cryptoAmount's own places either way, and nothing looser.
        const rate = allInRateHolds(trade.fiatAmount, trade.quotedRate, trade.cryptoAmount);
        t.expect.that(rate.ok, 'cryptoAmount = fiatAmount × quotedRate, rounded to the decimal places of cryptoAmount (on_ramp, all-in rate)', {
          requirement: 'POOLS-TRADES-RATE-OUTPUT-PER-INPUT',
          expected: `${rate.accepted.join(' or ')} (${trade.fiatAmount} × ${trade.quotedRate} = ${rate.product})`,
          actual: trade.cryptoAmount,
        });
        const sqEx = expect2xx(t, await actor.client.get(quotePath(made.quoteId)), 'POOLS-TRADES-SHAPE');
        const sq = t.expect.schema(sqEx, StoredQuote, 'POOLS-TRADES-SHAPE');
        t.expect.equal(trade.cryptoNetwork, sq.cryptoNetwork, 'the trade keeps the network locked at quote time', {
          requirement: 'POOLS-TRADES-SHAPE',
          exchange: sqEx,
        });
        t.expect.equal(trade.poolId, sq.poolId, 'the trade is on the quoted pool', { requirement: 'POOLS-TRADES-SHAPE', exchange: sqEx });
        t.expect.equal(trade.pair, sq.pair, 'the trade names the quoted pair', { requirement: 'POOLS-TRADES-SHAPE', exchange: sqEx });
        const legs = poolsProfile(t).quote;
        t.expect.equal(
          { fiatCurrency: trade.fiatCurrency.toUpperCase(), cryptoCurrency: trade.cryptoCurrency.toUpperCase() },
          { fiatCurrency: legs.fiatCurrency.toUpperCase(), cryptoCurrency: legs.cryptoCurrency.toUpperCase() },
          'the trade legs are the quoted ones',
          { requirement: 'POOLS-TRADES-SHAPE' },
        );
        // A firm quote is executable at its price: the trade is the stored quote's, to the unit.
        const F = 'POOLS-TX-FIRM-PRICE';
        t.expect.that(decEq(trade.fiatAmount, sq.fiatAmount) && decEq(trade.cryptoAmount, sq.cryptoAmount), "the trade amounts are the firm quote's", {
          requirement: F,
          expected: { fiatAmount: sq.fiatAmount, cryptoAmount: sq.cryptoAmount },
          actual: { fiatAmount: trade.fiatAmount, cryptoAmount: trade.cryptoAmount },
          exchange: sqEx,
        });
        t.expect.that(decEq(trade.quotedRate, sq.rate), "quotedRate is the firm quote's rate", {
          requirement: F,
          expected: sq.rate,
          actual: trade.quotedRate,
          exchange: sqEx,
        });
        t.expect.equal(
          { spreadBps: trade.spreadBps, feeBps: trade.feeBps },
          { spreadBps: sq.spreadBps, feeBps: sq.feeBps },
          "the trade bps are the firm quote's",
          { requirement: F, exchange: sqEx },
        );
        t.observe('pools-quote-product', decMul(sq.fiatAmount, sq.rate));
      },
    }),
    check({
      name: 'trades list newest first; a limit=1 cursor walk within inclusive date bounds has no duplicate and no gap; filters hold across pages',
      requirements: [
        'POOLS-TRADES-LIST-SHAPE',
        'POOLS-TRADES-NEWEST-FIRST',
        'POOLS-TRADES-CURSOR-WALK',
        'POOLS-TRADES-CURSOR-IS-TRANSACT-ID',
        'POOLS-TRADES-NEXTCURSOR-NULL',
        'POOLS-TRADES-DATE-INCLUSIVE',
        'POOLS-TRADES-LIMIT-EDGES',
        'POOLS-TRADES-FILTERS',
        'POOLS-TRADES-TOTAL-BPS',
      ],
      needs: ['poolsPartner'],
      async run({ poolsPartner: actor }, t: CheckTools) {
        const made: Trade[] = [];
        for (let i = 0; i < 3; i++) {
          const r = await reservedTrade(t, actor, 'POOLS-TRADES-CURSOR-WALK');
          made.push(await readTrade(t, actor, r.transactId, 'POOLS-TRADES-CURSOR-WALK'));
          // Distinct createdAt values make the newest-first order observable: createdAt's precision is not shown, so
          // a target stamping whole seconds gets trades more than a second apart.
          if (i < 2) await t.sleep(/[.,]\d/.test(made[i]!.createdAt) ? 20 : 1_100, 'distinct trade timestamps', 'harness');
        }
        // The upper bound is inclusive: wait out its stamp's resolution, so a trade another check makes meanwhile on this
        // partner is stamped after it (a whole-second stamp is shared by every trade of that second).
        await t.sleep(/[.,]\d/.test(made[2]!.createdAt) ? 20 : 1_100, "past the upper bound's stamp", 'harness');
        const bounds = { created_after: made[0]!.createdAt, created_before: made[2]!.createdAt };
        const { ex: fullEx, page: full } = await page(t, actor, { ...bounds, limit: POOLS_LIMITS.trades.limitMax }, 'POOLS-TRADES-LIST-SHAPE');
        for (const m of made) {
          t.expect.that(
            full.data.some((x) => x.transactId === m.transactId),
            `trade created at ${m.createdAt} is inside the inclusive bounds`,
            {
              requirement: 'POOLS-TRADES-DATE-INCLUSIVE',
              exchange: fullEx,
            },
          );
        }
        for (const x of full.data) {
          const at = timeOf(x.createdAt);
          t.expect.that(at >= timeOf(bounds.created_after) && at <= timeOf(bounds.created_before), 'every listed trade is within the bounds', {
            requirement: 'POOLS-TRADES-DATE-INCLUSIVE',
            actual: x.createdAt,
            exchange: fullEx,
          });
          t.expect.equal(x.totalBps, x.spreadBps + x.feeBps, `totalBps of ${x.transactId}`, { requirement: 'POOLS-TRADES-TOTAL-BPS', exchange: fullEx });
        }
        for (let i = 1; i < full.data.length; i++) {
          t.expect.that(timeOf(full.data[i - 1]!.createdAt) >= timeOf(full.data[i]!.createdAt), 'trades are listed newest first', {
            requirement: 'POOLS-TRADES-NEWEST-FIRST',
            actual: full.data.map((x) => x.createdAt),
            exchange: fullEx,
          });
        }
        const mine = full.data.filter((x) => made.some((m) => m.transactId === x.transactId));
        // createdAt is the ordering key: trades that share one may come in either order (not shown), observed.
        const stamps = made.map((m) => timeOf(m.createdAt));
        if (new Set(stamps).size === made.length)
          t.expect.equal(ids(mine), ids([...made].sort((a, b) => timeOf(b.createdAt) - timeOf(a.createdAt))), 'our three trades come newest first', {
            requirement: 'POOLS-TRADES-NEWEST-FIRST',
            exchange: fullEx,
          });
        else
          t.observe(
            'pools-trades-shared-created-at',
            { createdAt: made.map((m) => m.createdAt), listed: ids(mine) },
            'the order of trades with one createdAt is not shown',
          );
        if (!full.hasMore)
          t.expect.equal(full.nextCursor, null, 'nextCursor is null when hasMore is false', { requirement: 'POOLS-TRADES-NEXTCURSOR-NULL', exchange: fullEx });

        const walked = await walk(t, actor, { ...bounds, limit: 1 }, full.data.length + 2, 'POOLS-TRADES-CURSOR-WALK');
        t.expect.equal(ids(walked), ids(full.data), 'the limit=1 walk yields the full page, in order, with no duplicate and no gap', {
          requirement: 'POOLS-TRADES-CURSOR-WALK',
        });

        // The poll alone moves the oldest trade out of reserved, so the status filter has something to leave out.
        const moved = made[0]!;
        const path = await pollToTerminal(t, actor, moved.quoteId, 'POOLS-TRADES-FILTERS');
        if (path.at(-1) === 'reserved')
          t.unverified(`polling GET /pools/transactions/{quoteId} ${path.length} times left the trade reserved: the status filter had nothing to leave out`);
        t.observe('pools-poll-outcome-without-trigger', path);
        const filtered = await walk(t, actor, { ...bounds, limit: 1, side: 'on_ramp', status: 'reserved' }, full.data.length + 2, 'POOLS-TRADES-FILTERS');
        t.expect.that(!filtered.some((x) => x.transactId === moved.transactId), `status=reserved leaves out the trade now ${path.at(-1)}`, {
          requirement: 'POOLS-TRADES-FILTERS',
          actual: ids(filtered),
        });
        for (const x of filtered) {
          t.expect.that(x.side === 'on_ramp' && x.status === 'reserved', 'side and status filters hold on every page', {
            requirement: 'POOLS-TRADES-FILTERS',
            actual: { transactId: x.transactId, side: x.side, status: x.status },
          });
        }
        t.expect.that(new Set(ids(filtered)).size === filtered.length, 'the filtered walk has no duplicate', { requirement: 'POOLS-TRADES-FILTERS' });
        for (const m of made.slice(1)) {
          t.expect.that(
            filtered.some((x) => x.transactId === m.transactId),
            'our reserved on_ramp trades match the filters',
            { requirement: 'POOLS-TRADES-FILTERS', actual: m.transactId },
          );
        }
        const { ex: offEx, page: off } = await page(t, actor, { ...bounds, limit: POOLS_LIMITS.trades.limitMax, side: 'off_ramp' }, 'POOLS-TRADES-FILTERS');
        t.expect.that(
          off.data.every((x) => x.side === 'off_ramp'),
          'side=off_ramp lists only off_ramp trades',
          { requirement: 'POOLS-TRADES-FILTERS', exchange: offEx },
        );
        t.expect.that(!off.data.some((x) => made.some((m) => m.transactId === x.transactId)), 'side=off_ramp leaves out our on_ramp trades', {
          requirement: 'POOLS-TRADES-FILTERS',
          exchange: offEx,
        });
      },
    }),
    check({
      name: 'trades list limit: 0 and 101 give 400 invalid_limit, 100 is accepted, the default page holds exactly 50 of 51 or more trades',
      requirements: [
        'POOLS-TRADES-LIMIT-INVALID-400',
        'POOLS-TRADES-LIMIT-EDGES',
        'POOLS-TRADES-LIMIT-DEFAULT',
        'POOLS-TRADES-LIST-SHAPE',
        'POOLS-ERR-ENVELOPE',
      ],
      needs: ['poolsPartner'],
      // Runs last: the trades other checks made for the partner count towards the 51 the default page needs.
      late: true,
      async run({ poolsPartner: actor }, t: CheckTools) {
        const { min, max, def } = { min: POOLS_LIMITS.trades.limitMin, max: POOLS_LIMITS.trades.limitMax, def: POOLS_LIMITS.trades.limitDefault };
        for (const limit of [min - 1, max + 1]) {
          expectPoolsError(t, await actor.client.get('/pools/trades', { limit }), 400, {
            code: 'invalid_limit',
            requirement: 'POOLS-TRADES-LIMIT-INVALID-400',
          });
        }
        // The default (50) shows only with more than 50 trades: top the partner up to def + 1, sized to what it can afford.
        const { page: before } = await page(t, actor, { limit: def + 1 }, 'POOLS-TRADES-LIMIT-DEFAULT');
        const missing = def + 1 - before.data.length;
        if (missing > 0) {
          const order = await cheapOrderAmount(t, actor, 'POOLS-TRADES-LIMIT-DEFAULT');
          const cost = decMul(order.amount, String(missing));
          const { balance } = await readBalance(t, actor, 'POOLS-TRADES-LIMIT-DEFAULT');
          if (balance !== null && decCmp(balance, cost) < 0) {
            t.unverified(
              `the partner holds ${before.data.length} trades; the ${missing} more a full default page needs cost ${cost} (orders of ${order.amount}, pool minimum ${order.minOrderUsdt} USDT) but the balance is ${balance}: fund the partner`,
            );
          }
          for (let i = 0; i < missing; i++) await reservedTrade(t, actor, 'POOLS-TRADES-LIMIT-DEFAULT', { amount: order.amount });
          t.observe('pools-trades-created-for-default-page', { trades: missing, amount: order.amount, cost });
        }
        const { ex: maxEx, page: atMax } = await page(t, actor, { limit: max }, 'POOLS-TRADES-LIMIT-EDGES');
        t.expect.that(atMax.data.length <= max, `limit=${max} bounds the page`, {
          requirement: 'POOLS-TRADES-LIMIT-EDGES',
          actual: atMax.data.length,
          exchange: maxEx,
        });
        t.expect.that(atMax.data.length > def, `limit=${max} lists more than the default ${def} of the partner's ${def + 1}+ trades`, {
          requirement: 'POOLS-TRADES-LIMIT-EDGES',
          actual: atMax.data.length,
          exchange: maxEx,
        });
        const { ex: oneEx, page: one } = await page(t, actor, { limit: min }, 'POOLS-TRADES-LIMIT-EDGES');
        t.expect.equal(one.data.length, min, `limit=${min} holds exactly ${min} trade`, { requirement: 'POOLS-TRADES-LIMIT-EDGES', exchange: oneEx });
        const { ex: defEx, page: dflt } = await page(t, actor, {}, 'POOLS-TRADES-LIMIT-DEFAULT');
        // Trades only accumulate, and the partner holds more than the default: the default page is exactly the default.
        t.expect.equal(dflt.data.length, def, `the default page holds ${def} trades`, { requirement: 'POOLS-TRADES-LIMIT-DEFAULT', exchange: defEx });
        t.expect.equal(dflt.hasMore, true, `the default page of ${def + 1}+ trades says hasMore`, {
          requirement: 'POOLS-TRADES-LIMIT-DEFAULT',
          exchange: defEx,
        });
        t.observe('pools-trades-default-page', { defaultPage: dflt.data.length, atLimit100: atMax.data.length });
      },
    }),
    check({
      name: 'an unparseable date filter gives 400',
      requirements: ['POOLS-TRADES-DATE-INVALID-400', 'POOLS-ERR-ENVELOPE'],
      needs: ['poolsPartner'],
      async run({ poolsPartner: actor }, t: CheckTools) {
        for (const q of [{ created_after: 'not-a-date' }, { created_before: '2026-13-45T99:99:99Z' }]) {
          expectPoolsError(t, await actor.client.get('/pools/trades', q), 400, { requirement: 'POOLS-TRADES-DATE-INVALID-400' });
        }
      },
    }),
    check({
      name: "a cursor this partner never issued (another partner's transactId) gives an empty page; a cursor of bytes that are no text gives 400; one only some formats call malformed gives 400 or an empty page",
      requirements: ['POOLS-TRADES-UNKNOWN-CURSOR', 'POOLS-TRADES-MALFORMED-CURSOR', 'POOLS-ERR-ENVELOPE'],
      needs: ['poolsPartner', 'poolsOtherTenant'],
      async run({ poolsPartner: actor, poolsOtherTenant: other }, t: CheckTools) {
        // The partner has a trade of its own, so a cursor that is wrongly ignored shows up as a non-empty page.
        await reservedTrade(t, actor, 'POOLS-TRADES-UNKNOWN-CURSOR');
        const foreign = await reservedTrade(t, other, 'POOLS-TRADES-UNKNOWN-CURSOR');
        const { ex, page: p } = await page(t, actor, { cursor: foreign.transactId, limit: 10 }, 'POOLS-TRADES-UNKNOWN-CURSOR');
        t.expect.equal(p.data.length, 0, 'an unknown cursor yields an empty page', { requirement: 'POOLS-TRADES-UNKNOWN-CURSOR', exchange: ex });
        t.expect.equal(p.hasMore, false, 'an empty page has no more', { requirement: 'POOLS-TRADES-UNKNOWN-CURSOR', exchange: ex });
        t.expect.equal(p.nextCursor, null, 'an empty page has no nextCursor', { requirement: 'POOLS-TRADES-UNKNOWN-CURSOR', exchange: ex });

        // Malformed in every reading: percent-encoded bytes that are no UTF-8 text (a NUL, then bytes no UTF-8 sequence
        // holds). A transactId reaches the partner as a JSON string, so no nextCursor can ever be this value: 400.
        const broken = await actor.client.get(`/pools/trades?cursor=${NOT_TEXT_CURSOR}&limit=10`);
        expectPoolsError(t, broken, 400, { requirement: 'POOLS-TRADES-MALFORMED-CURSOR' });

        const bad = await actor.client.get('/pools/trades', { cursor: '%%% not a cursor %%%', limit: 10 });
        // Text a transactId might or might not use: malformed (400) or unknown (an empty page), as the format the spec does not fix says.
        if (bad.status === 400) {
          expectPoolsError(t, bad, 400, { requirement: 'POOLS-TRADES-MALFORMED-CURSOR' });
          t.observe('pools-malformed-cursor', '400');
        } else {
          expect2xx(t, bad, 'POOLS-TRADES-MALFORMED-CURSOR', 'GET /pools/trades with a malformed cursor (400, or an empty page)');
          const b = t.expect.schema(bad, TradesPage, 'POOLS-TRADES-MALFORMED-CURSOR');
          t.expect.equal(b.data.length, 0, 'a malformed cursor never yields trades', { requirement: 'POOLS-TRADES-MALFORMED-CURSOR', exchange: bad });
          t.observe('pools-malformed-cursor', 'empty page');
        }
      },
    }),
  ],
});
