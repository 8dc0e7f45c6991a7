// Pools transact (one-time, idempotent on quoteId and on Idempotency-Key) and
// the status poll, which alone advances settlement.
import { randomUUID } from 'node:crypto';
import { defineSuite, type CheckContext } from '../../src/runner/check.js';
import { FirmQuote, StoredQuote, TradesPage, TransactResponse } from '../../src/model/schemas/pools/index.js';
import {
  createFirmQuote,
  expectUntypedError,
  mainPool,
  poolPath,
  poolsProfile,
  quoteBody,
  quotePath,
  readTrade,
  reservedTrade,
  settleTo,
  transact,
} from './support/pools.js';

export default defineSuite({
  service: 'pools',
  section: 'Endpoints',
  checks: [
    {
      name: 'transact without an Idempotency-Key is refused with 400 and the quote stays active',
      requirements: ['POOLS-TX-IDEMPOTENCY-KEY-REQUIRED'],
      needs: ['pools.partner'],
      async run(ctx: CheckContext) {
        const R = 'POOLS-TX-IDEMPOTENCY-KEY-REQUIRED';
        const actor = ctx.pools.partner();
        const { quote } = await createFirmQuote(ctx, actor, R);
        const ex = await actor.client.post(poolPath(mainPool(ctx), '/transact'), { quoteId: quote.quoteId }, { idempotencyKey: false, retry: false });
        ctx.expect.error(ex, 400, 'invalid_request', { requirement: R });
        const read = ctx.expect.status(await actor.client.get(quotePath(quote.quoteId)), 200, R);
        ctx.expect.equal(ctx.expect.schema(read, StoredQuote, R).status, 'active', 'a refused transact consumes nothing', { requirement: R, exchange: read });
      },
    },
    {
      name: 'transact reserves a trade; the same key replays it; the same key with another body gives 409 idempotency-conflict',
      requirements: ['POOLS-TX-RESERVED', 'POOLS-TX-REPLAY-SAME-TRADE', 'POOLS-TX-KEY-CONFLICT-409'],
      needs: ['pools.partner'],
      async run(ctx: CheckContext) {
        const actor = ctx.pools.partner();
        const first = await createFirmQuote(ctx, actor, 'POOLS-TX-RESERVED');
        const second = await createFirmQuote(ctx, actor, 'POOLS-TX-KEY-CONFLICT-409');
        const key = randomUUID();
        const made = await transact(ctx, actor, first.quote.quoteId, 'POOLS-TX-RESERVED', key);
        const replay = await actor.client.post(poolPath(mainPool(ctx), '/transact'), { quoteId: first.quote.quoteId }, { idempotencyKey: key });
        ctx.expect.status(replay, [200, 201], 'POOLS-TX-REPLAY-SAME-TRADE');
        const again = ctx.expect.schema(replay, TransactResponse, 'POOLS-TX-REPLAY-SAME-TRADE');
        ctx.expect.equal(again.transactId, made.transactId, 'a replay returns the same trade', { requirement: 'POOLS-TX-REPLAY-SAME-TRADE', exchange: replay });
        const conflict = await actor.client.post(poolPath(mainPool(ctx), '/transact'), { quoteId: second.quote.quoteId }, { idempotencyKey: key, retry: false });
        ctx.expect.error(conflict, 409, 'conflict', { code: 'idempotency-conflict', requirement: 'POOLS-TX-KEY-CONFLICT-409' });
      },
    },
    {
      name: 'another Idempotency-Key on a consumed quote returns the existing trade or 409',
      requirements: ['POOLS-TX-OTHER-KEY-SAME-QUOTE'],
      needs: ['pools.partner'],
      async run(ctx: CheckContext) {
        const R = 'POOLS-TX-OTHER-KEY-SAME-QUOTE';
        const actor = ctx.pools.partner();
        const made = await reservedTrade(ctx, actor, R);
        const ex = await actor.client.post(poolPath(mainPool(ctx), '/transact'), { quoteId: made.quoteId }, { idempotencyKey: true, retry: false });
        // Endpoint rule 3 (idempotent on quoteId) and the quote state table (409 on a consumed quote) disagree: both pass.
        if (ex.status === 409) {
          ctx.expect.error(ex, 409, 'conflict', { requirement: R });
          ctx.observe('pools-transact-consumed-quote-new-key', '409 conflict', 'reading: quote state table');
          return;
        }
        ctx.expect.status(ex, [200, 201], R);
        const t = ctx.expect.schema(ex, TransactResponse, R);
        ctx.expect.equal(t.transactId, made.transactId, 'the existing trade comes back', { requirement: R, exchange: ex });
        ctx.observe('pools-transact-consumed-quote-new-key', 'existing trade', 'reading: endpoint rule 3');
      },
    },
    {
      name: 'concurrent transacts with different keys on one quote create one trade',
      requirements: ['POOLS-TX-CONCURRENT-SINGLE-USE'],
      needs: ['pools.partner'],
      async run(ctx: CheckContext) {
        const R = 'POOLS-TX-CONCURRENT-SINGLE-USE';
        const actor = ctx.pools.partner();
        const { quote } = await createFirmQuote(ctx, actor, R);
        const answers = await Promise.all(
          Array.from({ length: 4 }, () =>
            actor.client.post(poolPath(mainPool(ctx), '/transact'), { quoteId: quote.quoteId }, { idempotencyKey: true, retry: false }),
          ),
        );
        const ids = new Set<string>();
        for (const ex of answers) {
          if (ex.status === 409) {
            ctx.expect.error(ex, 409, 'conflict', { requirement: R });
            continue;
          }
          ctx.expect.status(ex, [200, 201], R);
          ids.add(ctx.expect.schema(ex, TransactResponse, R).transactId);
        }
        ctx.expect.equal(ids.size, 1, 'exactly one trade across the concurrent transacts', { requirement: R });
        const made = await readTrade(ctx, actor, [...ids][0]!, R);
        const list = ctx.expect.status(await actor.client.get('/pools/trades', { limit: 100, created_after: made.createdAt }), 200, R);
        const mine = ctx.expect.schema(list, TradesPage, R).data.filter((t) => t.quoteId === quote.quoteId);
        ctx.expect.equal(mine.length, 1, 'the trades list holds one trade for the quote', { requirement: R, exchange: list });
      },
    },
    {
      name: 'transact beyond the pre-funded balance (oversized amount) gives 402',
      requirements: ['POOLS-TX-INSUFFICIENT-402'],
      needs: ['pools.partner', 'pools.oversized'],
      async run(ctx: CheckContext) {
        const R = 'POOLS-TX-INSUFFICIENT-402';
        const actor = ctx.pools.partner();
        const q = await actor.client.post(poolPath(mainPool(ctx), '/quote'), quoteBody(ctx, { type: 'firm', amount: poolsProfile(ctx).oversizedAmount }));
        if (q.status === 402) {
          expectUntypedError(ctx, q, 402, R);
          ctx.observe('pools-402-at', 'quote', 'the target refused the oversized amount at quote time');
          return;
        }
        ctx.expect.status(q, [200, 201], R);
        const quote = ctx.expect.schema(q, FirmQuote, R);
        const ex = await actor.client.post(poolPath(mainPool(ctx), '/transact'), { quoteId: quote.quoteId }, { idempotencyKey: true, retry: false });
        expectUntypedError(ctx, ex, 402, R);
      },
    },
    {
      name: 'transact by an unfunded partner gives 402',
      requirements: ['POOLS-TX-INSUFFICIENT-402'],
      needs: ['pools.unfunded'],
      async run(ctx: CheckContext) {
        const R = 'POOLS-TX-INSUFFICIENT-402';
        const actor = ctx.pools.byState('unfunded');
        const q = await actor.client.post(poolPath(mainPool(ctx), '/quote'), quoteBody(ctx, { type: 'firm' }));
        if (q.status === 402) {
          expectUntypedError(ctx, q, 402, R);
          ctx.observe('pools-402-at', 'quote', 'the target refused the unfunded partner at quote time');
          return;
        }
        ctx.expect.status(q, [200, 201], R);
        const quote = ctx.expect.schema(q, FirmQuote, R);
        const ex = await actor.client.post(poolPath(mainPool(ctx), '/transact'), { quoteId: quote.quoteId }, { idempotencyKey: true, retry: false });
        expectUntypedError(ctx, ex, 402, R);
      },
    },
    {
      name: 'off_ramp transact without off_ramp enabled gives 501',
      requirements: ['POOLS-TX-OFF-RAMP-501'],
      needs: ['pools.noOffRamp'],
      async run(ctx: CheckContext) {
        const R = 'POOLS-TX-OFF-RAMP-501';
        const actor = ctx.pools.noOffRamp();
        const q = await actor.client.post(poolPath(mainPool(ctx), '/quote'), quoteBody(ctx, { type: 'firm', side: 'off_ramp', destAddress: undefined, destNetwork: undefined }), { retry: false });
        if (q.status === 501) {
          expectUntypedError(ctx, q, 501, R);
          ctx.observe('pools-off-ramp-501-at', 'quote', 'the target refused off_ramp at quote time');
          return;
        }
        ctx.expect.status(q, [200, 201], R);
        const quote = ctx.expect.schema(q, FirmQuote, R);
        const ex = await actor.client.post(poolPath(mainPool(ctx), '/transact'), { quoteId: quote.quoteId }, { idempotencyKey: true, retry: false });
        expectUntypedError(ctx, ex, 501, R);
        ctx.observe('pools-off-ramp-501-at', 'transact');
      },
    },
    {
      name: 'only the poll advances settlement: trade reads stay reserved until GET /pools/transactions/{quoteId}',
      requirements: ['POOLS-POLL-ADVANCES', 'POOLS-POLL-STATUS', 'POOLS-POLL-PURE-READS'],
      needs: ['pools.partner', 'pools.trigger.outcome'],
      async run(ctx: CheckContext) {
        const actor = ctx.pools.partner();
        const made = await reservedTrade(ctx, actor, 'POOLS-POLL-ADVANCES');
        await ctx.trigger('pools', 'tradeOutcome', { quoteId: made.quoteId, outcome: 'settled' }, actor);
        const R = 'POOLS-POLL-PURE-READS';
        const one = await readTrade(ctx, actor, made.transactId, R);
        ctx.expect.equal(one.status, 'reserved', 'GET /pools/trades/{transactId} does not advance settlement', { requirement: R });
        const listed = ctx.expect.status(await actor.client.get('/pools/trades', { created_after: one.createdAt, limit: 100 }), 200, R);
        const inList = ctx.expect.schema(listed, TradesPage, R).data.find((t) => t.transactId === made.transactId);
        ctx.expect.that(inList !== undefined, 'the trade is listed from its own createdAt on', { requirement: R, exchange: listed });
        ctx.expect.equal(inList.status, 'reserved', 'GET /pools/trades does not advance settlement', { requirement: R, exchange: listed });
        const again = await readTrade(ctx, actor, made.transactId, R);
        ctx.expect.equal(again.status, 'reserved', 'a second pure read still shows reserved', { requirement: R });
        const seen = await settleTo(ctx, actor, made.quoteId, 'settled', 'POOLS-POLL-ADVANCES');
        ctx.observe('pools-polls-to-settle', seen.length);
        const after = await readTrade(ctx, actor, made.transactId, 'POOLS-POLL-ADVANCES');
        ctx.expect.equal(after.status, 'settled', 'the trade reads settled once the poll advanced it', { requirement: 'POOLS-POLL-ADVANCES' });
        ctx.observe('pools-settledAt-on-settled', after.settledAt !== null);
      },
    },
  ],
});
