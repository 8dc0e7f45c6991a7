// Pools firm-quote TTL behind a slow network: latency on both directions and
// a bandwidth limit on answers (the check's own Toxiproxy proxy). expiresAt
// is still about the TTL after the request, a transact sent before expiry
// succeeds, and one sent after it gives 409.
import { defineSuite, type CheckContext, type CheckDef } from '../../src/runner/check.js';
import { FirmQuote, TransactResponse } from '../../src/model/schemas/pools/index.js';
import { mainPool, poolPath, quoteBody } from '../../conformance/pools/support/pools.js';

const R = 'POOLS-TTL-UNDER-NETWORK-FAULTS';
const LATENCY_MS = 300;
const JITTER_MS = 100;
/** KB/s on the answer path. */
const BANDWIDTH_KBPS = 8;
/** Transact this long before the deadline, on top of the network delay. */
const BEFORE_EXPIRY_MS = 1_500;

export default defineSuite({
  service: 'pools',
  section: 'Limits',
  checks: [
    {
      name: 'behind latency and a bandwidth limit, a firm quote still lives the TTL: transact before expiry succeeds, after it gives 409',
      requirements: [R],
      needs: ['pools.partner'],
      timeoutMs: 120_000,
      async run(ctx: CheckContext) {
        if (!ctx.chaos) ctx.skip('network faults need Toxiproxy: run through `rampart chaos`');
        const actor = ctx.pools.partner();
        const { client, proxy } = await ctx.chaos.throughProxy(actor, 'pools');
        for (const stream of ['upstream', 'downstream'] as const)
          await proxy.addToxic({ name: `latency-${stream}`, type: 'latency', stream, toxicity: 1, attributes: { latency: LATENCY_MS, jitter: JITTER_MS } });
        await proxy.addToxic({ name: 'bandwidth-downstream', type: 'bandwidth', stream: 'downstream', toxicity: 1, attributes: { rate: BANDWIDTH_KBPS } });

        const ttl = ctx.profile.timing.quoteTtlSeconds * 1000;
        const tol = ctx.profile.tolerances.quoteTtlSeconds * 1000;
        const oneWay = LATENCY_MS + JITTER_MS;
        const quote = async () => {
          const sentAt = Date.now();
          const ex = ctx.expect.status(await client.post(poolPath(mainPool(ctx), '/quote'), quoteBody(ctx, { type: 'firm' }), { retry: false }), [200, 201], R);
          const q = ctx.expect.schema(ex, FirmQuote, R);
          // The server stamps expiresAt when the request reaches it: up to one network delay after sentAt.
          const ahead = Date.parse(q.expiresAt) - sentAt;
          ctx.expect.that(ahead >= ttl - tol && ahead <= ttl + tol + oneWay, `expiresAt is the TTL (${ttl / 1000} s ± ${tol / 1000} s, plus up to ${oneWay} ms of network delay) after the request`, {
            requirement: R,
            actual: `${(ahead / 1000).toFixed(2)} s`,
            exchange: ex,
          });
          return { q, sentAt, roundTripMs: ex.durationMs };
        };
        const [early, late] = [await quote(), await quote()];
        ctx.observe('pools-ttl-behind-toxics', { roundTripMs: early.roundTripMs, expiresInMs: Date.parse(early.q.expiresAt) - early.sentAt });

        const send = (quoteId: string) => client.post(poolPath(mainPool(ctx), '/transact'), { quoteId }, { idempotencyKey: true, retry: false });
        const deadline = Math.min(Date.parse(early.q.expiresAt), early.sentAt + ttl);
        await ctx.sleep(Math.max(0, deadline - BEFORE_EXPIRY_MS - oneWay - Date.now()), 'pools quote behind toxics: just before expiry');
        const ok = ctx.expect.status(await send(early.q.quoteId), [200, 201], R);
        ctx.expect.equal(ctx.expect.schema(ok, TransactResponse, R).quoteId, early.q.quoteId, 'the transact before expiry answers the trade of the quote', { requirement: R, exchange: ok });

        const until = Math.max(Date.parse(late.q.expiresAt), late.sentAt + ttl + oneWay) + tol + 250;
        await ctx.sleep(Math.max(0, until - Date.now()), 'pools quote behind toxics: past expiry');
        ctx.expect.error(await send(late.q.quoteId), 409, 'conflict', { requirement: R });
      },
    },
  ] satisfies CheckDef[],
});
