// Pools "Limits": the firm quote TTL in real time, and the velocity cap.
import { defineSuite, type CheckContext } from '../../src/runner/check.js';
import { FirmQuote, TransactResponse } from '../../src/model/schemas/pools/index.js';
import { createFirmQuote, decAdd, mainPool, poolPath, poolsProfile, quoteBody, transact, waitPastExpiry } from './support/pools.js';

/** How far ahead of the deadline "just before expiry" transacts. */
const BEFORE_EXPIRY_MS = 1_500;
/** Velocity check bound: more trades than this to exceed the cap and the check skips. */
const MAX_VELOCITY_TRADES = 10;

function decGt(a: string, b: string): boolean {
  // a > b  ⇔  b − a is negative; decAdd keeps the arithmetic exact.
  return decAdd(b, `-${a}`).startsWith('-');
}

export default defineSuite({
  service: 'pools',
  section: 'Limits',
  checks: [
    {
      name: 'a firm quote lives about the TTL: transact just before expiry succeeds, just after gives 409',
      requirements: ['POOLS-TTL-EXPIRES-AT', 'POOLS-TTL-TRANSACT-BEFORE-EXPIRY', 'POOLS-TTL-TRANSACT-AFTER-EXPIRY-409'],
      needs: ['pools.partner'],
      timeoutMs: 90_000,
      async run(ctx: CheckContext) {
        const actor = ctx.pools.partner();
        const ttl = ctx.profile.timing.quoteTtlSeconds;
        const tol = ctx.profile.tolerances.quoteTtlSeconds;
        const [early, late] = await Promise.all([
          createFirmQuote(ctx, actor, 'POOLS-TTL-EXPIRES-AT'),
          createFirmQuote(ctx, actor, 'POOLS-TTL-EXPIRES-AT'),
        ]);
        for (const fq of [early, late]) {
          const ahead = (Date.parse(fq.quote.expiresAt) - fq.sentAt) / 1000;
          ctx.expect.that(Math.abs(ahead - ttl) <= tol, `expiresAt is ${ttl} s (±${tol} s) after the request`, {
            requirement: 'POOLS-TTL-EXPIRES-AT',
            expected: `${ttl} ± ${tol} s`,
            actual: `${ahead.toFixed(2)} s`,
            exchange: fq.exchange,
          });
        }
        ctx.observe('pools-quote-ttl-seconds', Number(((Date.parse(early.quote.expiresAt) - early.sentAt) / 1000).toFixed(2)));
        // The earlier of the server's expiresAt and the profile TTL, so neither clock skew nor a long TTL makes this late.
        const deadline = Math.min(Date.parse(early.quote.expiresAt), early.sentAt + ttl * 1000);
        await ctx.sleep(Math.max(0, deadline - BEFORE_EXPIRY_MS - Date.now()), 'pools quote: just before expiry');
        await transact(ctx, actor, early.quote.quoteId, 'POOLS-TTL-TRANSACT-BEFORE-EXPIRY');
        await waitPastExpiry(ctx, late);
        const ex = await actor.client.post(poolPath(mainPool(ctx), '/transact'), { quoteId: late.quote.quoteId }, { idempotencyKey: true, retry: false });
        ctx.expect.error(ex, 409, 'conflict', { requirement: 'POOLS-TTL-TRANSACT-AFTER-EXPIRY-409' });
      },
    },
    {
      name: 'the velocity cap answers 429 once exceeded, while idempotent retries of earlier transacts still return their trades',
      requirements: ['POOLS-VEL-CAP-429', 'POOLS-VEL-RETRY-EXCLUDED'],
      needs: ['pools.velocityCap'],
      timeoutMs: 60_000,
      async run(ctx: CheckContext) {
        const actor = ctx.pools.velocityCapped();
        const cap = actor.partner.velocityCap!;
        const amount = poolsProfile(ctx).quote.amount;
        const done: { quoteId: string; transactId: string; key: string }[] = [];
        let notional = '0';
        for (let i = 0; i < MAX_VELOCITY_TRADES + 1; i++) {
          const q = await actor.client.post(poolPath(mainPool(ctx), '/quote'), quoteBody(ctx, { type: 'firm' }), { retry: false });
          const step = decAdd(notional, amount);
          if (q.status === 429) {
            ctx.expect.error(q, 429, 'rate_limited', { requirement: 'POOLS-VEL-CAP-429' });
            ctx.observe('pools-velocity-429-at', { at: 'quote', trade: i + 1, notionalAfter: step, cap });
            break;
          }
          ctx.expect.status(q, [200, 201], 'POOLS-VEL-CAP-429');
          const quote = ctx.expect.schema(q, FirmQuote, 'POOLS-VEL-CAP-429');
          const t = await actor.client.post(poolPath(mainPool(ctx), '/transact'), { quoteId: quote.quoteId }, { idempotencyKey: true, retry: false });
          if (t.status === 429) {
            ctx.expect.error(t, 429, 'rate_limited', { requirement: 'POOLS-VEL-CAP-429' });
            ctx.observe('pools-velocity-429-at', { at: 'transact', trade: i + 1, notionalAfter: step, cap });
            break;
          }
          ctx.expect.that(!decGt(step, cap), `a trade bringing the 24 h notional to ${step} (cap ${cap}) is over the cap and must give 429`, {
            requirement: 'POOLS-VEL-CAP-429',
            actual: t.status,
            exchange: t,
          });
          ctx.expect.status(t, [200, 201], 'POOLS-VEL-CAP-429');
          done.push({ quoteId: quote.quoteId, transactId: ctx.expect.schema(t, TransactResponse, 'POOLS-VEL-CAP-429').transactId, key: t.request.idempotencyKey! });
          notional = step;
          if (i === MAX_VELOCITY_TRADES) ctx.skip(`the velocity cap ${cap} needs more than ${MAX_VELOCITY_TRADES} trades of ${amount}`);
        }
        if (done.length === 0) ctx.skip('the cap was already reached before this run (rolling 24 h window): no earlier transact to retry');
        for (const d of done) {
          const replay = await actor.client.post(poolPath(mainPool(ctx), '/transact'), { quoteId: d.quoteId }, { idempotencyKey: d.key, retry: false });
          ctx.expect.status(replay, [200, 201], 'POOLS-VEL-RETRY-EXCLUDED');
          ctx.expect.equal(ctx.expect.schema(replay, TransactResponse, 'POOLS-VEL-RETRY-EXCLUDED').transactId, d.transactId, 'an idempotent retry past the cap returns its trade', {
            requirement: 'POOLS-VEL-RETRY-EXCLUDED',
            exchange: replay,
          });
        }
      },
    },
  ],
});
