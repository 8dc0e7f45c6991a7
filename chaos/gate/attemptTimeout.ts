// Gate "Events > Delivery rules" rule 2: an attempt is given 10 s (the
// profile's attemptTimeoutMs). A latency toxic on the answer path makes the
// receiver's 200 arrive late: past the timeout it is a failed attempt and is
// retried; just under it, the 200 acknowledges.
import { defineSuite, type CheckContext, type CheckDef } from '../../src/runner/check.js';
import {
  latestArrivalOf,
  programmedTestEvent,
  quietFor,
  scaledSchedule,
  gapTolerance,
  settledDelivery,
  waitForAttempts,
} from './support/deliveries.js';
import { chaosKit, webhookToxic } from './support/toxics.js';

const R = 'GATE-DLV-TIMEOUT-10S';

/** How far past / short of the timeout the answer is delayed. */
const margin = (timeoutMs: number) => Math.max(1_500, Math.round(timeoutMs * 0.15));

export default defineSuite({
  service: 'gate',
  section: 'Events > Delivery rules',
  checks: [
    {
      name: 'an answer delayed past the attempt timeout is a failed attempt and is retried',
      requirements: [R],
      needs: ['gate.webhooks'],
      timeoutMs: 15 * 60_000,
      async run(ctx: CheckContext) {
        chaosKit(ctx);
        const T = ctx.profile.timing.attemptTimeoutMs;
        const actor = await ctx.gate.webhooks({ exclusive: true });
        const toxic = await webhookToxic(ctx, actor, 'latency', 'downstream', { latency: T + margin(T), jitter: 0 });
        const ev = await programmedTestEvent(ctx, actor, [], R);
        // The request itself is not delayed: the receiver sees attempt 1 at once and answers 200, which reaches the sender too late.
        const attempts = await waitForAttempts(ctx, ev, 2, T + latestArrivalOf(ctx, 2), R, `a 200 delayed ${T + margin(T)} ms (timeout ${T} ms) counts as failed`);
        ctx.expect.equal(attempts[0]!.answeredStatus, 200, 'the receiver answered the first attempt 200 (only late)', { requirement: R });
        const waited = attempts[1]!.arrivedAt - attempts[0]!.arrivedAt;
        ctx.observe('gate.webhooks.timeoutRetryAfterMs', waited, `attempt 2 followed attempt 1 after the ${T} ms timeout plus the first retry gap`);
        ctx.expect.that(waited >= T - 250, `the retry came only after the ${T} ms attempt timeout`, { requirement: R, expected: `≥ ${T} ms`, actual: waited });
        await toxic.remove();
        const { delivery, exchange } = await settledDelivery(ctx, actor, ev.delivery.id, ['succeeded'], latestArrivalOf(ctx, 3) + T, R);
        ctx.expect.equal(delivery.status, 'succeeded', 'the delivery succeeds once answers arrive in time', { requirement: R, exchange });
        ctx.expect.that(delivery.attempts >= 2, 'the timed-out attempt is counted', { requirement: R, actual: delivery.attempts, exchange });
      },
    },
    {
      name: 'an answer delayed just under the attempt timeout acknowledges the event',
      requirements: [R],
      needs: ['gate.webhooks'],
      timeoutMs: 15 * 60_000,
      async run(ctx: CheckContext) {
        chaosKit(ctx);
        const T = ctx.profile.timing.attemptTimeoutMs;
        const actor = await ctx.gate.webhooks({ exclusive: true });
        await webhookToxic(ctx, actor, 'latency', 'downstream', { latency: T - margin(T), jitter: 0 });
        const ev = await programmedTestEvent(ctx, actor, [], R);
        await waitForAttempts(ctx, ev, 1, latestArrivalOf(ctx, 1), R, 'the event is attempted');
        const firstGap = scaledSchedule(ctx)[0]!;
        const attempts = await quietFor(ctx, ev, T + firstGap + gapTolerance(ctx, firstGap), 'no retry after an answer just in time');
        ctx.expect.equal(attempts.length, 1, `a 200 arriving ${margin(T)} ms before the timeout acknowledges: no retry`, { requirement: R });
        const { delivery, exchange } = await settledDelivery(ctx, actor, ev.delivery.id, ['succeeded'], 10_000, R);
        ctx.expect.equal([delivery.status, delivery.attempts], ['succeeded', 1], 'the delivery is succeeded after one attempt', { requirement: R, exchange });
      },
    },
  ] satisfies CheckDef[],
});
