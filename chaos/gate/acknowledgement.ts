// Gate "Events > Delivery rules": any 2xx acknowledges (201, 202 and 204 as
// well as 200), while 408 and 429 are transient and retried.
import { check, defineSuite, type CheckTools } from '../../src/runner/check.js';
import {
  expectSameIdAndSigned,
  gapTolerance,
  latestArrivalOf,
  programmedTestEvent,
  quietFor,
  requireVerified,
  scaledSchedule,
  scheduleBudgetMs,
  settledDeliveries,
  skipUnlessAffordable,
  waitForAttempts,
} from '../../support/gate/deliveries.js';

const ACK_STATUSES = [201, 202, 204] as const;
const TRANSIENT_STATUSES = [408, 429] as const;
/** How long the list may take to show the outcome the receiver already saw. */
const LIST_SETTLE_MS = 10_000;

export default defineSuite({
  service: 'gate',
  section: 'Events > Delivery rules',
  checks: [
    check({
      name: 'a receiver answering 201, 202 or 204 acknowledges: one attempt, succeeded, delivered_at set',
      requirements: ['GATE-DLV-2XX-ACKS'],
      needs: ['gateWebhooksExclusive'],
      // Per status: the first attempt, then one first retry gap of listening for a retry.
      budgetMs: ACK_STATUSES.length * (scheduleBudgetMs(1) + LIST_SETTLE_MS),
      async run({ gateWebhooksExclusive: actor }, t: CheckTools) {
        const R = 'GATE-DLV-2XX-ACKS';
        skipUnlessAffordable(t, 1);
        // A retry would come one first gap later: listen that long (plus its tolerance) for one.
        const firstGap = scaledSchedule(t)[0]!;
        const quiet = firstGap + gapTolerance(t, firstGap);
        const acked: string[] = [];
        for (const status of ACK_STATUSES) {
          const ev = await programmedTestEvent(t, actor, [{ kind: 'status', status }], R);
          await waitForAttempts(t, ev, 1, latestArrivalOf(t, 1), R, `a ${status} answer`);
          const attempts = await quietFor(t, ev, quiet, `no retry after a ${status}`);
          requireVerified(t, attempts);
          t.expect.equal(
            attempts.map((a) => a.answeredStatus),
            [status],
            `a ${status} answer acknowledges the event: no further attempt`,
            { requirement: R },
          );
          acked.push(ev.delivery.id);
        }
        // One read of the list shows all three deliveries.
        const listed = await settledDeliveries(t, actor, acked, ['succeeded'], LIST_SETTLE_MS, R);
        for (const [i, status] of ACK_STATUSES.entries()) {
          const { delivery, exchange } = listed[i]!;
          t.expect.equal(delivery.status, 'succeeded', `the delivery acknowledged by ${status} is succeeded`, { requirement: R, exchange });
          t.expect.that(delivery.delivered_at !== null, `delivered_at is set after a ${status}`, { requirement: R, exchange });
          t.expect.equal(delivery.attempts, 1, `one attempt was enough for a ${status}`, { requirement: R, exchange });
        }
      },
    }),
    check({
      name: 'a receiver answering 408 or 429 is retried under the same event id until it answers 200',
      requirements: ['GATE-DLV-408-429-RETRIED', 'GATE-DLV-EVENT-ID-STABLE', 'GATE-DLV-SIGNED-EVERY-ATTEMPT'],
      needs: ['gateWebhooksExclusive'],
      budgetMs: TRANSIENT_STATUSES.length * (scheduleBudgetMs(1) + LIST_SETTLE_MS),
      async run({ gateWebhooksExclusive: actor }, t: CheckTools) {
        const R = 'GATE-DLV-408-429-RETRIED';
        skipUnlessAffordable(t, 1);
        const retried: string[] = [];
        for (const status of TRANSIENT_STATUSES) {
          const ev = await programmedTestEvent(t, actor, [{ kind: 'status', status }], R);
          const attempts = await waitForAttempts(t, ev, 2, latestArrivalOf(t, 2), R, `a ${status} answer is transient`);
          expectSameIdAndSigned(t, ev, attempts);
          t.expect.equal(
            attempts.map((a) => a.answeredStatus),
            [status, 200],
            `the receiver answered ${status}, then 200 on the retry`,
            { requirement: R },
          );
          retried.push(ev.delivery.id);
        }
        // One read of the list shows both deliveries.
        const listed = await settledDeliveries(t, actor, retried, ['succeeded'], LIST_SETTLE_MS, R);
        for (const [i, status] of TRANSIENT_STATUSES.entries()) {
          const { delivery, exchange } = listed[i]!;
          t.expect.equal([delivery.status, delivery.attempts], ['succeeded', 2], `after ${status} then 200 the delivery is succeeded after 2 attempts`, {
            requirement: R,
            exchange,
          });
        }
      },
    }),
  ],
});
