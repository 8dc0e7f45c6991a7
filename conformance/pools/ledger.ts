// Pools ledger: partner-scoped balance movements, cursor-paginated, with the
// entry types payin_credit, buy_debit and buy_refund. Its query parameters
// and response shape are not shown: entries are found as support/pools/ledger.ts
// describes, the next cursor followed in the profile's declared words
// (pools.ledgerPaging) or as ?cursor=, and where neither can be found the
// check observes the shape and ends unverified, never passed. Partner scope
// is judged twice: no entry naming the owner's trade in another partner's
// ledger, and no new entry at all in the ledger of a partner held alone while
// another partner's balance moves (a pay-in names no trade).
import { randomInt } from 'node:crypto';
import { check, defineSuite, type CheckTools } from '../../src/runner/check.js';
import type { PoolsActor } from '../../src/needs/define.js';
import { expect2xx } from '../../support/expect.js';
import { entryIs, entryKey, ledgerPaging, readLedger, type LedgerEntry } from '../../support/pools/ledger.js';
import { awaitLedger, decEq, expectMoveDirection, ledgerEntriesFor, readBalance, reservedTrade } from '../../support/pools/pools.js';

/** How long the ledger may take to record a move it reflects (target time). */
const LEDGER_WAIT_MS = 5_000;
/** Entries per page for the cursor walk: two, so a page that repeats the cursor entry differs from page one. */
const WALK_LIMIT = 2;
const WALK_PAGES = 4;

export default defineSuite({
  service: 'pools',
  section: 'Endpoints',
  checks: [
    check({
      name: "another partner's ledger never shows this partner's balance movements",
      requirements: ['POOLS-LEDGER-PARTNER-SCOPED'],
      needs: ['poolsPartner', 'poolsOtherTenant'],
      async run({ poolsPartner: owner, poolsOtherTenant: other }, t: CheckTools) {
        const R = 'POOLS-LEDGER-PARTNER-SCOPED';
        const made = await reservedTrade(t, owner, R);
        const ids = [made.transactId, made.quoteId];
        // The owner's own ledger must name the trade first, or nothing tells whose movement an entry is.
        const own = await awaitLedger(t, owner, ids, R, (es) => es.length > 0, LEDGER_WAIT_MS);
        if (own.entries.length === 0)
          t.unverified(
            `the owner's ledger never named trade ${made.transactId} or quote ${made.quoteId} (entry shape not shown): another partner's view of it cannot be told apart`,
          );
        const theirs = await ledgerEntriesFor(t, other, ids, R);
        t.expect.equal(
          theirs.entries.map((e) => e.entry),
          [],
          `${other.partner.name}'s ledger shows no entry of ${owner.partner.name}'s trade`,
          { requirement: R, exchange: theirs.exchange },
        );
      },
    }),
    check({
      name: "a partner held alone gains no ledger entry while another partner's balance moves: neither its pay-in (an entry naming no trade) nor its trade",
      requirements: ['POOLS-LEDGER-PARTNER-SCOPED'],
      // The viewer is held alone: nothing of its own moves its ledger meanwhile, so any new entry is another partner's.
      needs: ['poolsExclusive', 'poolsOtherTenant', 'poolsBalanceCredit'],
      async run({ poolsExclusive: viewer, poolsOtherTenant: owner, poolsBalanceCredit: credit }, t: CheckTools) {
        const R = 'POOLS-LEDGER-PARTNER-SCOPED';
        const before = await readLedger(t, viewer, R);
        if (!before.shapeKnown) t.unverified('GET /pools/ledger answered no list of entries (its shape is not shown): a new entry cannot be found');
        const known = new Set(before.entries.map(entryKey));
        const ownerBefore = new Set((await readLedger(t, owner, R)).entries.map(entryKey));
        await credit(`${randomInt(10, 50)}.${String(randomInt(1, 100)).padStart(2, '0')}`, owner);
        await reservedTrade(t, owner, R);
        // The owner's own ledger records its movements first: a target that books nothing leaks nothing to see.
        let booked = 0;
        for (const deadline = Date.now() + LEDGER_WAIT_MS; ;) {
          booked = (await readLedger(t, owner, R)).entries.filter((e) => !ownerBefore.has(entryKey(e))).length;
          if (booked >= 2 || Date.now() >= deadline) break;
          await t.sleep(500, "the owner's ledger to record its pay-in and trade", 'target');
        }
        if (booked === 0) t.unverified(`${owner.partner.name}'s own ledger recorded neither its pay-in nor its trade: there was no movement to leak`);
        const after = await readLedger(t, viewer, R);
        const fresh = after.entries.filter((e) => !known.has(entryKey(e)));
        t.expect.equal(fresh, [], `${viewer.partner.name}'s ledger (held alone) gains no entry from ${owner.partner.name}'s pay-in and trade`, {
          requirement: R,
          exchange: after.exchange,
        });
        t.observe('pools-ledger-owner-new-entries', booked);
      },
    }),
    check({
      name: 'the ledger is cursor-paginated: following its next cursor continues the list, no entry shows on two pages',
      requirements: ['POOLS-LEDGER-CURSOR'],
      needs: ['poolsPartner'],
      async run({ poolsPartner: actor }, t: CheckTools) {
        const R = 'POOLS-LEDGER-CURSOR';
        const paging = ledgerPaging(t.profile);
        // Declared words are the sandbox's own: a cursor they do not reach fails. Guessed ones leave it unverified.
        const notTaken = (why: string) =>
          paging.declared
            ? t.expect.that(false, `the ledger takes its cursor as ?${paging.cursorParam}= (the profile's pools.ledgerPaging)`, { requirement: R, actual: why })
            : t.unverified(`${why}: this target may name the cursor otherwise (the parameter is not shown; declare pools.ledgerPaging)`);
        t.observe('pools-ledger-paging', paging.declared ? `declared: ?${paging.cursorParam}=` : 'guessed: ?cursor= (the trades list’s words)');
        // Two trades: with the opening pay-in, at least three movements, more than one page of two.
        await reservedTrade(t, actor, R);
        await reservedTrade(t, actor, R);
        const first = expect2xx(t, await actor.client.get('/pools/ledger', { [paging.limitParam]: WALK_LIMIT }), R, 'GET /pools/ledger');
        const page1 = paging.entries(first.json);
        let next = paging.next(first.json);
        t.observe(
          'pools-ledger-page-shape',
          { keys: Object.keys((first.json ?? {}) as object), entries: page1?.length, nextCursor: next !== undefined },
          'the ledger query and shape are not shown',
        );
        if (!page1) t.unverified('GET /pools/ledger answered no list of entries (its shape is not shown): its pagination cannot be followed');
        if (!next)
          t.unverified(
            `GET /pools/ledger?${paging.limitParam}=${WALK_LIMIT} gave ${page1.length} entries and no next cursor: the cursor (not shown) could not be found to follow`,
          );
        const seen = new Map(page1.map((e) => [entryKey(e), 1]));
        let pages = 1;
        for (; pages < WALK_PAGES && next; pages++) {
          const ex = await actor.client.get('/pools/ledger', { [paging.limitParam]: WALK_LIMIT, [paging.cursorParam]: next });
          if (ex.status < 200 || ex.status >= 300) notTaken(`GET /pools/ledger?${paging.cursorParam}= answered ${ex.status}`);
          const page: LedgerEntry[] | undefined = paging.entries(ex.json);
          if (!page) t.unverified('a ledger page after the cursor holds no list of entries');
          // A page equal to page one means the cursor was not taken at all.
          if (pages === 1 && page.length > 0 && page.map(entryKey).join() === page1.map(entryKey).join())
            notTaken(`the page after ?${paging.cursorParam}= repeats page one`);
          for (const e of page) {
            t.expect.that(!seen.has(entryKey(e)), `ledger entry ${entryKey(e).slice(0, 80)} shows on one page only`, { requirement: R, exchange: ex });
            seen.set(entryKey(e), pages + 1);
          }
          next = paging.next(ex.json);
        }
        t.expect.that(seen.size > page1.length, 'following the cursor reached entries beyond page one', {
          requirement: R,
          actual: { entries: seen.size, pages },
        });
        t.observe('pools-ledger-walk', { pages, entries: seen.size });
      },
    }),
    check({
      name: 'a pay-in credits the balance (it goes up; by how much is not stated: observed) and shows in the ledger as one new payin_credit',
      requirements: ['POOLS-LEDGER-PAYIN-CREDIT'],
      // Held alone: the balance and the ledger move only by this check's pay-in.
      needs: ['poolsExclusive', 'poolsBalanceCredit'],
      async run({ poolsExclusive: actor, poolsBalanceCredit: credit }, t: CheckTools) {
        const R = 'POOLS-LEDGER-PAYIN-CREDIT';
        const amount = `${randomInt(10, 50)}.${String(randomInt(1, 100)).padStart(2, '0')}`;
        const before = await readLedger(t, actor, R);
        if (!before.shapeKnown) t.unverified('GET /pools/ledger answered no list of entries (its shape is not shown): a new entry cannot be found');
        const known = new Set(before.entries.map(entryKey));
        const balanceBefore = (await readBalance(t, actor, R)).balance!;
        const res = await credit(amount, actor);
        t.observe('pools-payin-trigger', { status: res.exchange.status, amount });
        const balanceAfter = await waitForBalance(t, actor, balanceBefore);
        // A pay-in funds the pre-funded balance: a credit. Its amount is not stated (a bank may take a fee): observed.
        expectMoveDirection(t, R, `the pay-in of ${amount}`, { before: balanceBefore, after: balanceAfter, direction: 'up', amount });
        let fresh: LedgerEntry[] = [];
        for (const deadline = Date.now() + LEDGER_WAIT_MS; ;) {
          fresh = (await readLedger(t, actor, R)).entries.filter((e) => !known.has(entryKey(e)));
          if (fresh.length > 0 || Date.now() >= deadline) break;
          await t.sleep(500, 'the ledger to record the pay-in', 'target');
        }
        t.expect.that(fresh.length > 0, 'the ledger records the pay-in (a balance movement)', { requirement: R, actual: 'no new ledger entry' });
        t.expect.that(fresh.filter((e) => entryIs(e, 'payin_credit')).length === 1, 'the pay-in shows as exactly one payin_credit entry', {
          requirement: R,
          expected: 'one new payin_credit entry',
          actual: fresh,
        });
      },
    }),
  ],
});

/** The balance once it has moved from `from` (a pay-in may reach it a moment later), bounded. */
async function waitForBalance(t: CheckTools, actor: PoolsActor, from: string): Promise<string> {
  const deadline = Date.now() + LEDGER_WAIT_MS;
  for (;;) {
    const now = (await readBalance(t, actor, 'POOLS-LEDGER-PAYIN-CREDIT')).balance!;
    if (!decEq(now, from) || Date.now() >= deadline) return now;
    await t.sleep(250, 'the pay-in to reach the balance', 'target');
  }
}
