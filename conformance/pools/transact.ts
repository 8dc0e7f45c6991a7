// Pools transact (one-time, idempotent on quoteId and on Idempotency-Key) and
// the status poll, which alone advances settlement. Transact's success status
// is not shown: any 2xx.
import { randomUUID } from 'node:crypto';
import { check, defineSuite, type CheckTools, type RequirementId } from '../../src/runner/check.js';
import type { PoolsActor } from '../../src/needs/define.js';
import type { Exchange } from '../../src/client/types.js';
import { FirmQuote, StoredQuote, TradesPage, TransactResponse } from '../../src/model/schemas/pools/index.js';
import { expect2xx } from '../../support/expect.js';
import { expectPoolsError } from '../../support/pools/errors.js';
import {
  createFirmQuote,
  decCmp,
  decEq,
  decSub,
  mainPool,
  poll,
  poolPath,
  quoteBody,
  quotePath,
  readBalance,
  readCapabilities,
  readTrade,
  reservedTrade,
  settleTo,
  transact,
} from '../../support/pools/pools.js';

/** Concurrent transacts on one quote per burst, and bursts (each on its own quote) run even when each shows one trade. */
const RACE_BURST_SIZE = 8;
const RACE_BURSTS = 3;

/** How long the balance may take to show a release (target time). */
const RELEASE_WAIT_MS = 5_000;
/** Polls after a terminal state, each must keep it. */
const REPOLLS = 2;

/** The partner's trades of one quote, from the trades list (the trade made at or after `since`). */
async function tradesOfQuote(t: CheckTools, actor: PoolsActor, quoteId: string, since: string, requirement: RequirementId) {
  const ex = expect2xx(t, await actor.client.get('/pools/trades', { limit: 100, created_after: since }), requirement, 'GET /pools/trades');
  return { ex, trades: t.expect.schema(ex, TradesPage, requirement).data.filter((x) => x.quoteId === quoteId) };
}

/**
 * A refusal that may come at quote time or at transact (the spec names the
 * status, not the step): quote the body, and transact it when it was quoted.
 * Returns the refusing exchange and where it came.
 */
async function refusedAtQuoteOrTransact(
  t: CheckTools,
  actor: PoolsActor,
  body: Record<string, unknown>,
  status: number,
  requirement: RequirementId,
): Promise<{ ex: Exchange; at: 'quote' | 'transact' }> {
  const q = await actor.client.post(poolPath(mainPool(t), '/quote'), body, { retry: false });
  if (q.status === status) return { ex: q, at: 'quote' };
  expect2xx(t, q, requirement, `a quote (or ${status} at quote time)`);
  const quote = t.expect.schema(q, FirmQuote, requirement);
  const ex = await actor.client.post(poolPath(mainPool(t), '/transact'), { quoteId: quote.quoteId }, { idempotencyKey: true, retry: false });
  return { ex, at: 'transact' };
}

/** Polls a reserved trade gets to reach its chosen outcome (as settleTo: the poll alone advances it). */
const SETTLE_POLLS = 8;

export default defineSuite({
  service: 'pools',
  section: 'Endpoints',
  checks: [
    check({
      name: 'transact without an Idempotency-Key is refused with a 4xx and the quote stays active',
      requirements: ['POOLS-TX-IDEMPOTENCY-KEY-REQUIRED'],
      needs: ['poolsPartner'],
      async run({ poolsPartner: actor }, t: CheckTools) {
        const R = 'POOLS-TX-IDEMPOTENCY-KEY-REQUIRED';
        const { quote } = await createFirmQuote(t, actor, R);
        const ex = await actor.client.post(poolPath(mainPool(t), '/transact'), { quoteId: quote.quoteId }, { idempotencyKey: false, retry: false });
        // The key is required; the status of its absence is not shown (a validation 400 is the likely one): any 4xx refuses.
        t.expect.that(ex.status >= 400 && ex.status < 500, 'a transact without Idempotency-Key is refused with a 4xx', {
          requirement: R,
          actual: `${ex.status} ${ex.bodyText.slice(0, 200)}`,
          exchange: ex,
        });
        t.observe('pools-transact-missing-idempotency-key-status', ex.status);
        const read = expect2xx(t, await actor.client.get(quotePath(quote.quoteId)), R);
        t.expect.equal(t.expect.schema(read, StoredQuote, R).status, 'active', 'a refused transact consumes nothing', { requirement: R, exchange: read });
      },
    }),
    check({
      name: 'transact reserves a trade; the same key replays it; the same key with another body gives 409 idempotency-conflict',
      requirements: ['POOLS-TX-RESERVED', 'POOLS-TX-REPLAY-SAME-TRADE', 'POOLS-TX-KEY-CONFLICT-409', 'POOLS-ERR-ENVELOPE'],
      needs: ['poolsPartner'],
      async run({ poolsPartner: actor }, t: CheckTools) {
        const first = await createFirmQuote(t, actor, 'POOLS-TX-RESERVED');
        const second = await createFirmQuote(t, actor, 'POOLS-TX-KEY-CONFLICT-409');
        const key = randomUUID();
        const made = await transact(t, actor, first.quote.quoteId, 'POOLS-TX-RESERVED', key);
        const replay = await actor.client.post(poolPath(mainPool(t), '/transact'), { quoteId: first.quote.quoteId }, { idempotencyKey: key, retry: false });
        expect2xx(t, replay, 'POOLS-TX-REPLAY-SAME-TRADE', 'a replay with the same key and body');
        const again = t.expect.schema(replay, TransactResponse, 'POOLS-TX-REPLAY-SAME-TRADE');
        t.expect.equal(again.transactId, made.transactId, 'a replay returns the same trade', { requirement: 'POOLS-TX-REPLAY-SAME-TRADE', exchange: replay });
        const conflict = await actor.client.post(poolPath(mainPool(t), '/transact'), { quoteId: second.quote.quoteId }, { idempotencyKey: key, retry: false });
        expectPoolsError(t, conflict, 409, { code: 'idempotency-conflict', requirement: 'POOLS-TX-KEY-CONFLICT-409' });
        const still = t.expect.schema(
          expect2xx(t, await actor.client.get(quotePath(second.quote.quoteId)), 'POOLS-TX-KEY-CONFLICT-409'),
          StoredQuote,
          'POOLS-TX-KEY-CONFLICT-409',
        );
        t.expect.equal(still.status, 'active', 'the conflicting transact consumed nothing', { requirement: 'POOLS-TX-KEY-CONFLICT-409' });
      },
    }),
    check({
      name: 'another Idempotency-Key on a consumed quote returns the existing trade (rule 3) or 409 (state table), and never makes a second trade',
      requirements: ['POOLS-TX-OTHER-KEY-SAME-QUOTE', 'POOLS-ERR-ENVELOPE'],
      needs: ['poolsPartner'],
      async run({ poolsPartner: actor }, t: CheckTools) {
        const R = 'POOLS-TX-OTHER-KEY-SAME-QUOTE';
        const made = await reservedTrade(t, actor, R);
        const trade = await readTrade(t, actor, made.transactId, R);
        const ex = await actor.client.post(poolPath(mainPool(t), '/transact'), { quoteId: made.quoteId }, { idempotencyKey: true, retry: false });
        // Endpoint rule 3 (idempotent on quoteId: the existing trade) and the quote state table (409 on a consumed quote) disagree: both pass.
        if (ex.status === 409) {
          expectPoolsError(t, ex, 409, { requirement: R });
          t.observe('pools-transact-consumed-quote-new-key', '409 conflict', 'reading: the quote state table');
        } else {
          expect2xx(t, ex, R, 'transact of a consumed quote with another key (the existing trade, or 409)');
          const again = t.expect.schema(ex, TransactResponse, R);
          t.expect.equal(again.transactId, made.transactId, 'the existing trade comes back', { requirement: R, exchange: ex });
          t.observe('pools-transact-consumed-quote-new-key', 'existing trade', 'reading: endpoint rule 3');
        }
        const { ex: list, trades } = await tradesOfQuote(t, actor, made.quoteId, trade.createdAt, R);
        t.expect.equal(
          trades.map((x) => x.transactId),
          [made.transactId],
          'the quote has one trade, whatever the reading',
          { requirement: R, exchange: list },
        );
      },
    }),
    check({
      name: 'concurrent transacts with different keys on one quote create one trade',
      requirements: ['POOLS-TX-CONCURRENT-SINGLE-USE', 'POOLS-ERR-ENVELOPE'],
      needs: ['poolsPartner'],
      async run({ poolsPartner: actor }, t: CheckTools) {
        const R = 'POOLS-TX-CONCURRENT-SINGLE-USE';
        // A remote network spreads a burst's arrivals by its jitter, which may be wider than the target's race
        // window: several bursts, each on a quote of its own, so a race the jitter hid in one shows in another.
        let raced = 0;
        for (let burst = 0; burst < RACE_BURSTS; burst++) {
          const { quote } = await createFirmQuote(t, actor, R);
          const answers = await Promise.all(
            Array.from({ length: RACE_BURST_SIZE }, () =>
              actor.client.post(poolPath(mainPool(t), '/transact'), { quoteId: quote.quoteId }, { idempotencyKey: true, retry: false }),
            ),
          );
          t.observe(
            'pools-concurrent-transact-statuses',
            answers.map((x) => x.status),
          );
          const ids = new Set<string>();
          let answered = 0;
          for (const ex of answers) {
            // A throttle (429, "or throttle") is no answer on the quote: it neither passes nor fails single use.
            if (ex.status === 429) {
              expectPoolsError(t, ex, 429, { requirement: R });
              continue;
            }
            answered++;
            // The losers get the existing trade (rule 3) or 409 (the state table): both readings pass.
            if (ex.status === 409) {
              expectPoolsError(t, ex, 409, { requirement: R });
              continue;
            }
            expect2xx(t, ex, R, 'a concurrent transact (the trade, or 409)');
            ids.add(t.expect.schema(ex, TransactResponse, R).transactId);
          }
          if (answered >= 2) raced++;
          t.expect.equal([...ids].length, answered ? 1 : 0, `exactly one trade across the concurrent transacts (got ${[...ids].join(', ')})`, {
            requirement: R,
          });
          if (!ids.size) continue;
          const made = await readTrade(t, actor, [...ids][0]!, R);
          const { ex: list, trades } = await tradesOfQuote(t, actor, quote.quoteId, made.createdAt, R);
          t.expect.equal(trades.length, 1, 'the trades list holds one trade for the quote', { requirement: R, exchange: list });
        }
        if (!raced)
          t.unverified(`the target throttled every burst of ${RACE_BURST_SIZE} concurrent transacts (429) to fewer than two answers: no race was run`);
      },
    }),
    check({
      name: 'transact beyond the pre-funded balance (oversized amount) gives 402',
      requirements: ['POOLS-TX-INSUFFICIENT-402', 'POOLS-ERR-ENVELOPE'],
      needs: ['poolsPartner', 'poolsOversized'],
      async run({ poolsPartner: actor, poolsOversized: oversized }, t: CheckTools) {
        const R = 'POOLS-TX-INSUFFICIENT-402';
        // The amount must really exceed this partner's balance, and sit within the pool's order bounds, or the 402 is not what is judged.
        const { balance } = await readBalance(t, actor, R);
        if (balance !== null && decCmp(oversized, balance) <= 0)
          t.unverified(`pools.oversizedAmount ${oversized} does not exceed the partner's balance ${balance}: raise it above every funded partner's balance`);
        const { ex, at } = await refusedAtQuoteOrTransact(t, actor, quoteBody(t, { type: 'firm', amount: oversized }), 402, R);
        if (at === 'transact' || ex.status !== 400) {
          expectPoolsError(t, ex, 402, { requirement: R });
        } else {
          const { cap } = await readCapabilities(t, actor, R);
          t.unverified(
            `a quote of pools.oversizedAmount ${oversized} was refused with 400 (${ex.json?.code}): outside the pool's order bounds ${cap.minOrderUsdt}–${cap.maxOrderUsdt} USDT? Choose an amount above the balance and within the bounds`,
          );
        }
        t.observe('pools-402-at', at, at === 'quote' ? 'the target refused the oversized amount at quote time' : undefined);
      },
    }),
    check({
      name: 'transact by an unfunded partner gives 402',
      requirements: ['POOLS-TX-INSUFFICIENT-402', 'POOLS-ERR-ENVELOPE'],
      needs: ['poolsUnfunded'],
      async run({ poolsUnfunded: actor }, t: CheckTools) {
        const R = 'POOLS-TX-INSUFFICIENT-402';
        const { ex, at } = await refusedAtQuoteOrTransact(t, actor, quoteBody(t, { type: 'firm' }), 402, R);
        expectPoolsError(t, ex, 402, { requirement: R });
        t.observe('pools-402-at', at, at === 'quote' ? 'the target refused the unfunded partner at quote time' : undefined);
      },
    }),
    check({
      name: 'off_ramp transact without off_ramp enabled gives 501',
      requirements: ['POOLS-TX-OFF-RAMP-501', 'POOLS-ERR-ENVELOPE'],
      needs: ['poolsNoOffRamp'],
      async run({ poolsNoOffRamp: actor }, t: CheckTools) {
        const R = 'POOLS-TX-OFF-RAMP-501';
        const { ex, at } = await refusedAtQuoteOrTransact(
          t,
          actor,
          quoteBody(t, { type: 'firm', side: 'off_ramp', destAddress: undefined, destNetwork: undefined }),
          501,
          R,
        );
        expectPoolsError(t, ex, 501, { requirement: R });
        t.observe('pools-off-ramp-501-at', at);
      },
    }),
    check({
      name: 'only the poll advances settlement: trade reads stay reserved until GET /pools/transactions/{quoteId}; polled again, the settled trade stays settled',
      requirements: ['POOLS-POLL-ADVANCES', 'POOLS-POLL-STATUS', 'POOLS-POLL-PURE-READS', 'POOLS-POLL-TERMINAL-FINAL'],
      needs: ['poolsPartner', 'poolsTradeOutcome'],
      async run({ poolsPartner: actor, poolsTradeOutcome: outcome }, t: CheckTools) {
        const made = await reservedTrade(t, actor, 'POOLS-POLL-ADVANCES');
        await outcome(made.quoteId, 'settled', actor);
        const R = 'POOLS-POLL-PURE-READS';
        const one = await readTrade(t, actor, made.transactId, R);
        t.expect.equal(one.status, 'reserved', 'GET /pools/trades/{transactId} does not advance settlement', { requirement: R });
        const listed = expect2xx(t, await actor.client.get('/pools/trades', { created_after: one.createdAt, limit: 100 }), R, 'GET /pools/trades');
        const inList = t.expect.schema(listed, TradesPage, R).data.find((x) => x.transactId === made.transactId);
        t.expect.that(inList !== undefined, 'the trade is listed from its own createdAt on', { requirement: R, exchange: listed });
        t.expect.equal(inList.status, 'reserved', 'GET /pools/trades does not advance settlement', { requirement: R, exchange: listed });
        const again = await readTrade(t, actor, made.transactId, R);
        t.expect.equal(again.status, 'reserved', 'a second pure read still shows reserved', { requirement: R });
        // The poll answers one of the documented trade statuses, and polling reaches the chosen outcome.
        // Which poll ends settlement is not shown (the first, or a later one): every poll's answer is judged a documented status.
        const seen = [await poll(t, actor, made.quoteId, 'POOLS-POLL-STATUS')];
        for (let i = 1; i < SETTLE_POLLS && seen.at(-1) === 'reserved'; i++) {
          await t.sleep(250, 'pools settlement poll', 'target');
          seen.push(await poll(t, actor, made.quoteId, 'POOLS-POLL-STATUS'));
        }
        t.expect.that(seen.at(-1) === 'settled', 'polling GET /pools/transactions/{quoteId} reaches settled, the outcome chosen', {
          requirement: 'POOLS-POLL-ADVANCES',
          expected: 'settled',
          actual: seen.join(' → '),
        });
        t.observe('pools-polls-to-settle', seen.length);
        const after = await readTrade(t, actor, made.transactId, 'POOLS-POLL-ADVANCES');
        t.expect.equal(after.status, 'settled', 'the trade reads settled once the poll advanced it', { requirement: 'POOLS-POLL-ADVANCES' });
        t.observe('pools-settledAt-on-settled', after.settledAt !== null);
        // Terminal: a later poll keeps settled — or finds returned, the one documented move on (a bank return, discovered by poll).
        const T = 'POOLS-POLL-TERMINAL-FINAL';
        await t.sleep(250, 'a later poll', 'target');
        const later = await poll(t, actor, made.quoteId, T);
        t.expect.that(later === 'settled' || later === 'returned', 'settled is terminal: a later poll keeps it (or finds it returned)', {
          requirement: T,
          expected: 'settled (or returned)',
          actual: later,
        });
        t.expect.equal((await readTrade(t, actor, made.transactId, T)).status, later, 'the trade reads what the later poll answered', { requirement: T });
        if (later === 'returned') t.observe('pools-settled-later-returned', made.quoteId, 'returned without a return chosen: a bank return');
      },
    }),
    check({
      name: 'off_ramp transact of a partner with off_ramp enabled is not refused with 501: it reserves a sell, or a 4xx names a missing prerequisite',
      requirements: ['POOLS-TX-OFF-RAMP-ENABLED', 'POOLS-ERR-ENVELOPE'],
      needs: ['poolsOffRamp'],
      async run({ poolsOffRamp: actor }, t: CheckTools) {
        const R = 'POOLS-TX-OFF-RAMP-ENABLED';
        // Enabled means for the partner, the pool and the environment: the pool's own capabilities must list off_ramp.
        const { cap } = await readCapabilities(t, actor, R);
        if (!cap.sides.includes('off_ramp'))
          t.unverified(
            `the profile declares offRamp for ${actor.partner.name}, but the capabilities of ${mainPool(t)} list sides ${cap.sides.join(', ')}: off_ramp is not enabled for this pool, where 501 is the documented answer`,
          );
        const buy = await createFirmQuote(t, actor, R);
        const sell = t.expect.schema(expect2xx(t, await actor.client.get(quotePath(buy.quote.quoteId)), R), StoredQuote, R).cryptoAmount;
        const q = await actor.client.post(
          poolPath(mainPool(t), '/quote'),
          quoteBody(t, { type: 'firm', side: 'off_ramp', amount: sell, destAddress: undefined, destNetwork: undefined }),
          { retry: false },
        );
        t.expect.that(q.status !== 501, 'an off_ramp quote of an off_ramp-enabled partner is not refused with 501', {
          requirement: R,
          actual: `${q.status} ${q.bodyText.slice(0, 200)}`,
          exchange: q,
        });
        if (q.status >= 400 && q.status < 500) {
          expectPoolsError(t, q, q.status, { requirement: R });
          t.unverified(`the off_ramp quote was refused with ${q.status} ${q.json?.code}: no off_ramp quote to transact`);
        }
        expect2xx(t, q, R, 'an off_ramp firm quote');
        const quote = t.expect.schema(q, FirmQuote, R);
        const ex = await actor.client.post(poolPath(mainPool(t), '/transact'), { quoteId: quote.quoteId }, { idempotencyKey: true, retry: false });
        t.expect.that(ex.status !== 501, 'off_ramp transact of a partner with off_ramp enabled is not refused with 501', {
          requirement: R,
          actual: `${ex.status} ${ex.bodyText.slice(0, 200)}`,
          exchange: ex,
        });
        if (ex.status >= 200 && ex.status < 300) {
          const made = t.expect.schema(ex, TransactResponse, R);
          t.expect.equal((await readTrade(t, actor, made.transactId, R)).side, 'off_ramp', 'the reserved trade is the sell', { requirement: R, exchange: ex });
          t.observe('pools-off-ramp-enabled-transact', 'reserved');
        } else {
          // The documented prerequisites (crypto sent to cryptoDepositAddress and credited, an approved payout destination) are not reachable from outside: a 4xx refusal is within the rule.
          t.expect.that(
            ex.status >= 400 && ex.status < 500,
            'an enabled off_ramp transact either reserves a sell or is refused with a 4xx for a missing prerequisite',
            { requirement: R, actual: ex.status, exchange: ex },
          );
          expectPoolsError(t, ex, ex.status, { requirement: R });
          t.observe(
            'pools-off-ramp-enabled-transact',
            { status: ex.status, code: ex.json?.code },
            'refused for a prerequisite: crypto deposited to cryptoDepositAddress and credited, an approved payout destination',
          );
        }
      },
    }),
    check({
      name: 'released and failed are terminal: later polls keep them; a released reservation is unwound (the balance gets it back, once)',
      requirements: ['POOLS-POLL-TERMINAL-FINAL', 'POOLS-BAL-RELEASED-UNWOUND'],
      // Held alone: the balance moves only by this check's trades.
      needs: ['poolsExclusive', 'poolsTradeOutcome'],
      async run({ poolsExclusive: actor, poolsTradeOutcome: choose }, t: CheckTools) {
        const T = 'POOLS-POLL-TERMINAL-FINAL';
        const U = 'POOLS-BAL-RELEASED-UNWOUND';
        const balance = async () => (await readBalance(t, actor, U)).balance!;
        const before = await balance();
        t.expect.that(before !== null, 'a funded partner with the balance gate on has a decimal balance', { requirement: U, actual: before });
        const released = await reservedTrade(t, actor, T);
        await settleTo(t, choose, actor, released.quoteId, 'released', T);
        // The release may reach the balance a moment after the poll that discovered it: read again (bounded) until it is back.
        let back = await balance();
        for (const deadline = Date.now() + RELEASE_WAIT_MS; !decEq(back, before) && Date.now() < deadline; back = await balance())
          await t.sleep(250, 'the release to reach the balance', 'target');
        t.expect.that(decEq(back, before), 'a released reservation is unwound: the balance is back where it was before the trade', {
          requirement: U,
          expected: before,
          actual: `${back} (moved ${decSub(back, before)})`,
        });
        for (let i = 0; i < REPOLLS; i++) {
          await t.sleep(250, 'a later poll', 'target');
          t.expect.equal(await poll(t, actor, released.quoteId, T), 'released', 'released is terminal: a later poll keeps it', { requirement: T });
        }
        t.expect.that(decEq(await balance(), before), 'the release is credited once: later polls move no money', { requirement: U });
        const read = await readTrade(t, actor, released.transactId, T);
        t.expect.equal(read.status, 'released', 'the trade reads released', { requirement: T });
        t.observe('pools-released-settledAt', read.settledAt);

        const failed = await reservedTrade(t, actor, T);
        await settleTo(t, choose, actor, failed.quoteId, 'failed', T);
        for (let i = 0; i < REPOLLS; i++) {
          await t.sleep(250, 'a later poll', 'target');
          t.expect.equal(await poll(t, actor, failed.quoteId, T), 'failed', 'failed is terminal: a later poll keeps it', { requirement: T });
        }
        t.observe('pools-failed-balance-moved', decSub(await balance(), before), 'whether a failed trade unwinds its reservation is not shown');
      },
    }),
  ],
});
