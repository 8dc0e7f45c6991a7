// Pools trades: the Trade resource and the trades list (limit, order, cursor
// walk, date bounds, filters).
import { defineSuite, type CheckContext, type PoolsActor } from '../../src/runner/check.js';
import { StoredQuote, TradesPage, type Trade } from '../../src/model/schemas/pools/index.js';
import { POOLS_LIMITS } from '../../src/model/limits.js';
import { poolsProfile, quotePath, readTrade, reservedTrade, settleTo } from './support/pools.js';

/** Relative slack for rounding between cryptoAmount and fiatAmount × quotedRate; an inverted rate is far outside it. */
const RATE_TOLERANCE = 0.001;
const decimals = (s: string) => (s.split('.')[1] ?? '').length;

type Query = Record<string, string | number | undefined>;

async function page(ctx: CheckContext, actor: PoolsActor, query: Query, requirement: string) {
  const ex = ctx.expect.status(await actor.client.get('/pools/trades', query), 200, requirement);
  return { ex, page: ctx.expect.schema(ex, TradesPage, requirement) };
}

/** Follow nextCursor with the same filters; bounded by `maxPages`. */
async function walk(ctx: CheckContext, actor: PoolsActor, query: Query, maxPages: number, requirement: string): Promise<Trade[]> {
  const out: Trade[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < maxPages; i++) {
    const { ex, page: p } = await page(ctx, actor, { ...query, cursor }, requirement);
    ctx.expect.that(p.data.length <= Number(query.limit), `a page holds at most limit=${query.limit} trades`, { requirement: 'POOLS-TRADES-LIMIT-EDGES', exchange: ex });
    out.push(...p.data);
    if (!p.hasMore) {
      ctx.expect.equal(p.nextCursor, null, 'nextCursor is null when hasMore is false', { requirement: 'POOLS-TRADES-NEXTCURSOR-NULL', exchange: ex });
      return out;
    }
    ctx.expect.that(typeof p.nextCursor === 'string' && p.nextCursor.length > 0, 'hasMore true comes with a nextCursor', { requirement, exchange: ex });
    cursor = p.nextCursor!;
  }
  ctx.expect.that(false, `the cursor walk ends within ${maxPages} pages`, { requirement });
  return out;
}

const ids = (ts: Trade[]) => ts.map((t) => t.transactId);

export default defineSuite({
  service: 'pools',
  section: 'Endpoints > Trades list query',
  checks: [
    {
      name: 'a trade carries its documented fields, totalBps = spreadBps + feeBps, and the network locked at quote time',
      requirements: ['POOLS-TRADES-SHAPE', 'POOLS-TRADES-TOTAL-BPS', 'POOLS-TRADES-RATE-OUTPUT-PER-INPUT'],
      needs: ['pools.partner'],
      async run(ctx: CheckContext) {
        const actor = ctx.pools.partner();
        const made = await reservedTrade(ctx, actor, 'POOLS-TRADES-SHAPE');
        const t = await readTrade(ctx, actor, made.transactId, 'POOLS-TRADES-SHAPE');
        ctx.expect.equal(t.transactId, made.transactId, 'transactId', { requirement: 'POOLS-TRADES-SHAPE' });
        ctx.expect.equal(t.quoteId, made.quoteId, 'quoteId', { requirement: 'POOLS-TRADES-SHAPE' });
        ctx.expect.equal(t.side, 'on_ramp', 'side is the quoted side', { requirement: 'POOLS-TRADES-SHAPE' });
        ctx.expect.equal(t.totalBps, t.spreadBps + t.feeBps, 'totalBps = spreadBps + feeBps', { requirement: 'POOLS-TRADES-TOTAL-BPS' });
        // Output per input, all-in: only rounding of cryptoAmount separates it from fiatAmount × quotedRate.
        const product = Number(t.fiatAmount) * Number(t.quotedRate);
        ctx.expect.that(Math.abs(Number(t.cryptoAmount) - product) <= Math.max(product * RATE_TOLERANCE, 10 ** -decimals(t.cryptoAmount)), 'cryptoAmount = fiatAmount × quotedRate (on_ramp)', {
          requirement: 'POOLS-TRADES-RATE-OUTPUT-PER-INPUT',
          expected: product,
          actual: t.cryptoAmount,
        });
        const sq = ctx.expect.schema(ctx.expect.status(await actor.client.get(quotePath(made.quoteId)), 200, 'POOLS-TRADES-SHAPE'), StoredQuote, 'POOLS-TRADES-SHAPE');
        ctx.expect.equal(t.cryptoNetwork, sq.cryptoNetwork, 'the trade keeps the network locked at quote time', { requirement: 'POOLS-TRADES-SHAPE' });
        ctx.expect.equal(t.poolId, sq.poolId, 'the trade is on the quoted pool', { requirement: 'POOLS-TRADES-SHAPE' });
        ctx.observe('pools-trade-vs-quote', {
          fiatAmountEqual: t.fiatAmount === sq.fiatAmount,
          cryptoAmountEqual: t.cryptoAmount === sq.cryptoAmount,
          bpsEqual: t.spreadBps === sq.spreadBps && t.feeBps === sq.feeBps,
        });
      },
    },
    {
      name: 'trades list newest first; a limit=1 cursor walk within inclusive date bounds has no duplicate and no gap; filters hold across pages',
      requirements: [
        'POOLS-TRADES-LIST-SHAPE',
        'POOLS-TRADES-NEWEST-FIRST',
        'POOLS-TRADES-CURSOR-WALK',
        'POOLS-TRADES-NEXTCURSOR-NULL',
        'POOLS-TRADES-DATE-INCLUSIVE',
        'POOLS-TRADES-LIMIT-EDGES',
        'POOLS-TRADES-FILTERS',
        'POOLS-TRADES-TOTAL-BPS',
      ],
      needs: ['pools.partner'],
      async run(ctx: CheckContext) {
        const actor = ctx.pools.partner();
        const made: Trade[] = [];
        for (let i = 0; i < 3; i++) {
          const r = await reservedTrade(ctx, actor, 'POOLS-TRADES-CURSOR-WALK');
          made.push(await readTrade(ctx, actor, r.transactId, 'POOLS-TRADES-CURSOR-WALK'));
          // Distinct createdAt values make the newest-first order observable.
          if (i < 2) await ctx.sleep(20, 'distinct trade timestamps');
        }
        const bounds = { created_after: made[0]!.createdAt, created_before: made[2]!.createdAt };
        const { ex: fullEx, page: full } = await page(ctx, actor, { ...bounds, limit: POOLS_LIMITS.trades.limitMax }, 'POOLS-TRADES-LIST-SHAPE');
        for (const t of made) {
          ctx.expect.that(full.data.some((x) => x.transactId === t.transactId), `trade created at ${t.createdAt} is inside the inclusive bounds`, {
            requirement: 'POOLS-TRADES-DATE-INCLUSIVE',
            exchange: fullEx,
          });
        }
        for (const t of full.data) {
          const at = Date.parse(t.createdAt);
          ctx.expect.that(at >= Date.parse(bounds.created_after) && at <= Date.parse(bounds.created_before), 'every listed trade is within the bounds', {
            requirement: 'POOLS-TRADES-DATE-INCLUSIVE',
            actual: t.createdAt,
            exchange: fullEx,
          });
          ctx.expect.equal(t.totalBps, t.spreadBps + t.feeBps, `totalBps of ${t.transactId}`, { requirement: 'POOLS-TRADES-TOTAL-BPS', exchange: fullEx });
        }
        for (let i = 1; i < full.data.length; i++) {
          ctx.expect.that(Date.parse(full.data[i - 1]!.createdAt) >= Date.parse(full.data[i]!.createdAt), 'trades are listed newest first', {
            requirement: 'POOLS-TRADES-NEWEST-FIRST',
            actual: full.data.map((t) => t.createdAt),
            exchange: fullEx,
          });
        }
        const mine = full.data.filter((t) => made.some((m) => m.transactId === t.transactId));
        ctx.expect.equal(ids(mine), ids([...made].reverse()), 'our three trades come newest first', { requirement: 'POOLS-TRADES-NEWEST-FIRST', exchange: fullEx });
        if (!full.hasMore) ctx.expect.equal(full.nextCursor, null, 'nextCursor is null when hasMore is false', { requirement: 'POOLS-TRADES-NEXTCURSOR-NULL', exchange: fullEx });

        const walked = await walk(ctx, actor, { ...bounds, limit: 1 }, full.data.length + 2, 'POOLS-TRADES-CURSOR-WALK');
        ctx.expect.equal(ids(walked), ids(full.data), 'the limit=1 walk yields the full page, in order, with no duplicate and no gap', {
          requirement: 'POOLS-TRADES-CURSOR-WALK',
        });

        // With the outcome trigger, settle the oldest trade so the status filter has something to leave out.
        const settled = poolsProfile(ctx).triggers.tradeOutcome ? made[0]! : null;
        if (settled) await settleTo(ctx, actor, settled.quoteId, 'settled', 'POOLS-TRADES-FILTERS');
        const filtered = await walk(ctx, actor, { ...bounds, limit: 1, side: 'on_ramp', status: 'reserved' }, full.data.length + 2, 'POOLS-TRADES-FILTERS');
        if (settled) {
          ctx.expect.that(!filtered.some((t) => t.transactId === settled.transactId), 'status=reserved leaves out the settled trade', { requirement: 'POOLS-TRADES-FILTERS', actual: ids(filtered) });
        }
        for (const t of filtered) {
          ctx.expect.that(t.side === 'on_ramp' && t.status === 'reserved', 'side and status filters hold on every page', {
            requirement: 'POOLS-TRADES-FILTERS',
            actual: { transactId: t.transactId, side: t.side, status: t.status },
          });
        }
        ctx.expect.that(new Set(ids(filtered)).size === filtered.length, 'the filtered walk has no duplicate', { requirement: 'POOLS-TRADES-FILTERS' });
        for (const m of made.filter((t) => t !== settled)) {
          ctx.expect.that(filtered.some((t) => t.transactId === m.transactId), 'our reserved on_ramp trades match the filters', { requirement: 'POOLS-TRADES-FILTERS', actual: m.transactId });
        }
        const { ex: offEx, page: off } = await page(ctx, actor, { ...bounds, limit: POOLS_LIMITS.trades.limitMax, side: 'off_ramp' }, 'POOLS-TRADES-FILTERS');
        ctx.expect.that(off.data.every((t) => t.side === 'off_ramp'), 'side=off_ramp lists only off_ramp trades', { requirement: 'POOLS-TRADES-FILTERS', exchange: offEx });
      },
    },
    {
      name: 'trades list limit: 0 and 101 give 400 invalid_limit, 100 is accepted, the default page holds at most 50',
      requirements: ['POOLS-TRADES-LIMIT-INVALID-400', 'POOLS-TRADES-LIMIT-EDGES', 'POOLS-TRADES-LIMIT-DEFAULT', 'POOLS-TRADES-LIST-SHAPE'],
      needs: ['pools.partner'],
      async run(ctx: CheckContext) {
        const actor = ctx.pools.partner();
        const { min, max, def } = { min: POOLS_LIMITS.trades.limitMin, max: POOLS_LIMITS.trades.limitMax, def: POOLS_LIMITS.trades.limitDefault };
        for (const limit of [min - 1, max + 1]) {
          const ex = await actor.client.get('/pools/trades', { limit });
          ctx.expect.error(ex, 400, 'invalid_request', { code: 'invalid_limit', requirement: 'POOLS-TRADES-LIMIT-INVALID-400' });
        }
        // The default (50) is only visible with more than 50 trades: top the partner up, once, to def + 1.
        const { page: before } = await page(ctx, actor, { limit: def + 1 }, 'POOLS-TRADES-LIMIT-DEFAULT');
        const missing = def + 1 - before.data.length;
        for (let i = 0; i < missing; i++) await reservedTrade(ctx, actor, 'POOLS-TRADES-LIMIT-DEFAULT');
        if (missing > 0) ctx.observe('pools-trades-created-for-default-page', missing);
        const { ex: maxEx, page: atMax } = await page(ctx, actor, { limit: max }, 'POOLS-TRADES-LIMIT-EDGES');
        ctx.expect.that(atMax.data.length <= max, `limit=${max} bounds the page`, { requirement: 'POOLS-TRADES-LIMIT-EDGES', exchange: maxEx });
        const { ex: defEx, page: dflt } = await page(ctx, actor, {}, 'POOLS-TRADES-LIMIT-DEFAULT');
        ctx.expect.that(dflt.data.length <= def, `the default page holds at most ${def}`, { requirement: 'POOLS-TRADES-LIMIT-DEFAULT', exchange: defEx });
        // Trades only accumulate (concurrent checks add some), so the default page read after the
        // limit=100 page holds at least min(that count, 50): a smaller default would show here.
        const total = atMax.data.length;
        ctx.expect.that(dflt.data.length >= Math.min(total, def), `the default page holds min(trades, ${def})`, {
          requirement: 'POOLS-TRADES-LIMIT-DEFAULT',
          expected: Math.min(total, def),
          actual: dflt.data.length,
          exchange: defEx,
        });
        ctx.observe('pools-trades-default-page', { defaultPage: dflt.data.length, atLimit100: total });
      },
    },
    {
      name: 'an unparseable date filter gives 400',
      requirements: ['POOLS-TRADES-DATE-INVALID-400'],
      needs: ['pools.partner'],
      async run(ctx: CheckContext) {
        const actor = ctx.pools.partner();
        for (const q of [{ created_after: 'not-a-date' }, { created_before: '2026-13-45T99:99:99Z' }]) {
          ctx.expect.error(await actor.client.get('/pools/trades', q), 400, 'invalid_request', { requirement: 'POOLS-TRADES-DATE-INVALID-400' });
        }
      },
    },
    {
      name: "a cursor this partner never issued (another partner's transactId) gives an empty page; a malformed cursor gives 400 or an empty page",
      requirements: ['POOLS-TRADES-UNKNOWN-CURSOR', 'POOLS-TRADES-MALFORMED-CURSOR'],
      needs: ['pools.partner', 'pools.secondPartner'],
      async run(ctx: CheckContext) {
        const actor = ctx.pools.partner();
        const other = ctx.pools.other();
        // The partner has a trade of its own, so a cursor that is wrongly ignored shows up as a non-empty page.
        await reservedTrade(ctx, actor, 'POOLS-TRADES-UNKNOWN-CURSOR');
        const foreign = await reservedTrade(ctx, other, 'POOLS-TRADES-UNKNOWN-CURSOR');
        const { ex, page: p } = await page(ctx, actor, { cursor: foreign.transactId, limit: 10 }, 'POOLS-TRADES-UNKNOWN-CURSOR');
        ctx.expect.equal(p.data.length, 0, 'an unknown cursor yields an empty page', { requirement: 'POOLS-TRADES-UNKNOWN-CURSOR', exchange: ex });
        ctx.expect.equal(p.hasMore, false, 'an empty page has no more', { requirement: 'POOLS-TRADES-UNKNOWN-CURSOR', exchange: ex });
        ctx.expect.equal(p.nextCursor, null, 'an empty page has no nextCursor', { requirement: 'POOLS-TRADES-UNKNOWN-CURSOR', exchange: ex });

        const bad = await actor.client.get('/pools/trades', { cursor: '%%% not a cursor %%%', limit: 10 });
        // "Malformed" depends on a cursor format the spec does not fix: 400, or an empty page as for any unknown cursor.
        if (bad.status === 400) {
          ctx.expect.error(bad, 400, 'invalid_request', { requirement: 'POOLS-TRADES-MALFORMED-CURSOR' });
          ctx.observe('pools-malformed-cursor', '400');
        } else {
          ctx.expect.status(bad, 200, 'POOLS-TRADES-MALFORMED-CURSOR');
          const b = ctx.expect.schema(bad, TradesPage, 'POOLS-TRADES-MALFORMED-CURSOR');
          ctx.expect.equal(b.data.length, 0, 'a malformed cursor never yields trades', { requirement: 'POOLS-TRADES-MALFORMED-CURSOR', exchange: bad });
          ctx.observe('pools-malformed-cursor', 'empty page');
        }
      },
    },
  ],
});
