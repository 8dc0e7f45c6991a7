// Pools "Limits": the firm quote TTL in real time (the spec's about 15 s,
// never a value the profile declares), and the velocity cap computed exactly
// from the partner's declared cap and the fiat amounts of its trades.
import type { Exchange } from '../../src/client/types.js';
import { retryAfterMs } from '../../src/client/backoff.js';
import { POOLS_LIMITS } from '../../src/model/limits.js';
import type { PoolsActor } from '../../src/needs/define.js';
import { check, defineSuite, type CheckTools } from '../../src/runner/check.js';
import { Capabilities, FirmQuote, StoredQuote, TradesPage, TransactResponse } from '../../src/model/schemas/pools/index.js';
import { expect2xx } from '../../support/expect.js';
import { expectPoolsError } from '../../support/pools/errors.js';
import {
  createFirmQuote,
  decAdd,
  decCmp,
  decDivInt,
  decQuot,
  decRound,
  decSub,
  mainPool,
  poolPath,
  poolsProfile,
  quoteBody,
  quoteLifetime,
  quotePath,
  readBalance,
  transact,
  waitPastExpiry,
} from '../../support/pools/pools.js';

/** How far ahead of the deadline "just before expiry" transacts. */
const BEFORE_EXPIRY_MS = 1_500;
/** Most trades the velocity check makes before the cap must have bitten (it sizes its amount to stay below). */
const MAX_VELOCITY_TRADES = 10;
/** Trades list pages read to learn what the rolling 24 h window already holds. */
const MAX_WINDOW_PAGES = 10;
/** A 429 below the cap may be the documented throttle: the same transact is tried again this often before it counts. */
const THROTTLE_RETRIES = 3;
const DAY_MS = POOLS_LIMITS.velocityWindowMs;
/** Trades this close to leaving the 24 h window may leave it while the check runs: they count only in the upper bound. */
const WINDOW_EDGE_MS = 10 * 60_000;

/**
 * What the partner's rolling 24 h notional already holds, from its trades
 * list: `high` counts every trade in the window, `low` leaves out those that
 * were unwound (released, failed) or may leave the window during the check.
 * Which trades count against the cap is not shown, so both bounds are kept.
 */
async function windowNotional(t: CheckTools, actor: PoolsActor): Promise<{ low: string; high: string; trades: number }> {
  const R = 'POOLS-VEL-CAP-429';
  const now = Date.now();
  let low = '0';
  let high = '0';
  let trades = 0;
  let cursor: string | undefined;
  for (let i = 0; i < MAX_WINDOW_PAGES; i++) {
    const ex = expect2xx(t, await actor.client.get('/pools/trades', { created_after: new Date(now - DAY_MS).toISOString(), limit: POOLS_LIMITS.trades.limitMax, cursor }), R);
    const page = t.expect.schema(ex, TradesPage, R);
    for (const tr of page.data) {
      trades++;
      high = decAdd(high, tr.fiatAmount);
      const unwound = tr.status === 'released' || tr.status === 'failed';
      if (!unwound && Date.parse(tr.createdAt) > now - DAY_MS + WINDOW_EDGE_MS) low = decAdd(low, tr.fiatAmount);
    }
    if (!page.hasMore || !page.nextCursor) return { low, high, trades };
    cursor = page.nextCursor;
  }
  t.unverified(`the partner has more than ${MAX_WINDOW_PAGES * POOLS_LIMITS.trades.limitMax} trades in the last 24 h: the notional the cap already holds cannot be read`);
}

/** Send once; while the answer is a 429 that the cap cannot explain, wait (Retry-After, bounded) and send the same request again. */
async function unlessThrottled(t: CheckTools, send: () => Promise<Exchange>, explained: boolean): Promise<Exchange> {
  let ex = await send();
  for (let i = 0; i < THROTTLE_RETRIES && ex.status === 429 && !explained; i++) {
    const wait = Math.min(retryAfterMs(ex.headers['retry-after']) ?? 1000 * 2 ** i, 5_000);
    t.observe('pools-velocity-429-retried', { attempt: i + 1, waitMs: wait }, 'a 429 below the cap may be the documented throttle: the same request is tried again');
    await t.sleep(wait, 'a pools 429 below the velocity cap: throttle back-off', 'target');
    ex = await send();
  }
  return ex;
}

export default defineSuite({
  service: 'pools',
  section: 'Limits',
  checks: [
    check({
      name: 'a firm quote lives about 15 s (the spec TTL): transact just before expiry succeeds, just after gives 409',
      requirements: ['POOLS-TTL-EXPIRES-AT', 'POOLS-TTL-TRANSACT-BEFORE-EXPIRY', 'POOLS-TTL-TRANSACT-AFTER-EXPIRY-409', 'POOLS-ERR-ENVELOPE'],
      needs: ['poolsPartner'],
      async run({ poolsPartner: actor }, t: CheckTools) {
        const ttl = POOLS_LIMITS.quoteTtlSeconds;
        const tol = t.profile.tolerances.quoteTtlSeconds;
        const [early, late] = await Promise.all([createFirmQuote(t, actor, 'POOLS-TTL-EXPIRES-AT'), createFirmQuote(t, actor, 'POOLS-TTL-EXPIRES-AT')]);
        const lifetimes: number[] = [];
        for (const fq of [early, late]) {
          const life = await quoteLifetime(t, actor, fq, 'POOLS-TTL-EXPIRES-AT');
          t.expect.that(Math.abs(life.seconds - ttl) <= tol, `expiresAt is about ${ttl} s (±${tol} s) after the quote was made`, {
            requirement: 'POOLS-TTL-EXPIRES-AT',
            expected: `${ttl} ± ${tol} s`,
            actual: `${life.seconds.toFixed(2)} s (expiresAt − ${life.basis === 'createdAt' ? 'the stored createdAt' : 'the request time'})`,
            exchange: fq.exchange,
          });
          lifetimes.push(life.seconds);
        }
        t.observe('pools-quote-ttl-seconds', Number(lifetimes[0]!.toFixed(2)));
        // Counted from the request, the shorter of the target's lifetime and the spec's: never late, whatever the clocks.
        const deadline = early.sentAt + Math.min(lifetimes[0]!, ttl) * 1000;
        await t.sleep(Math.max(0, deadline - BEFORE_EXPIRY_MS - Date.now()), 'pools quote: just before expiry', 'target');
        await transact(t, actor, early.quote.quoteId, 'POOLS-TTL-TRANSACT-BEFORE-EXPIRY');
        await waitPastExpiry(t, late);
        const ex = await actor.client.post(poolPath(mainPool(t), '/transact'), { quoteId: late.quote.quoteId }, { idempotencyKey: true, retry: false });
        expectPoolsError(t, ex, 409, { requirement: 'POOLS-TTL-TRANSACT-AFTER-EXPIRY-409' });
      },
    }),
    check({
      name: 'the velocity cap: transacts within the declared cap succeed, the first beyond it gives 429; idempotent retries of earlier transacts still return their trades',
      requirements: ['POOLS-VEL-CAP-429', 'POOLS-VEL-RETRY-EXCLUDED', 'POOLS-ERR-ENVELOPE'],
      needs: ['poolsVelocityCapped'],
      budgetMs: 90_000,
      async run({ poolsVelocityCapped: actor }, t: CheckTools) {
        const R = 'POOLS-VEL-CAP-429';
        const cap = actor.partner.velocityCap!;
        const prior = await windowNotional(t, actor);
        // Room under the cap: at most cap − low, at least cap − high (which trades count is not shown).
        const roomMax = decSub(cap, prior.low);
        const roomMin = decSub(cap, prior.high);
        let amount = poolsProfile(t).quote.amount;
        // Size the trades: few enough to exceed the cap within MAX_VELOCITY_TRADES, small enough that one fits under every reading.
        if (decCmp(roomMax, '0') > 0 && decQuot(roomMax, amount) + 1n > BigInt(MAX_VELOCITY_TRADES)) amount = decRound(decDivInt(roomMax, 4, 4), 2, 'up');
        if (decCmp(roomMin, amount) < 0 && decCmp(roomMin, '0.02') >= 0) amount = decDivInt(roomMin, 2, 2);
        const bounds = t.expect.schema(expect2xx(t, await actor.client.get(poolPath(mainPool(t), '/capabilities')), R), Capabilities, R);
        t.observe('pools-velocity-plan', { cap, priorTrades: prior.trades, priorLow: prior.low, priorHigh: prior.high, amount, minOrderUsdt: bounds.minOrderUsdt, maxOrderUsdt: bounds.maxOrderUsdt });
        const balance = (await readBalance(t, actor, R)).balance;
        const spend = decAdd(roomMax, amount);
        if (balance !== null && decCmp(balance, spend) < 0) {
          t.unverified(`the partner's balance ${balance} cannot fund trades up to the cap and one beyond it (${spend}): a 402 would come before the 429 — fund the partner`);
        }

        const made: { quoteId: string; transactId: string; key: string }[] = [];
        let sum = '0';
        let hit = false;
        for (let i = 0; i < MAX_VELOCITY_TRADES && !hit; i++) {
          const requested = decAdd(sum, amount);
          const q = await unlessThrottled(t, () => actor.client.post(poolPath(mainPool(t), '/quote'), quoteBody(t, { type: 'firm', amount }), { retry: false }), decCmp(decAdd(prior.high, requested), cap) > 0);
          if (q.status === 400) t.unverified(`a quote of ${amount} was refused with 400 (${q.json?.code}): outside the pool's order bounds ${bounds.minOrderUsdt}–${bounds.maxOrderUsdt} USDT? The cap cannot be reached with trades this size`);
          let fiat = amount;
          let ex = q;
          let quoteId: string | undefined;
          if (q.status !== 429) {
            expect2xx(t, q, R, 'a firm quote within the cap');
            quoteId = t.expect.schema(q, FirmQuote, R).quoteId;
            // The notional is the trade's fiat amount, as the stored quote records it.
            fiat = t.expect.schema(expect2xx(t, await actor.client.get(quotePath(quoteId)), R), StoredQuote, R).fiatAmount;
            const id = quoteId;
            ex = await unlessThrottled(t, () => actor.client.post(poolPath(mainPool(t), '/transact'), { quoteId: id }, { idempotencyKey: `rampart-vel-${id}`, retry: false }), decCmp(decAdd(prior.high, decAdd(sum, fiat)), cap) > 0);
          }
          const after = decAdd(sum, fiat);
          // Over the cap under every reading of which trades count, and under at least one.
          const overForSure = decCmp(decAdd(prior.high, after), cap) > 0 && decCmp(decAdd(prior.low, after), cap) > 0;
          const overMaybe = decCmp(decAdd(prior.high, after), cap) > 0;
          if (ex.status === 429) {
            expectPoolsError(t, ex, 429, { requirement: R });
            t.expect.that(overMaybe, `a 429 only once the cap is exceeded: this ${quoteId ? 'transact' : 'quote'} takes the 24 h notional to ${decAdd(prior.high, after)} at most, within the cap ${cap}`, {
              requirement: R,
              expected: `2xx (notional ${prior.low}–${prior.high} before this check, ${sum} by its ${made.length} trade(s), ${fiat} now, cap ${cap})`,
              actual: `429 ${ex.bodyText.slice(0, 200)}`,
              exchange: ex,
            });
            t.observe('pools-velocity-429-at', { at: quoteId ? 'transact' : 'quote', trade: i + 1, notionalAfter: after, priorLow: prior.low, priorHigh: prior.high, cap, unambiguous: overForSure });
            hit = true;
            break;
          }
          expect2xx(t, ex, R, 'transact within the cap');
          t.expect.that(!overForSure, `a transact taking the 24 h notional to ${decAdd(prior.low, after)} or more, beyond the cap ${cap}, gives 429`, {
            requirement: R,
            expected: '429',
            actual: `${ex.status} ${ex.bodyText.slice(0, 200)}`,
            exchange: ex,
          });
          made.push({ quoteId: quoteId!, transactId: t.expect.schema(ex, TransactResponse, R).transactId, key: ex.request.idempotencyKey! });
          sum = after;
        }
        if (!hit) t.unverified(`${MAX_VELOCITY_TRADES} trades of ${amount} never took the notional beyond the cap ${cap} under every reading of which trades count (before: ${prior.low}–${prior.high})`);
        if (made.length === 0) t.unverified(`the cap ${cap} left no room for a trade of this check (24 h notional already ${prior.low}–${prior.high}): no earlier transact to retry`);
        for (const d of made) {
          const replay = await actor.client.post(poolPath(mainPool(t), '/transact'), { quoteId: d.quoteId }, { idempotencyKey: d.key, retry: false });
          expect2xx(t, replay, 'POOLS-VEL-RETRY-EXCLUDED', 'an idempotent retry of a transact made before the cap');
          t.expect.equal(t.expect.schema(replay, TransactResponse, 'POOLS-VEL-RETRY-EXCLUDED').transactId, d.transactId, 'an idempotent retry past the cap returns its trade', {
            requirement: 'POOLS-VEL-RETRY-EXCLUDED',
            exchange: replay,
          });
        }
      },
    }),
  ],
});
