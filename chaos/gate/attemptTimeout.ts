// Gate "Events > Delivery rules" rule 2: an attempt is given 10 s (the spec's
// value: a time scale never shortens it). Latency on the answer path (a toxic,
// or the receiver holding its answer behind a public URL) makes the receiver's
// 200 arrive late: past the timeout it is a failed attempt and is retried; just
// under it, the 200 acknowledges.
import { check, defineSuite, type CheckTools } from '../../src/runner/check.js';
import { GATE_LIMITS } from '../../src/model/limits.js';
import {
  gapTolerance,
  latestArrivalOf,
  programmedTestEvent,
  quietFor,
  requireVerified,
  scaledSchedule,
  scheduleBudgetMs,
  settledDelivery,
  skipUnlessAffordable,
  waitForAttempts,
} from '../../support/gate/deliveries.js';

const R = 'GATE-DLV-TIMEOUT-10S';
const T = GATE_LIMITS.webhook.attemptTimeoutMs;
/** How far past / short of the timeout the answer is delayed: clear of timer slop on a loaded machine, and inside half the timeout. */
const MARGIN_MS = 2_000;
const LIST_SETTLE_MS = 10_000;

/**
 * How far from the timeout the answer is held: the margin, widened to twice the slowest round trip seen to the
 * target (the webhook path's own is not measurable from here, and is of the same network). Beyond half the
 * timeout the two sides of it can no longer be told apart: unverified.
 */
function marginFor(t: CheckTools, client: { clock: { roundTrip(): { p95Ms: number } | undefined } }): number {
  const margin = Math.max(MARGIN_MS, 2 * (client.clock.roundTrip()?.p95Ms ?? 0));
  if (margin > T / 2)
    t.unverified(`round trips to the target reach ${client.clock.roundTrip()?.p95Ms} ms: an answer cannot be held clearly on one side of the ${T} ms timeout`);
  return margin;
}

export default defineSuite({
  service: 'gate',
  section: 'Events > Delivery rules',
  checks: [
    check({
      name: 'an answer delayed past the 10 s attempt timeout is a failed attempt and is retried',
      requirements: [R],
      needs: ['gateWebhooksExclusive', 'toxiproxy'],
      // The late attempt, a first retry gap, then the delivery settling (up to a second gap), each attempt up to the timeout.
      budgetMs: scheduleBudgetMs(2, 3 * T + LIST_SETTLE_MS),
      async run({ gateWebhooksExclusive: actor, toxiproxy: kit }, t: CheckTools) {
        skipUnlessAffordable(t, 2, 3 * T);
        const late = T + marginFor(t, actor.client);
        const toxic = await kit.webhookFault(actor.hooks, { kind: 'latency', ms: late });
        const ev = await programmedTestEvent(t, actor, [], R);
        // The request itself is not delayed: the receiver sees attempt 1 at once and answers 200, which reaches the sender too late.
        const attempts = await waitForAttempts(t, ev, 2, T + latestArrivalOf(t, 2), R, `a 200 delayed ${late} ms (timeout ${T} ms) counts as failed`);
        requireVerified(t, attempts.slice(0, 1));
        t.expect.equal(attempts[0]!.answeredStatus, 200, 'the receiver answered the first attempt 200 (only late)', { requirement: R });
        const waited = attempts[1]!.arrivedAt - attempts[0]!.arrivedAt;
        t.observe('gate.webhooks.timeoutRetryAfterMs', waited, `attempt 2 followed attempt 1 after the ${T} ms timeout plus the first retry gap`);
        t.expect.that(waited >= T - 250, `the retry came only after the ${T} ms attempt timeout`, { requirement: R, expected: `≥ ${T} ms`, actual: waited });
        await toxic.remove();
        const { delivery, exchange } = await settledDelivery(t, actor, ev.delivery.id, ['succeeded'], latestArrivalOf(t, 3) + T, R);
        t.expect.equal(delivery.status, 'succeeded', 'the delivery succeeds once answers arrive in time', { requirement: R, exchange });
        t.expect.that(delivery.attempts >= 2, 'the timed-out attempt is counted', { requirement: R, actual: delivery.attempts, exchange });
      },
    }),
    check({
      name: 'an answer delayed just under the 10 s attempt timeout acknowledges the event',
      requirements: [R],
      needs: ['gateWebhooksExclusive', 'toxiproxy'],
      budgetMs: scheduleBudgetMs(1, 2 * T + LIST_SETTLE_MS),
      async run({ gateWebhooksExclusive: actor, toxiproxy: kit }, t: CheckTools) {
        skipUnlessAffordable(t, 1, 2 * T);
        const margin = marginFor(t, actor.client);
        const slow = T - margin;
        await kit.webhookFault(actor.hooks, { kind: 'latency', ms: slow });
        const ev = await programmedTestEvent(t, actor, [], R);
        await waitForAttempts(t, ev, 1, latestArrivalOf(t, 1), R, 'the event is attempted');
        // A retry, if the slow answer were taken for a timeout, would follow the timeout and one first gap.
        const firstGap = scaledSchedule(t)[0]!;
        const attempts = await quietFor(t, ev, T + firstGap + gapTolerance(t, firstGap), 'no retry after an answer just in time');
        requireVerified(t, attempts.slice(0, 1));
        t.expect.equal(attempts.length, 1, `a 200 arriving ${margin} ms before the ${T} ms timeout acknowledges: no retry`, { requirement: R });
        const { delivery, exchange } = await settledDelivery(t, actor, ev.delivery.id, ['succeeded'], LIST_SETTLE_MS, R);
        t.expect.equal([delivery.status, delivery.attempts], ['succeeded', 1], 'the delivery is succeeded after one attempt', { requirement: R, exchange });
      },
    }),
  ],
});
