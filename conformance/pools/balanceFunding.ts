// Pools balance, funding and ledger: the reservation debit, the refund of a
// returned trade, the balance gate and EUR-only funding.
import { defineSuite, type CheckContext } from '../../src/runner/check.js';
import { Funding } from '../../src/model/schemas/pools/index.js';
import {
  createFirmQuote,
  decAdd,
  decEq,
  decSub,
  expectBalanceMove,
  ledgerEntriesFor,
  mainPool,
  poll,
  readBalance,
  readTrade,
  reservedTrade,
  transact,
} from './support/pools.js';

export default defineSuite({
  service: 'pools',
  section: 'Resources and their fields > Balance',
  checks: [
    {
      name: 'the balance of a funded partner names its pool, allowed pools and a decimal balance',
      requirements: ['POOLS-BAL-SHAPE'],
      needs: ['pools.partner'],
      async run(ctx: CheckContext) {
        const actor = ctx.pools.partner();
        const b = await readBalance(ctx, actor, 'POOLS-BAL-SHAPE');
        ctx.expect.equal(b.poolId, mainPool(ctx), 'balance poolId is the pool asked for', { requirement: 'POOLS-BAL-SHAPE' });
        ctx.expect.that(b.allowedPools.includes(mainPool(ctx)), 'allowedPools holds the entitled pool', { requirement: 'POOLS-BAL-SHAPE', actual: b.allowedPools });
        ctx.expect.that(b.balance !== null, 'balance is a decimal string when the balance gate is on', { requirement: 'POOLS-BAL-SHAPE', actual: b.balance });
      },
    },
    {
      name: 'with the balance gate off, balance is null and funding gives 404',
      requirements: ['POOLS-BAL-GATE-OFF-NULL', 'POOLS-FUND-GATE-OFF-404'],
      needs: ['pools.balanceGateOff'],
      async run(ctx: CheckContext) {
        const actor = ctx.pools.balanceGateOff();
        const b = await readBalance(ctx, actor, 'POOLS-BAL-GATE-OFF-NULL');
        ctx.expect.equal(b.balance, null, 'balance is null when the balance gate is off', { requirement: 'POOLS-BAL-GATE-OFF-NULL' });
        ctx.expect.error(await actor.client.get('/pools/funding'), 404, 'not_found', { requirement: 'POOLS-FUND-GATE-OFF-404' });
      },
    },
    {
      name: 'funding is EUR by default and on request; another currency gives 400',
      requirements: ['POOLS-FUND-SHAPE', 'POOLS-FUND-DEFAULT-EUR', 'POOLS-FUND-NON-EUR-400'],
      needs: ['pools.partner'],
      async run(ctx: CheckContext) {
        const actor = ctx.pools.partner();
        const dflt = ctx.expect.status(await actor.client.get('/pools/funding'), 200, 'POOLS-FUND-DEFAULT-EUR');
        const f = ctx.expect.schema(dflt, Funding, 'POOLS-FUND-DEFAULT-EUR');
        ctx.observe('pools-funding-iban-provisioned', f.iban !== null);
        const eur = ctx.expect.status(await actor.client.get('/pools/funding', { currency: 'EUR' }), 200, 'POOLS-FUND-SHAPE');
        ctx.expect.schema(eur, Funding, 'POOLS-FUND-SHAPE');
        for (const currency of ['USD', 'GBP']) {
          ctx.expect.error(await actor.client.get('/pools/funding', { currency }), 400, 'invalid_request', { requirement: 'POOLS-FUND-NON-EUR-400' });
        }
      },
    },
    {
      name: 'transact reserves exactly the trade amount from the balance, and the ledger names it buy_debit',
      requirements: ['POOLS-BAL-RESERVE-DEBIT', 'POOLS-LEDGER-BUY-DEBIT'],
      needs: ['pools.partner'],
      async run(ctx: CheckContext) {
        const actor = ctx.pools.partner();
        let last = { transactId: '', quoteId: '' };
        await expectBalanceMove(ctx, actor, 'POOLS-BAL-RESERVE-DEBIT', 'transact', 6, async () => {
          const { quote } = await createFirmQuote(ctx, actor, 'POOLS-BAL-RESERVE-DEBIT');
          const r = await transact(ctx, actor, quote.quoteId, 'POOLS-BAL-RESERVE-DEBIT');
          last = { transactId: r.transactId, quoteId: r.quoteId };
          const t = await readTrade(ctx, actor, r.transactId, 'POOLS-BAL-RESERVE-DEBIT');
          return { expectedDelta: `-${t.fiatAmount}` };
        });
        const { exchange, entries } = await ledgerEntriesFor(ctx, actor, [last.transactId, last.quoteId], 'POOLS-LEDGER-BUY-DEBIT');
        if (entries.length === 0) {
          ctx.observe('pools-ledger-links-trade', false, 'no ledger entry on page one names the trade or its quote (ledger shape is not shown)');
          return;
        }
        const names = entries.flatMap((e) => e.typeNames);
        ctx.expect.that(names.includes('buy_debit'), 'the ledger entry of the reservation is a buy_debit', { requirement: 'POOLS-LEDGER-BUY-DEBIT', actual: names, exchange });
      },
    },
    {
      name: 'a returned trade is found by the poll, refunded once to the balance, and shows one buy_refund',
      requirements: ['POOLS-POLL-RETURNED', 'POOLS-BAL-RETURNED-REFUND', 'POOLS-LEDGER-BUY-REFUND'],
      needs: ['pools.partner', 'pools.trigger.outcome'],
      timeoutMs: 90_000,
      async run(ctx: CheckContext) {
        const actor = ctx.pools.partner();
        let failure = '';
        // Partners are shared by concurrent checks: a refund measured wrong is measured again on a fresh trade.
        for (let attempt = 0; attempt < 3; attempt++) {
          const made = await reservedTrade(ctx, actor, 'POOLS-POLL-RETURNED');
          const trade = await readTrade(ctx, actor, made.transactId, 'POOLS-POLL-RETURNED');
          await ctx.trigger('pools', 'tradeOutcome', { quoteId: made.quoteId, outcome: 'returned' }, actor);
          let credited = '0';
          const seen: string[] = [];
          for (let i = 0; i < 8 && seen.at(-1) !== 'returned'; i++) {
            const before = (await readBalance(ctx, actor, 'POOLS-BAL-RETURNED-REFUND')).balance!;
            seen.push(await poll(ctx, actor, made.quoteId, 'POOLS-POLL-RETURNED'));
            const after = (await readBalance(ctx, actor, 'POOLS-BAL-RETURNED-REFUND')).balance!;
            credited = decAdd(credited, decSub(after, before));
            if (seen.at(-1) !== 'returned') await ctx.sleep(250, 'pools settlement poll');
          }
          ctx.expect.equal(seen.at(-1), 'returned', `polling discovers the returned state the trigger chose (saw ${seen.join(' → ')})`, { requirement: 'POOLS-POLL-RETURNED' });
          ctx.observe('pools-returned-path', seen);
          // One more poll after returned must not credit again (idempotent refund).
          const before = (await readBalance(ctx, actor, 'POOLS-BAL-RETURNED-REFUND')).balance!;
          ctx.expect.equal(await poll(ctx, actor, made.quoteId, 'POOLS-POLL-RETURNED'), 'returned', 'returned is kept on the next poll', { requirement: 'POOLS-POLL-RETURNED' });
          const after = (await readBalance(ctx, actor, 'POOLS-BAL-RETURNED-REFUND')).balance!;
          const again = decSub(after, before);
          const read = await readTrade(ctx, actor, made.transactId, 'POOLS-POLL-RETURNED');
          ctx.expect.equal(read.status, 'returned', 'the trade reads returned', { requirement: 'POOLS-POLL-RETURNED' });
          if (!decEq(credited, trade.fiatAmount) || !decEq(again, '0')) {
            failure = `credited ${credited} while polling to returned (expected ${trade.fiatAmount}), then ${again} on a further poll (expected 0)`;
            ctx.observe('pools-balance-remeasure', { attempt: attempt + 1, failure }, 'a concurrent check may share this partner');
            continue;
          }
          const { exchange, entries } = await ledgerEntriesFor(ctx, actor, [made.transactId, made.quoteId], 'POOLS-LEDGER-BUY-REFUND');
          if (entries.length === 0) {
            ctx.observe('pools-ledger-links-trade', false, 'no ledger entry on page one names the trade or its quote (ledger shape is not shown)');
            return;
          }
          const refunds = entries.flatMap((e) => e.typeNames).filter((n) => n === 'buy_refund');
          ctx.expect.equal(refunds.length, 1, 'exactly one buy_refund for the returned trade', { requirement: 'POOLS-LEDGER-BUY-REFUND', exchange });
          return;
        }
        ctx.expect.that(false, 'a returned trade credits its amount back exactly once', { requirement: 'POOLS-BAL-RETURNED-REFUND', actual: failure });
      },
    },
  ],
});
