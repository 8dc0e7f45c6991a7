// Pools "Errors" retry rule under a lost response: a transact whose answer
// never arrived is retried with the same Idempotency-Key and body; the retry
// answers the one trade, and the balance and ledger show one debit.
import { randomUUID } from 'node:crypto';
import { defineSuite, type CheckContext, type CheckDef } from '../../src/runner/check.js';
import { TransactResponse } from '../../src/model/schemas/pools/resources.js';
import { createFirmQuote, decEq, decSub, ledgerEntriesFor, mainPool, poolPath, readBalance, readTrade } from '../../conformance/pools/support/pools.js';
import { sendAndLoseResponse } from '../support/lostResponse.js';

const R = 'POOLS-TX-RETRY-ONE-DEBIT';

export default defineSuite({
  service: 'pools',
  section: 'Errors',
  checks: [
    {
      name: 'a transact whose response was lost, retried with the same Idempotency-Key: one trade, one debit',
      requirements: [R],
      needs: ['pools.partner'],
      timeoutMs: 60_000,
      async run(ctx: CheckContext) {
        // Held alone: the balance must move only by this check's trade.
        const actor = await ctx.pools.exclusive();
        const { quote } = await createFirmQuote(ctx, actor, R);
        const before = await readBalance(ctx, actor, R);
        ctx.expect.that(before.balance !== null, 'a funded partner with the balance gate on has a decimal balance', { requirement: R, actual: before.balance });
        const path = poolPath(mainPool(ctx), '/transact');
        const key = randomUUID();
        const lost = await sendAndLoseResponse(ctx, actor, 'pools', (c) => c.post(path, { quoteId: quote.quoteId }, { idempotencyKey: key, retry: false, timeoutMs: 15_000 }));

        const retry = ctx.expect.status(await lost.client.post(path, { quoteId: quote.quoteId }, { idempotencyKey: key, retry: false }), [200, 201], R);
        const trade = ctx.expect.schema(retry, TransactResponse, R);
        ctx.expect.equal(trade.quoteId, quote.quoteId, 'the retry answers the trade of the quote transacted', { requirement: R, exchange: retry });
        // And again directly: the key keeps answering that one trade.
        const again = ctx.expect.status(await actor.client.post(path, { quoteId: quote.quoteId }, { idempotencyKey: key, retry: false }), [200, 201], R);
        ctx.expect.equal(ctx.expect.schema(again, TransactResponse, R).transactId, trade.transactId, 'a further retry with the key answers the same trade', { requirement: R, exchange: again });

        const stored = await readTrade(ctx, actor, trade.transactId, R);
        const after = await readBalance(ctx, actor, R);
        const moved = decSub(after.balance!, before.balance!);
        ctx.expect.that(decEq(moved, `-${stored.fiatAmount}`), 'the balance moved by exactly one trade amount', {
          requirement: R,
          expected: `-${stored.fiatAmount}`,
          actual: `${before.balance} → ${after.balance} (moved ${moved})`,
        });
        const { exchange, entries } = await ledgerEntriesFor(ctx, actor, [trade.transactId, quote.quoteId], R);
        const debits = entries.filter((e) => e.typeNames.includes('buy_debit'));
        if (entries.length === 0) ctx.observe('pools-ledger-links-trade', false, 'no ledger entry on page one names the trade or its quote (ledger shape is not shown)');
        else ctx.expect.equal(debits.length, 1, 'the ledger shows one buy_debit for the trade', { requirement: R, exchange });
      },
    },
  ] satisfies CheckDef[],
});
