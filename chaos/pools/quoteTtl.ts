// Pools firm-quote TTL behind a slow network: latency on both directions and
// a bandwidth limit on answers (the check's own Toxiproxy proxy). expiresAt
// is still the spec's TTL (about 15 s) after the request, a transact sent
// before expiry succeeds, and one sent after it gives 409.
import { check, defineSuite, type CheckTools } from '../../src/runner/check.js';
import { POOLS_LIMITS } from '../../src/model/limits.js';
import { TransactResponse } from '../../src/model/schemas/pools/index.js';
import { expect2xx } from '../../support/expect.js';
import { createFirmQuote, expectQuoteLifetime, expectUntypedError, mainPool, poolPath, quoteLifetime } from '../../support/pools/pools.js';
import { clockNote, localBefore, localWhenPast } from '../../support/targetTime.js';

const R = 'POOLS-TTL-UNDER-NETWORK-FAULTS';
const LATENCY_MS = 300;
const JITTER_MS = 100;
/** KB/s on the answer path. */
const BANDWIDTH_KBPS = 8;
/** Transact this long before the deadline, on top of the network delay. */
const BEFORE_EXPIRY_MS = 1_500;
const TTL_MS = POOLS_LIMITS.quoteTtlSeconds * 1000;
/** The widest tolerance a profile may declare on the TTL (the schema's bound). */
const MAX_TTL_TOLERANCE_MS = 5_000;

export default defineSuite({
  service: 'pools',
  section: 'Limits',
  checks: [
    check({
      name: 'behind latency and a bandwidth limit, a firm quote still lives the TTL: transact before expiry succeeds, after it gives 409',
      requirements: [R],
      needs: ['poolsPartner', 'toxiproxy'],
      // Two quotes' lifetimes overlap: the later one's TTL and tolerance, plus the slowed requests.
      budgetMs: TTL_MS + MAX_TTL_TOLERANCE_MS + 60_000,
      async run({ poolsPartner: actor, toxiproxy: kit }, t: CheckTools) {
        const { client, proxy } = await kit.throughProxy(actor, 'pools');
        const slow = { partner: actor.partner, client };
        for (const stream of ['upstream', 'downstream'] as const)
          await proxy.addToxic({ name: `latency-${stream}`, type: 'latency', stream, toxicity: 1, attributes: { latency: LATENCY_MS, jitter: JITTER_MS } });
        await proxy.addToxic({ name: 'bandwidth-downstream', type: 'bandwidth', stream: 'downstream', toxicity: 1, attributes: { rate: BANDWIDTH_KBPS } });

        const tol = t.profile.tolerances.quoteTtlSeconds;
        const quote = async () => {
          const fq = await createFirmQuote(t, slow, R);
          // Judged on the target's own clock (the stored quote's createdAt, or its clock while the quote was made).
          const life = await quoteLifetime(t, slow, fq, R);
          expectQuoteLifetime(t, slow.client, life, R, fq.exchange);
          return fq;
        };
        const [early, late] = [await quote(), await quote()];
        t.observe('pools-ttl-behind-toxics', { roundTripMs: early.exchange.durationMs, clock: clockNote(slow.client) });

        const send = (quoteId: string) => client.post(poolPath(mainPool(t), '/transact'), { quoteId }, { idempotencyKey: true, retry: false });
        // The latest send that still arrives before expiry: before expiresAt on the target's clock (when it is known: the
        // lifetime was judged above) and before the spec's TTL from the request, less the way there (the slowed round
        // trip, or the toxics' worst case).
        const beforeExpiresAt = localBefore(slow.client, Date.parse(early.quote.expiresAt)) ?? Infinity;
        const way = Math.max(LATENCY_MS + JITTER_MS, early.exchange.durationMs);
        const deadline = Math.min(beforeExpiresAt, early.sentAt + TTL_MS);
        await t.sleep(Math.max(0, deadline - BEFORE_EXPIRY_MS - way - Date.now()), 'pools quote behind toxics: just before expiry', 'target');
        // The transact success status is not shown: any 2xx with the reserved trade of the quote.
        const ok = expect2xx(t, await send(early.quote.quoteId), R, 'a transact sent before expiry');
        t.expect.equal(t.expect.schema(ok, TransactResponse, R).quoteId, early.quote.quoteId, 'the transact before expiry answers the trade of the quote', {
          requirement: R,
          exchange: ok,
        });

        // Past expiresAt on the target's clock and past the spec's TTL (and tolerance) from the answer.
        const pastExpiresAt = localWhenPast(slow.client, Date.parse(late.quote.expiresAt)) ?? 0;
        const until = Math.max(pastExpiresAt, late.answeredAt + TTL_MS + tol * 1000) + 250;
        await t.sleep(Math.max(0, until - Date.now()), 'pools quote behind toxics: past expiry', 'target');
        // 409 for an expired quote; the spec maps no type to it, so the type is observed.
        expectUntypedError(t, await send(late.quote.quoteId), 409, R);
      },
    }),
  ],
});
