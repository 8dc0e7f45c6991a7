// Pools stored quotes: reads that neither consume nor extend, reject, the
// terminal 409s and the status precedence rejected > consumed > expired > active.
import { defineSuite, type CheckContext } from '../../src/runner/check.js';
import { StoredQuote } from '../../src/model/schemas/pools/index.js';
import { createFirmQuote, expectBalanceMove, mainPool, poolPath, quotePath, transact, waitPastExpiry } from './support/pools.js';

async function readQuote(ctx: CheckContext, actor: ReturnType<CheckContext['pools']['partner']>, quoteId: string, requirement: string) {
  const ex = ctx.expect.status(await actor.client.get(quotePath(quoteId)), 200, requirement);
  return { ex, q: ctx.expect.schema(ex, StoredQuote, requirement) };
}

export default defineSuite({
  service: 'pools',
  section: 'Resources and their fields > Stored quote',
  checks: [
    {
      name: 'reading a stored quote neither consumes nor extends it; transact then reads consumed',
      requirements: ['POOLS-SQ-SHAPE', 'POOLS-SQ-READ-NO-CONSUME', 'POOLS-SQ-READ-NO-EXTEND', 'POOLS-TX-QUOTE-CONSUMED'],
      needs: ['pools.partner'],
      async run(ctx: CheckContext) {
        const actor = ctx.pools.partner();
        const fq = await createFirmQuote(ctx, actor, 'POOLS-SQ-SHAPE');
        const { ex: first, q } = await readQuote(ctx, actor, fq.quote.quoteId, 'POOLS-SQ-SHAPE');
        ctx.expect.equal(q.quoteId, fq.quote.quoteId, 'stored quoteId', { requirement: 'POOLS-SQ-SHAPE', exchange: first });
        ctx.expect.equal(q.poolId, mainPool(ctx), 'stored poolId is the quoted pool', { requirement: 'POOLS-SQ-SHAPE', exchange: first });
        ctx.expect.equal(q.side, 'on_ramp', 'stored side is the quoted side', { requirement: 'POOLS-SQ-SHAPE', exchange: first });
        ctx.expect.equal(q.status, 'active', 'a fresh quote reads active', { requirement: 'POOLS-SQ-SHAPE', exchange: first });
        ctx.expect.equal(q.consumedAt, null, 'consumedAt is null while active', { requirement: 'POOLS-SQ-SHAPE', exchange: first });
        ctx.expect.equal(q.rejectedAt, null, 'rejectedAt is null while active', { requirement: 'POOLS-SQ-SHAPE', exchange: first });
        ctx.expect.equal(Date.parse(q.expiresAt), Date.parse(fq.quote.expiresAt), 'stored expiresAt equals the creation expiresAt', {
          requirement: 'POOLS-SQ-READ-NO-EXTEND',
          exchange: first,
        });
        await ctx.sleep(1100, 'a second apart, so an extending read would show');
        const { ex: second, q: again } = await readQuote(ctx, actor, fq.quote.quoteId, 'POOLS-SQ-READ-NO-EXTEND');
        ctx.expect.equal(Date.parse(again.expiresAt), Date.parse(fq.quote.expiresAt), 'a later read leaves expiresAt unchanged', {
          requirement: 'POOLS-SQ-READ-NO-EXTEND',
          exchange: second,
        });
        ctx.expect.equal(again.status, 'active', 'two reads leave the quote active', { requirement: 'POOLS-SQ-READ-NO-CONSUME', exchange: second });
        await transact(ctx, actor, fq.quote.quoteId, 'POOLS-SQ-READ-NO-CONSUME');
        const { ex: after, q: consumed } = await readQuote(ctx, actor, fq.quote.quoteId, 'POOLS-TX-QUOTE-CONSUMED');
        ctx.expect.equal(consumed.status, 'consumed', 'a transacted quote reads consumed', { requirement: 'POOLS-TX-QUOTE-CONSUMED', exchange: after });
        ctx.expect.that(consumed.consumedAt !== null, 'consumedAt is set once consumed', { requirement: 'POOLS-TX-QUOTE-CONSUMED', exchange: after });
        ctx.expect.equal(consumed.rejectedAt, null, 'rejectedAt stays null', { requirement: 'POOLS-SQ-SHAPE', exchange: after });
      },
    },
    {
      name: 'reject turns an active quote rejected without moving money; reject and transact again give 409',
      requirements: ['POOLS-SQ-REJECT', 'POOLS-SQ-REJECT-TERMINAL-409', 'POOLS-SQ-TRANSACT-REJECTED-409', 'POOLS-BAL-REJECT-NO-MONEY'],
      needs: ['pools.partner'],
      async run(ctx: CheckContext) {
        const actor = ctx.pools.partner();
        let quoteId = '';
        await expectBalanceMove(ctx, actor, 'POOLS-BAL-REJECT-NO-MONEY', 'reject of an active quote', 6, async () => {
          const fq = await createFirmQuote(ctx, actor, 'POOLS-SQ-REJECT');
          quoteId = fq.quote.quoteId;
          const ex = ctx.expect.status(await actor.client.post(quotePath(quoteId, '/reject')), [200, 201], 'POOLS-SQ-REJECT');
          const q = ctx.expect.schema(ex, StoredQuote, 'POOLS-SQ-REJECT');
          ctx.expect.equal(q.status, 'rejected', 'reject answers the stored quote with status rejected', { requirement: 'POOLS-SQ-REJECT', exchange: ex });
          ctx.expect.that(q.rejectedAt !== null, 'rejectedAt is set', { requirement: 'POOLS-SQ-REJECT', exchange: ex });
          ctx.expect.equal(q.consumedAt, null, 'a rejected quote was never consumed', { requirement: 'POOLS-SQ-REJECT', exchange: ex });
          return { expectedDelta: '0' };
        });
        const again = await actor.client.post(quotePath(quoteId, '/reject'));
        ctx.expect.error(again, 409, 'conflict', { requirement: 'POOLS-SQ-REJECT-TERMINAL-409' });
        const tx = await actor.client.post(poolPath(mainPool(ctx), '/transact'), { quoteId }, { idempotencyKey: true });
        ctx.expect.error(tx, 409, 'conflict', { requirement: 'POOLS-SQ-TRANSACT-REJECTED-409' });
        const { ex, q } = await readQuote(ctx, actor, quoteId, 'POOLS-SQ-REJECT');
        ctx.expect.equal(q.status, 'rejected', 'the quote still reads rejected', { requirement: 'POOLS-SQ-REJECT', exchange: ex });
      },
    },
    {
      name: 'reject of a consumed quote gives 409 and leaves it consumed',
      requirements: ['POOLS-SQ-REJECT-TERMINAL-409'],
      needs: ['pools.partner'],
      async run(ctx: CheckContext) {
        const actor = ctx.pools.partner();
        const fq = await createFirmQuote(ctx, actor, 'POOLS-SQ-REJECT-TERMINAL-409');
        await transact(ctx, actor, fq.quote.quoteId, 'POOLS-SQ-REJECT-TERMINAL-409');
        const rej = await actor.client.post(quotePath(fq.quote.quoteId, '/reject'));
        ctx.expect.error(rej, 409, 'conflict', { requirement: 'POOLS-SQ-REJECT-TERMINAL-409' });
        const { ex, q } = await readQuote(ctx, actor, fq.quote.quoteId, 'POOLS-SQ-REJECT-TERMINAL-409');
        ctx.expect.equal(q.status, 'consumed', 'a refused reject leaves the quote consumed', { requirement: 'POOLS-SQ-REJECT-TERMINAL-409', exchange: ex });
      },
    },
    {
      name: 'past the TTL: rejected and consumed quotes keep their status, an untouched one reads expired and refuses reject',
      requirements: ['POOLS-SQ-PRECEDENCE', 'POOLS-TTL-STATUS-EXPIRED', 'POOLS-SQ-REJECT-TERMINAL-409'],
      needs: ['pools.partner'],
      timeoutMs: 90_000,
      async run(ctx: CheckContext) {
        const actor = ctx.pools.partner();
        const R = 'POOLS-SQ-PRECEDENCE';
        const rejected = await createFirmQuote(ctx, actor, R);
        ctx.expect.status(await actor.client.post(quotePath(rejected.quote.quoteId, '/reject')), [200, 201], R);
        const consumed = await createFirmQuote(ctx, actor, R);
        await transact(ctx, actor, consumed.quote.quoteId, R);
        const untouched = await createFirmQuote(ctx, actor, R);
        await waitPastExpiry(ctx, untouched);
        const a = await readQuote(ctx, actor, rejected.quote.quoteId, R);
        ctx.expect.equal(a.q.status, 'rejected', 'rejected outranks expired', { requirement: R, exchange: a.ex });
        const b = await readQuote(ctx, actor, consumed.quote.quoteId, R);
        ctx.expect.equal(b.q.status, 'consumed', 'consumed outranks expired', { requirement: R, exchange: b.ex });
        const c = await readQuote(ctx, actor, untouched.quote.quoteId, 'POOLS-TTL-STATUS-EXPIRED');
        ctx.expect.equal(c.q.status, 'expired', 'a quote past its TTL reads expired', { requirement: 'POOLS-TTL-STATUS-EXPIRED', exchange: c.ex });
        const rej = await actor.client.post(quotePath(untouched.quote.quoteId, '/reject'));
        ctx.expect.error(rej, 409, 'conflict', { requirement: 'POOLS-SQ-REJECT-TERMINAL-409' });
        const d = await readQuote(ctx, actor, untouched.quote.quoteId, R);
        ctx.expect.equal(d.q.status, 'expired', 'a refused reject leaves the quote expired', { requirement: R, exchange: d.ex });
      },
    },
  ],
});
