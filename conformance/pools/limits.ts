// Pools "Limits": the firm quote TTL in real time (the spec's about 15 s,
// never a value the profile declares), and the velocity cap computed exactly
// from the partner's declared cap and the fiat amounts of its trades.
import type { Exchange } from '../../src/client/types.js';
import { POOLS_LIMITS } from '../../src/model/limits.js';
import type { PoolsActor } from '../../src/needs/define.js';
import { check, defineSuite, type CheckTools } from '../../src/runner/check.js';
import { FirmQuote, StoredQuote, TradesPage, TransactResponse } from '../../src/model/schemas/pools/index.js';
import { expect2xx } from '../../support/expect.js';
import { expectPoolsError } from '../../support/pools/errors.js';
import {
  createFirmQuote,
  decAdd,
  decCmp,
  decDiv,
  decDivInt,
  decMul,
  decQuot,
  decRound,
  decSub,
  mainPool,
  poolPath,
  poolsProfile,
  quoteBody,
  quoteLifetime,
  expectQuoteLifetime,
  quotePath,
  readBalance,
  readCapabilities,
  transact,
  waitPastExpiry,
} from '../../support/pools/pools.js';
import { unlessThrottled } from '../../support/pools/throttle.js';

/** Most trades the off-by-default check makes (it sizes them to spend beyond every declared cap within this many). */
const MAX_UNCAPPED_TRADES = 6;

/** How far ahead of the deadline "just before expiry" transacts. */
const BEFORE_EXPIRY_MS = 1_500;
/** Most trades the velocity check makes before the cap must have bitten (it sizes its amount to stay below). */
const MAX_VELOCITY_TRADES = 10;
/** Trades list pages read to learn what the rolling 24 h window already holds. */
const MAX_WINDOW_PAGES = 10;
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
    const ex = expect2xx(
      t,
      await actor.client.get('/pools/trades', { created_after: new Date(now - DAY_MS).toISOString(), limit: POOLS_LIMITS.trades.limitMax, cursor }),
      R,
    );
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
  t.unverified(
    `the partner has more than ${MAX_WINDOW_PAGES * POOLS_LIMITS.trades.limitMax} trades in the last 24 h: the notional the cap already holds cannot be read`,
  );
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
          expectQuoteLifetime(t, actor.client, life, 'POOLS-TTL-EXPIRES-AT', fq.exchange);
          // The shortest lifetime the measure allows: the waits below stay before expiry whatever it was.
          lifetimes.push(life.low);
        }
        t.observe('pools-quote-ttl-seconds', Number(lifetimes[0]!.toFixed(2)));
        // Counted from the request, the shorter of the target's lifetime and the spec's: never late, whatever the clocks.
        const deadline = early.sentAt + Math.min(lifetimes[0]!, ttl) * 1000;
        // Sent early enough to arrive before it, whatever the way there takes (the slowest round trip seen).
        const way = actor.client.clock.roundTrip()?.p95Ms ?? 0;
        await t.sleep(Math.max(0, deadline - BEFORE_EXPIRY_MS - way - Date.now()), 'pools quote: just before expiry', 'target');
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
        const { cap: bounds } = await readCapabilities(t, actor, R);
        t.observe('pools-velocity-plan', {
          cap,
          priorTrades: prior.trades,
          priorLow: prior.low,
          priorHigh: prior.high,
          amount,
          minOrderUsdt: bounds.minOrderUsdt,
          maxOrderUsdt: bounds.maxOrderUsdt,
        });
        const balance = (await readBalance(t, actor, R)).balance;
        const spend = decAdd(roomMax, amount);
        if (balance !== null && decCmp(balance, spend) < 0) {
          t.unverified(
            `the partner's balance ${balance} cannot fund trades up to the cap and one beyond it (${spend}): a 402 would come before the 429 — fund the partner`,
          );
        }

        const made: { quoteId: string; transactId: string; key: string }[] = [];
        let sum = '0';
        let hit = false;
        for (let i = 0; i < MAX_VELOCITY_TRADES && !hit; i++) {
          const requested = decAdd(sum, amount);
          const q = await unlessThrottled(
            t,
            (o) => actor.client.post(poolPath(mainPool(t), '/quote'), quoteBody(t, { type: 'firm', amount }), { retry: false, ...o }),
            decCmp(decAdd(prior.high, requested), cap) > 0,
          );
          if (q.status === 400)
            t.unverified(
              `a quote of ${amount} was refused with 400 (${q.json?.code}): outside the pool's order bounds ${bounds.minOrderUsdt}–${bounds.maxOrderUsdt} USDT? The cap cannot be reached with trades this size`,
            );
          let fiat = amount;
          let ex = q;
          let quoteId: string | undefined;
          if (q.status !== 429) {
            expect2xx(t, q, R, 'a firm quote within the cap');
            quoteId = t.expect.schema(q, FirmQuote, R).quoteId;
            // The notional is the trade's fiat amount, as the stored quote records it.
            fiat = t.expect.schema(expect2xx(t, await actor.client.get(quotePath(quoteId)), R), StoredQuote, R).fiatAmount;
            const id = quoteId;
            ex = await unlessThrottled(
              t,
              (o) => actor.client.post(poolPath(mainPool(t), '/transact'), { quoteId: id }, { idempotencyKey: `rampart-vel-${id}`, retry: false, ...o }),
              decCmp(decAdd(prior.high, decAdd(sum, fiat)), cap) > 0,
            );
          }
          const after = decAdd(sum, fiat);
          // Over the cap under every reading of which trades count, and under at least one.
          const overForSure = decCmp(decAdd(prior.high, after), cap) > 0 && decCmp(decAdd(prior.low, after), cap) > 0;
          const overMaybe = decCmp(decAdd(prior.high, after), cap) > 0;
          if (ex.status === 429) {
            expectPoolsError(t, ex, 429, { requirement: R });
            t.expect.that(
              overMaybe,
              `a 429 only once the cap is exceeded: this ${quoteId ? 'transact' : 'quote'} takes the 24 h notional to ${decAdd(prior.high, after)} at most, within the cap ${cap}`,
              {
                requirement: R,
                expected: `2xx (notional ${prior.low}–${prior.high} before this check, ${sum} by its ${made.length} trade(s), ${fiat} now, cap ${cap})`,
                actual: `429 ${ex.bodyText.slice(0, 200)}`,
                exchange: ex,
              },
            );
            t.observe('pools-velocity-429-at', {
              at: quoteId ? 'transact' : 'quote',
              trade: i + 1,
              notionalAfter: after,
              priorLow: prior.low,
              priorHigh: prior.high,
              cap,
              unambiguous: overForSure,
            });
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
        if (!hit)
          t.unverified(
            `${MAX_VELOCITY_TRADES} trades of ${amount} never took the notional beyond the cap ${cap} under every reading of which trades count (before: ${prior.low}–${prior.high})`,
          );
        if (made.length === 0)
          t.unverified(
            `the cap ${cap} left no room for a trade of this check (24 h notional already ${prior.low}–${prior.high}): no earlier transact to retry`,
          );
        for (const d of made) {
          const replay = await actor.client.post(poolPath(mainPool(t), '/transact'), { quoteId: d.quoteId }, { idempotencyKey: d.key, retry: false });
          expect2xx(t, replay, 'POOLS-VEL-RETRY-EXCLUDED', 'an idempotent retry of a transact made before the cap');
          t.expect.equal(
            t.expect.schema(replay, TransactResponse, 'POOLS-VEL-RETRY-EXCLUDED').transactId,
            d.transactId,
            'an idempotent retry past the cap returns its trade',
            {
              requirement: 'POOLS-VEL-RETRY-EXCLUDED',
              exchange: replay,
            },
          );
        }
      },
    }),
    check({
      name: 'the velocity cap rolls over 24 h: with the window moved by the sandbox clock, a trade older than a day stops counting while a younger one still counts',
      requirements: ['POOLS-VEL-ROLLING-24H', 'POOLS-ERR-ENVELOPE'],
      budgetMs: 90_000,
      async run({ poolsVelocityRoll: actor }, t: CheckTools) {
        const R = 'POOLS-VEL-ROLLING-24H';
        const advance = (seconds: number) => actor.advance(seconds);
        const cap = actor.partner.velocityCap!;
        const tenths = (n: number) => decRound(decDivInt(decMul(cap, String(n)), 10, 4), 2, 'down');
        /** A firm quote and its transact; a 429 the cap cannot explain (`within`) is tried again as throttle. */
        const trade = async (amount: string, within: boolean): Promise<Exchange> => {
          const q = await unlessThrottled(
            t,
            (o) => actor.client.post(poolPath(mainPool(t), '/quote'), quoteBody(t, { type: 'firm', amount }), { retry: false, ...o }),
            !within,
          );
          if (q.status === 400)
            t.unverified(
              `a quote of ${amount} (a share of the cap ${cap}) was refused with 400 (${q.json?.code}): outside the pool's order bounds? The window cannot be walked`,
            );
          if (q.status === 429) return q;
          const { quoteId } = t.expect.schema(expect2xx(t, q, R, `a firm quote of ${amount}`), FirmQuote, R);
          return unlessThrottled(
            t,
            (o) => actor.client.post(poolPath(mainPool(t), '/transact'), { quoteId }, { idempotencyKey: `rampart-roll-${quoteId}`, retry: false, ...o }),
            !within,
          );
        };
        const within = async (amount: string, why: string) => {
          const ex = await trade(amount, true);
          t.expect.that(ex.status >= 200 && ex.status < 300, `a trade of ${amount} goes through: ${why}`, {
            requirement: R,
            expected: '2xx',
            actual: ex.status,
            exchange: ex,
          });
        };
        const beyond = async (amount: string, why: string) => {
          const ex = await trade(amount, false);
          t.expect.that(ex.status === 429, `a trade of ${amount} is refused 429: ${why}`, { requirement: R, expected: 429, actual: ex.status, exchange: ex });
          expectPoolsError(t, ex, 429, { requirement: R });
        };
        const DAY_S = DAY_MS / 1000;
        // Every trade the partner made before (other checks spent its cap) leaves the window first.
        await advance(DAY_S + WINDOW_EDGE_MS / 1000);
        await within(tenths(5), `half the cap ${cap}, in a window a day past every earlier trade`);
        await advance(DAY_S / 2);
        await within(tenths(4), `12 h later: 0.9 of the cap in the window`);
        await beyond(tenths(2), `both trades count: it would take the window to 1.1 of the cap`);
        // Now the first trade is 24 h and 10 min old, the second 12 h and 10 min.
        await advance(DAY_S / 2 + WINDOW_EDGE_MS / 1000);
        await within(tenths(2), `the first trade, over a day old, has left the window (0.6 of the cap)`);
        await beyond(tenths(5), `the second trade, half a day old, still counts (1.1 of the cap): the window rolls, it is not reset whole`);
      },
    }),
    check({
      name: 'the velocity cap is off by default: a partner without a declared cap is not refused 429 over a spend beyond every cap the profile declares',
      requirements: ['POOLS-VEL-OFF-BY-DEFAULT'],
      needs: ['poolsPartner'],
      budgetMs: 90_000,
      async run({ poolsPartner: actor }, t: CheckTools) {
        const R = 'POOLS-VEL-OFF-BY-DEFAULT';
        // poolsPartner never declares velocityCap: its cap is the default, which the spec says is off.
        const profileAmount = poolsProfile(t).quote.amount;
        const caps = (t.profile.pools?.partners ?? []).map((p) => p.velocityCap).filter((c): c is string => !!c);
        const highestCap = caps.reduce((a, b) => (decCmp(a, b) >= 0 ? a : b), '0');
        // Beyond the highest cap the profile knows of by one order, and at least three orders: bounded, and a default cap as low as a declared one would bite.
        const threeOrders = decMul(profileAmount, '3');
        const beyondCaps = decAdd(highestCap, profileAmount);
        const spend = decCmp(beyondCaps, threeOrders) >= 0 ? beyondCaps : threeOrders;
        let amount = profileAmount;
        if (decQuot(spend, amount) + 1n > BigInt(MAX_UNCAPPED_TRADES)) amount = decDiv(spend, String(MAX_UNCAPPED_TRADES - 1), 2, 'up');
        const { balance } = await readBalance(t, actor, R);
        if (balance !== null && decCmp(balance, spend) < 0)
          t.unverified(
            `the partner's balance ${balance} cannot fund the ${spend} this check spends (beyond the highest declared cap ${highestCap}): fund the partner`,
          );
        t.observe('pools-velocity-default-plan', { spend, amount, highestDeclaredCap: highestCap });
        let sum = '0';
        for (let i = 0; i < MAX_UNCAPPED_TRADES && decCmp(sum, spend) < 0; i++) {
          const q = await unlessThrottled(
            t,
            (o) => actor.client.post(poolPath(mainPool(t), '/quote'), quoteBody(t, { type: 'firm', amount }), { retry: false, ...o }),
            false,
          );
          if (q.status === 400)
            t.unverified(
              `a quote of ${amount} was refused with 400 (${q.json?.code}): outside the pool's order bounds? The spend cannot be made in orders this size`,
            );
          t.expect.that(q.status !== 429, `a partner without a velocity cap is not refused 429 at quote time (24 h notional of this check so far: ${sum})`, {
            requirement: R,
            actual: `${q.status} ${q.bodyText.slice(0, 200)}`,
            exchange: q,
          });
          expect2xx(t, q, R, 'a firm quote');
          const quoteId = t.expect.schema(q, FirmQuote, R).quoteId;
          const ex = await unlessThrottled(
            t,
            (o) => actor.client.post(poolPath(mainPool(t), '/transact'), { quoteId }, { idempotencyKey: `rampart-nocap-${quoteId}`, retry: false, ...o }),
            false,
          );
          t.expect.that(ex.status !== 429, `a partner without a velocity cap is not refused 429 (24 h notional of this check: ${sum} before this ${amount})`, {
            requirement: R,
            expected: '2xx: the velocity cap is off by default',
            actual: `${ex.status} ${ex.bodyText.slice(0, 200)}`,
            exchange: ex,
          });
          expect2xx(t, ex, R, 'transact of a partner without a velocity cap');
          t.expect.schema(ex, TransactResponse, R);
          sum = decAdd(sum, amount);
        }
        t.expect.that(decCmp(sum, spend) >= 0, `the check spent ${spend} without a 429`, { requirement: R, actual: sum });
      },
    }),
    check({
      name: 'an order below minOrderUsdt or above maxOrderUsdt (read from capabilities) is never executed; one within them is quoted',
      requirements: ['POOLS-ORDER-BOUNDS', 'POOLS-ERR-ENVELOPE'],
      needs: ['poolsPartner'],
      async run({ poolsPartner: actor }, t: CheckTools) {
        const R = 'POOLS-ORDER-BOUNDS';
        const { cap } = await readCapabilities(t, actor, R);
        // The bounds are in USDT: an order is sized in them exactly only when the pool's output is USDT (on_ramp cryptoAmount = USDT).
        if (cap.cryptoCurrency.toUpperCase() !== 'USDT')
          t.unverified(
            `the main pool's crypto leg is ${cap.cryptoCurrency}: an order cannot be sized in USDT (minOrderUsdt, maxOrderUsdt) without a rate the spec does not give`,
          );
        const within = await createFirmQuote(t, actor, R);
        const rate = within.quote.rate;
        // Half the minimum and twice the maximum, in fiat through the quote's own rate (USDT per fiat unit).
        const below = decDiv(decDivInt(cap.minOrderUsdt, 2, 6), rate, 2, 'down');
        const above = decDiv(decMul(cap.maxOrderUsdt, '2'), rate, 2, 'up');
        const sides: [string, string][] = [];
        if (decCmp(below, '0') > 0) sides.push(['below minOrderUsdt', below]);
        else t.observe('pools-order-bounds-low-side', `minOrderUsdt ${cap.minOrderUsdt} leaves no fiat amount below it at 2 decimals`);
        sides.push(['above maxOrderUsdt', above]);
        const seen: Record<string, string> = {};
        for (const [what, amount] of sides) {
          const q = await actor.client.post(poolPath(mainPool(t), '/quote'), quoteBody(t, { type: 'firm', amount }), { retry: false });
          if (q.status >= 400 && q.status < 500) {
            expectPoolsError(t, q, q.status, { requirement: R });
            seen[what] = `${q.status} ${q.json?.code} at quote time`;
            continue;
          }
          expect2xx(t, q, R, `a quote ${what} (a 4xx, or a quote whose transact is refused)`);
          t.expect.that(
            q.json?.executable === true && typeof q.json?.quoteId === 'string',
            `a quote ${what} that is not refused is a firm quote (to transact)`,
            { requirement: R, exchange: q },
          );
          const tx = await actor.client.post(poolPath(mainPool(t), '/transact'), { quoteId: q.json.quoteId }, { idempotencyKey: true, retry: false });
          t.expect.that(
            tx.status >= 400 && tx.status < 500,
            `an order ${what} (${amount} ${cap.fiatCurrency}, bounds ${cap.minOrderUsdt}–${cap.maxOrderUsdt} USDT) is never executed: its transact is refused`,
            {
              requirement: R,
              expected: '4xx',
              actual: `${tx.status} ${tx.bodyText.slice(0, 200)}`,
              exchange: tx,
            },
          );
          expectPoolsError(t, tx, tx.status, { requirement: R });
          seen[what] = `${tx.status} ${tx.json?.code} at transact`;
        }
        t.observe('pools-order-bounds-refusals', { ...seen, minOrderUsdt: cap.minOrderUsdt, maxOrderUsdt: cap.maxOrderUsdt, below, above });
      },
    }),
  ],
});
