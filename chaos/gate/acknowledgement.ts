// Gate "Events > Delivery rules": any 2xx acknowledges (201, 202 and 204 as
// well as 200), while 408 and 429 are transient and retried.
import { defineSuite, type CheckContext, type CheckDef } from '../../src/runner/check.js';
import {
  expectSameIdAndSigned,
  gapTolerance,
  latestArrivalOf,
  programmedTestEvent,
  quietFor,
  scaledSchedule,
  settledDelivery,
  skipUnlessAffordable,
  waitForAttempts,
} from './support/deliveries.js';

export default defineSuite({
  service: 'gate',
  section: 'Events > Delivery rules',
  checks: [
    {
      name: 'a receiver answering 201, 202 or 204 acknowledges: one attempt, succeeded, delivered_at set',
      requirements: ['GATE-DLV-2XX-ACKS'],
      needs: ['gate.webhooks'],
      timeoutMs: 30 * 60_000,
      async run(ctx: CheckContext) {
        const R = 'GATE-DLV-2XX-ACKS';
        skipUnlessAffordable(ctx, 1);
        const actor = await ctx.gate.webhooks({ exclusive: true });
        // A retry would come one first gap later: listen that long (plus its tolerance) for one.
        const firstGap = scaledSchedule(ctx)[0]!;
        const quiet = firstGap + gapTolerance(ctx, firstGap);
        for (const status of [201, 202, 204]) {
          const ev = await programmedTestEvent(ctx, actor, [{ kind: 'status', status }], R);
          await waitForAttempts(ctx, ev, 1, latestArrivalOf(ctx, 1), R, `a ${status} answer`);
          const attempts = await quietFor(ctx, ev, quiet, `no retry after a ${status}`);
          ctx.expect.equal(attempts.map((a) => a.answeredStatus), [status], `a ${status} answer acknowledges the event: no further attempt`, { requirement: R });
          const { delivery, exchange } = await settledDelivery(ctx, actor, ev.delivery.id, ['succeeded'], 10_000, R);
          ctx.expect.equal(delivery.status, 'succeeded', `the delivery acknowledged by ${status} is succeeded`, { requirement: R, exchange });
          ctx.expect.that(delivery.delivered_at !== null, `delivered_at is set after a ${status}`, { requirement: R, exchange });
          ctx.expect.equal(delivery.attempts, 1, `one attempt was enough for a ${status}`, { requirement: R, exchange });
        }
      },
    },
    {
      name: 'a receiver answering 408 or 429 is retried under the same event id until it answers 200',
      requirements: ['GATE-DLV-408-429-RETRIED', 'GATE-DLV-EVENT-ID-STABLE', 'GATE-DLV-SIGNED-EVERY-ATTEMPT'],
      needs: ['gate.webhooks'],
      timeoutMs: 30 * 60_000,
      async run(ctx: CheckContext) {
        const R = 'GATE-DLV-408-429-RETRIED';
        skipUnlessAffordable(ctx, 1);
        const actor = await ctx.gate.webhooks({ exclusive: true });
        for (const status of [408, 429]) {
          const ev = await programmedTestEvent(ctx, actor, [{ kind: 'status', status }], R);
          const attempts = await waitForAttempts(ctx, ev, 2, latestArrivalOf(ctx, 2), R, `a ${status} answer is transient`);
          ctx.expect.equal(attempts.map((a) => a.answeredStatus), [status, 200], `the receiver answered ${status}, then 200 on the retry`, { requirement: R });
          expectSameIdAndSigned(ctx, ev, attempts);
          const { delivery, exchange } = await settledDelivery(ctx, actor, ev.delivery.id, ['succeeded'], 10_000, R);
          ctx.expect.equal([delivery.status, delivery.attempts], ['succeeded', 2], `after ${status} then 200 the delivery is succeeded after 2 attempts`, { requirement: R, exchange });
        }
      },
    },
  ] satisfies CheckDef[],
});
