// Pools "Errors" retry rule under a lost response: a transact whose answer
// never arrived is retried with the same Idempotency-Key and body; the retry
// answers the one trade, and the balance and ledger show one debit.
import { randomUUID } from 'node:crypto';
import type { ApiClient } from '../../src/client/types.js';
import { check, defineSuite, type CheckTools } from '../../src/runner/check.js';
import { StoredQuote, TransactResponse } from '../../src/model/schemas/pools/index.js';
import { expect2xx } from '../../support/expect.js';
import { LOST_REQUEST_TIMEOUT_MS, sendAndLoseResponse } from '../../support/lostResponse.js';
import {
  createFirmQuote,
  decEq,
  decSub,
  expectBalanceMove,
  isTerminal,
  ledgerEntriesFor,
  mainPool,
  poll,
  poolPath,
  quotePath,
  readBalance,
  readTrade,
  transact,
} from '../../support/pools/pools.js';

const R = 'POOLS-TX-RETRY-ONE-DEBIT';
/** Settlement polls (GET /pools/transactions/{quoteId} advances settlement) before the ledger is judged. */
const SETTLE_POLLS = 8;

export default defineSuite({
  service: 'pools',
  section: 'Errors',
  checks: [
    check({
      name: 'a transact whose response was lost, retried with the same Idempotency-Key: one trade, one debit',
      requirements: [R],
      // Held alone: the balance and the ledger must move only by this check's trade.
      needs: ['poolsExclusive', 'toxiproxy'],
      async run({ poolsExclusive: actor, toxiproxy: kit }, t: CheckTools) {
        // What one trade of this size draws (the spec states that a reservation draws on the balance, not how much):
        // a twin of the same quote body, transacted once, so "one debit" is judged against the target's own draw.
        const { moved: oneDraw } = await expectBalanceMove(t, actor, R, 'a trade transacted once', 1, async () => {
          const twin = await createFirmQuote(t, actor, R);
          await transact(t, actor, twin.quote.quoteId, R);
          return { direction: 'down', result: undefined };
        });
        const { quote } = await createFirmQuote(t, actor, R);
        const before = await readBalance(t, actor, R);
        t.expect.that(before.balance !== null, 'a funded partner with the balance gate on has a decimal balance', { requirement: R, actual: before.balance });
        const path = poolPath(mainPool(t), '/transact');
        const key = randomUUID();
        const send = (c: ApiClient) => c.post(path, { quoteId: quote.quoteId }, { idempotencyKey: key, retry: false, timeoutMs: LOST_REQUEST_TIMEOUT_MS });
        const lost = await sendAndLoseResponse(t, kit, actor, 'pools', send, {
          // The stored quote reads consumed once a transact took it (a pure read: it neither consumes nor extends).
          reached: async () => {
            // The stored quote read's success status is not shown: any 2xx.
            const read = t.expect.schema(expect2xx(t, await actor.client.get(quotePath(quote.quoteId)), R, 'GET /pools/quotes/{quoteId}'), StoredQuote, R);
            return read.status === 'consumed';
          },
        });

        // The transact success status is not shown: any 2xx answering the reserved trade of the quote.
        const retry = expect2xx(
          t,
          await lost.client.post(path, { quoteId: quote.quoteId }, { idempotencyKey: key, retry: false }),
          R,
          'the retry with the same key',
        );
        const trade = t.expect.schema(retry, TransactResponse, R);
        t.expect.equal(trade.quoteId, quote.quoteId, 'the retry answers the trade of the quote transacted', { requirement: R, exchange: retry });
        // And again directly: the key keeps answering that one trade.
        // "The original response" again: the status the retry answered, whatever 2xx that was.
        const again = t.expect.status(await actor.client.post(path, { quoteId: quote.quoteId }, { idempotencyKey: key, retry: false }), retry.status, R);
        t.expect.equal(t.expect.schema(again, TransactResponse, R).transactId, trade.transactId, 'a further retry with the key answers the same trade', {
          requirement: R,
          exchange: again,
        });

        const stored = await readTrade(t, actor, trade.transactId, R);
        const after = await readBalance(t, actor, R);
        const moved = decSub(after.balance!, before.balance!);
        t.expect.that(decEq(moved, oneDraw), 'the balance moved by one draw: what the same trade transacted once drew', {
          requirement: R,
          expected: `${oneDraw} (a trade of ${stored.fiatAmount} transacted once)`,
          actual: `${before.balance} → ${after.balance} (moved ${moved})`,
        });

        // The ledger's shape is not shown: its entries are found by the ids they name. A target may post the debit only as
        // settlement progresses, so poll the trade to a terminal state (a documented read that advances it) before judging.
        const ids = [trade.transactId, quote.quoteId];
        let ledger = await ledgerEntriesFor(t, actor, ids, R);
        for (let i = 0; ledger.entries.length === 0 && i < SETTLE_POLLS; i++) {
          const status = await poll(t, actor, quote.quoteId, R);
          ledger = await ledgerEntriesFor(t, actor, ids, R);
          if (isTerminal(status)) break;
          await t.sleep(250, 'pools settlement poll before the ledger read', 'target');
        }
        if (ledger.entries.length === 0)
          t.unverified(
            'the balance moved by one draw, but no entry on the ledger page names the trade or its quote, even after polling it to settlement ' +
              '(the ledger shape is not shown), so the one buy_debit could not be counted',
          );
        const debits = ledger.entries.filter((e) => e.typeNames.includes('buy_debit'));
        t.expect.equal(debits.length, 1, 'the ledger shows one buy_debit for the trade', { requirement: R, exchange: ledger.exchange });
      },
    }),
  ],
});
