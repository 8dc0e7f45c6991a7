// Pools balance, funding and ledger: the reservation debit, the refund of a
// returned trade, the balance gate and EUR-only funding. The ledger's query
// and entry shape are not shown: an entry belongs to a trade when it names
// the trade or its quote, or when it is new since the trade moved on a
// partner held alone (nothing else moves that ledger); the ledger is read
// again (bounded) until the trade's entries show; a ledger where no entry is
// tied to the trade is unverified, never passed.
import { check, defineSuite, type CheckTools } from '../../src/runner/check.js';
import { Balance, Funding } from '../../src/model/schemas/pools/index.js';
import { expect2xx } from '../../support/expect.js';
import { expectPoolsError } from '../../support/pools/errors.js';
import { keysMatching, keysNamed } from '../../support/pools/fieldNames.js';
import { entryKey, readLedger } from '../../support/pools/ledger.js';
import {
  awaitLedger,
  decSub,
  expectBalanceMove,
  expectMoveDirection,
  mainPool,
  poll,
  poolPath,
  pollToTerminal,
  readBalance,
  readTrade,
  reservedTrade,
  type LedgerMatch,
} from '../../support/pools/pools.js';

/**
 * Field names that are the access or KYC state itself (from the 403 codes pools_not_enabled, pool_access_suspended,
 * kyc_not_approved), alone or inside the key that holds them ({ kyc: { status } }). "access" and "enabled" alone are
 * generic words an additive field may carry for something else ({ autoTopUp: { enabled } }): observed, never failed.
 */
const ACCESS_STATE_NAMES = [
  'kyc',
  'kyc status',
  'kyc state',
  'kyc approved',
  'access status',
  'access state',
  'access suspended',
  'pool access',
  'pool access suspended',
  'suspended',
  'pools enabled',
  'entitled',
  'entitlement',
  'entitlements',
  'onboarded',
  'onboarding status',
];
/** Words an additive field may carry without being that state: observed. */
const ACCESS_WORD = /kyc|access|suspend|enabled|entitle|onboard/i;

/** How long the ledger may take to record a move it reflects (target time). */
const LEDGER_WAIT_MS = 5_000;
const typeNames = (entries: LedgerMatch[]) => entries.flatMap((e) => e.typeNames);

export default defineSuite({
  service: 'pools',
  section: 'Resources and their fields > Balance',
  checks: [
    check({
      name: 'the balance of a funded partner names its pool, allowed pools and a decimal balance, and echoes no access or KYC state',
      requirements: ['POOLS-BAL-SHAPE', 'POOLS-BAL-NO-ACCESS-ECHO'],
      needs: ['poolsPartner'],
      async run({ poolsPartner: actor }, t: CheckTools) {
        const ex = expect2xx(t, await actor.client.get(poolPath(mainPool(t), '/balance')), 'POOLS-BAL-SHAPE');
        t.expect.equal(keysNamed(ex.json, ACCESS_STATE_NAMES), [], 'the balance names no access or KYC state field (they appear only as 403 codes)', {
          requirement: 'POOLS-BAL-NO-ACCESS-ECHO',
          exchange: ex,
        });
        t.observe(
          'pools-balance-access-like-fields',
          keysMatching(ex.json, ACCESS_WORD),
          'fields whose names only contain an access or KYC word (additive fields may)',
        );
        const b = t.expect.schema(ex, Balance, 'POOLS-BAL-SHAPE');
        t.expect.equal(b.poolId, mainPool(t), 'balance poolId is the pool asked for', { requirement: 'POOLS-BAL-SHAPE' });
        t.expect.that(b.allowedPools.includes(mainPool(t)), 'allowedPools holds the entitled pool', { requirement: 'POOLS-BAL-SHAPE', actual: b.allowedPools });
        t.expect.that(b.balance !== null, 'balance is a decimal string when the balance gate is on', { requirement: 'POOLS-BAL-SHAPE', actual: b.balance });
      },
    }),
    check({
      name: 'with the balance gate off, balance is null and funding gives 404',
      requirements: ['POOLS-BAL-GATE-OFF-NULL', 'POOLS-FUND-GATE-OFF-404', 'POOLS-ERR-ENVELOPE'],
      needs: ['poolsBalanceGateOff'],
      async run({ poolsBalanceGateOff: actor }, t: CheckTools) {
        const b = await readBalance(t, actor, 'POOLS-BAL-GATE-OFF-NULL');
        t.expect.equal(b.balance, null, 'balance is null when the balance gate is off', { requirement: 'POOLS-BAL-GATE-OFF-NULL' });
        expectPoolsError(t, await actor.client.get('/pools/funding'), 404, { requirement: 'POOLS-FUND-GATE-OFF-404' });
      },
    }),
    check({
      name: 'funding of a partner whose IBAN is not provisioned answers iban null',
      requirements: ['POOLS-FUND-IBAN-UNPROVISIONED-NULL'],
      needs: ['poolsIbanUnprovisioned'],
      async run({ poolsIbanUnprovisioned: actor }, t: CheckTools) {
        const R = 'POOLS-FUND-IBAN-UNPROVISIONED-NULL';
        const ex = expect2xx(t, await actor.client.get('/pools/funding'), R, 'GET /pools/funding');
        t.expect.equal(t.expect.schema(ex, Funding, R).iban, null, `iban is null until provisioned (${actor.partner.name}: ibanProvisioned false)`, {
          requirement: R,
          exchange: ex,
        });
      },
    }),
    check({
      name: 'funding is EUR by default and on request; another currency gives 400',
      requirements: ['POOLS-FUND-SHAPE', 'POOLS-FUND-DEFAULT-EUR', 'POOLS-FUND-NON-EUR-400', 'POOLS-ERR-ENVELOPE'],
      needs: ['poolsPartner'],
      async run({ poolsPartner: actor }, t: CheckTools) {
        const dflt = expect2xx(t, await actor.client.get('/pools/funding'), 'POOLS-FUND-DEFAULT-EUR', 'GET /pools/funding without currency');
        t.expect.equal(dflt.json?.currency, 'EUR', 'funding without currency is EUR', { requirement: 'POOLS-FUND-DEFAULT-EUR', exchange: dflt });
        const f = t.expect.schema(dflt, Funding, 'POOLS-FUND-SHAPE');
        // Where the profile says the IBAN is provisioned, it must be there; otherwise which it is is only observed.
        if (actor.partner.ibanProvisioned === true)
          t.expect.that(typeof f.iban === 'string' && f.iban.length > 0, `iban is a string once provisioned (${actor.partner.name}: ibanProvisioned true)`, {
            requirement: 'POOLS-FUND-SHAPE',
            actual: f.iban,
            exchange: dflt,
          });
        t.observe('pools-funding-iban-provisioned', f.iban !== null);
        t.expect.schema(expect2xx(t, await actor.client.get('/pools/funding', { currency: 'EUR' }), 'POOLS-FUND-SHAPE'), Funding, 'POOLS-FUND-SHAPE');
        for (const currency of ['USD', 'GBP']) {
          expectPoolsError(t, await actor.client.get('/pools/funding', { currency }), 400, { requirement: 'POOLS-FUND-NON-EUR-400' });
        }
      },
    }),
    check({
      name: 'transact draws on the balance (it goes down; by how much is not stated: observed), and the ledger names it buy_debit',
      requirements: ['POOLS-BAL-RESERVE-DEBIT', 'POOLS-LEDGER-BUY-DEBIT'],
      // Held alone: the balance and the ledger move only by this check's trade.
      needs: ['poolsExclusive'],
      async run({ poolsExclusive: actor }, t: CheckTools) {
        const R = 'POOLS-BAL-RESERVE-DEBIT';
        const L = 'POOLS-LEDGER-BUY-DEBIT';
        // The ledger before the trade: every entry new since is this trade's (the partner is held alone).
        const snapshot = await readLedger(t, actor, L);
        const known = snapshot.shapeKnown ? new Set(snapshot.entries.map(entryKey)) : undefined;
        // "Trades draw on a pre-funded partner fiat balance": the reservation takes from it. The amount is not stated
        // (a draw fee may ride on the trade amount): observed beside the trade's fiat amount.
        const { result: made } = await expectBalanceMove(t, actor, R, 'the reservation', 1, async () => {
          const reserved = await reservedTrade(t, actor, R);
          const trade = await readTrade(t, actor, reserved.transactId, R);
          return { direction: 'down', amount: trade.fiatAmount, result: reserved };
        });

        const ids = [made.transactId, made.quoteId];
        const debited = (es: LedgerMatch[]) => typeNames(es).includes('buy_debit');
        let ledger = await awaitLedger(t, actor, ids, L, debited, LEDGER_WAIT_MS, known);
        let settledTo: string[] = [];
        if (!debited(ledger.entries)) {
          // A ledger may book the debit when the trade settles rather than at the reservation: settle it and read again.
          settledTo = await pollToTerminal(t, actor, made.quoteId, L);
          ledger = await awaitLedger(t, actor, ids, L, debited, LEDGER_WAIT_MS, known);
        }
        if (ledger.entries.length === 0) {
          t.unverified(
            `no ledger entry named trade ${made.transactId} or quote ${made.quoteId}, and none was new on the first pages read, after the reservation${settledTo.length ? ` and after settlement (${settledTo.join(' → ')})` : ''}, in ${ledger.reads} reads over ${LEDGER_WAIT_MS / 1000} s: the entry shape is not shown — no entry could be tied to the trade to judge buy_debit`,
          );
        }
        t.expect.that(debited(ledger.entries), 'the ledger entry of the reservation is a buy_debit', {
          requirement: L,
          actual: typeNames(ledger.entries),
          exchange: ledger.exchange,
        });
        t.observe('pools-ledger-debit-booked', settledTo.length ? `after settlement (${settledTo.join(' → ')})` : 'at the reservation');
      },
    }),
    check({
      name: 'a returned trade is found by the poll, refunded once to the balance, and shows one buy_refund',
      requirements: ['POOLS-POLL-RETURNED', 'POOLS-BAL-RETURNED-REFUND', 'POOLS-LEDGER-BUY-REFUND'],
      // Held alone: the balance and the ledger move only by this check's trade.
      needs: ['poolsExclusive', 'poolsTradeOutcome'],
      async run({ poolsExclusive: actor, poolsTradeOutcome: outcome }, t: CheckTools) {
        const drawnFrom = (await readBalance(t, actor, 'POOLS-BAL-RETURNED-REFUND')).balance!;
        const made = await reservedTrade(t, actor, 'POOLS-POLL-RETURNED');
        const trade = await readTrade(t, actor, made.transactId, 'POOLS-POLL-RETURNED');
        // The ledger before the return: every entry new since is this trade's (the partner is held alone).
        const snapshot = await readLedger(t, actor, 'POOLS-LEDGER-BUY-REFUND');
        const known = snapshot.shapeKnown ? new Set(snapshot.entries.map(entryKey)) : undefined;
        await outcome(made.quoteId, 'returned', actor);
        const before = (await readBalance(t, actor, 'POOLS-BAL-RETURNED-REFUND')).balance!;
        const seen: string[] = [];
        for (let i = 0; i < 8 && seen.at(-1) !== 'returned'; i++) {
          if (i > 0) await t.sleep(250, 'pools settlement poll', 'target');
          seen.push(await poll(t, actor, made.quoteId, 'POOLS-POLL-RETURNED'));
        }
        t.expect.equal(seen.at(-1), 'returned', `polling discovers the returned state the trigger chose (saw ${seen.join(' → ')})`, {
          requirement: 'POOLS-POLL-RETURNED',
        });
        t.observe('pools-returned-path', seen);
        const returned = (await readBalance(t, actor, 'POOLS-BAL-RETURNED-REFUND')).balance!;
        // One more poll after returned must not credit again (idempotent refund).
        t.expect.equal(await poll(t, actor, made.quoteId, 'POOLS-POLL-RETURNED'), 'returned', 'returned is kept on the next poll', {
          requirement: 'POOLS-POLL-RETURNED',
        });
        const later = (await readBalance(t, actor, 'POOLS-BAL-RETURNED-REFUND')).balance!;
        const read = await readTrade(t, actor, made.transactId, 'POOLS-POLL-RETURNED');
        t.expect.equal(read.status, 'returned', 'the trade reads returned', { requirement: 'POOLS-POLL-RETURNED' });
        // "automatic idempotent refund credit to partner balance": a credit, once. Its amount is not stated (the trade
        // amount, or less a fee the draw carried): observed beside the trade's fiat amount and what the trade drew.
        const B = 'POOLS-BAL-RETURNED-REFUND';
        expectMoveDirection(t, B, 'the refund of the returned trade', { before, after: returned, direction: 'up', amount: trade.fiatAmount });
        expectMoveDirection(t, B, 'a further poll of the returned trade (the refund is idempotent)', { before: returned, after: later, direction: 'none' });
        t.observe(
          'pools-returned-refund-of-draw',
          { drawn: decSub(drawnFrom, before), refunded: decSub(returned, before) },
          'what the trade drew, and what its return gave back',
        );

        const L = 'POOLS-LEDGER-BUY-REFUND';
        const refunds = (es: LedgerMatch[]) => typeNames(es).filter((n) => n === 'buy_refund').length;
        const ledger = await awaitLedger(t, actor, [made.transactId, made.quoteId], L, (es) => refunds(es) > 0, LEDGER_WAIT_MS, known);
        if (ledger.entries.length === 0) {
          t.unverified(
            `no ledger entry named trade ${made.transactId} or quote ${made.quoteId}, and none was new on the first pages read, after it was returned, in ${ledger.reads} reads over ${LEDGER_WAIT_MS / 1000} s: the entry shape is not shown — no entry could be tied to the trade to judge buy_refund`,
          );
        }
        t.expect.equal(refunds(ledger.entries), 1, 'exactly one buy_refund for the returned trade', { requirement: L, exchange: ledger.exchange });
      },
    }),
  ],
});
