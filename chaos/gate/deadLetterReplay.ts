// Gate "States and transitions > Webhook delivery": five attempts without a
// 2xx dead-letter the delivery (last_error set, next_attempt_at null, no sixth
// attempt); the owner's replay requeues it and it is delivered under the same
// event id once the receiver is healthy; another partner's replay is 404.
import { check, defineSuite, type CheckTools } from '../../src/runner/check.js';
import { GATE_LIMITS } from '../../src/model/limits.js';
import { expect2xx } from '../../support/expect.js';
import {
  expectSameIdAndSigned,
  gapBoundMs,
  gapTolerance,
  latestArrivalOf,
  listedDelivery,
  programmedTestEvent,
  quietFor,
  scaledSchedule,
  plannedScheduleMs,
  scheduleBudgetMs,
  settledDelivery,
  skipUnlessAffordable,
  waitForAttempts,
} from '../../support/gate/deliveries.js';

const MAX = GATE_LIMITS.webhook.maxAttempts;
const FAIL = { kind: 'status', status: 500 } as const;
const LIST_SETTLE_MS = 10_000;
/** Listening for a sixth attempt past the last gap of the schedule. */
const QUIET_EXTRA_MS = 1_000;

export default defineSuite({
  service: 'gate',
  section: 'States and transitions > Webhook delivery',
  checks: [
    check({
      name: "five failed attempts dead-letter the delivery with no sixth (last_response_status the last 500); another partner's replay is 404; the owner's replay delivers it under the same event id",
      requirements: [
        'GATE-DLV-DEAD-LETTER-5',
        'GATE-WHOPS-REPLAY-DEAD-LETTERED',
        'GATE-WHOPS-REPLAY-FOREIGN-404',
        'GATE-DLV-EVENT-ID-STABLE',
        'GATE-DLV-SIGNED-EVERY-ATTEMPT',
        'GATE-DLV-LAST-RESPONSE-STATUS',
      ],
      needs: ['gateWebhooksExclusive', 'gateOtherTenant'],
      // Four gaps to the fifth attempt, one last gap of listening for a sixth, the first two gaps for the replayed attempt.
      budgetMs: scheduleBudgetMs(MAX - 1, gapBoundMs(MAX - 2) + QUIET_EXTRA_MS + gapBoundMs(0) + gapBoundMs(1) + 3 * LIST_SETTLE_MS),
      // Four gaps to the fifth attempt, the last again with its tolerance listening for a sixth, the first for the replay.
      plannedWait: (profile) => plannedScheduleMs(profile, [0, 1, 2, 3, 0], 3) + QUIET_EXTRA_MS,
      async run({ gateWebhooksExclusive: actor, gateOtherTenant: stranger }, t: CheckTools) {
        const R = 'GATE-DLV-DEAD-LETTER-5';
        const schedule = scaledSchedule(t);
        // A sixth attempt would follow the last gap of the schedule: listen that long for one.
        const lastGap = schedule[schedule.length - 1]!;
        const quiet = lastGap + gapTolerance(t, lastGap) + QUIET_EXTRA_MS;
        skipUnlessAffordable(t, MAX - 1, quiet);
        const ev = await programmedTestEvent(t, actor, Array(MAX).fill(FAIL), R);
        await waitForAttempts(t, ev, MAX, latestArrivalOf(t, MAX), R, `${MAX} failing answers are all attempted`);
        const failed = await quietFor(t, ev, quiet, 'no sixth attempt');
        expectSameIdAndSigned(t, ev, failed);
        t.expect.equal(failed.length, MAX, `no attempt follows the ${MAX}th failure`, { requirement: R });

        const dead = await settledDelivery(t, actor, ev.delivery.id, ['dead_lettered'], LIST_SETTLE_MS, R);
        const D = { requirement: R, exchange: dead.exchange } as const;
        t.expect.equal(dead.delivery.status, 'dead_lettered', `after ${MAX} attempts without 2xx the delivery is dead_lettered`, D);
        t.expect.equal(dead.delivery.attempts, MAX, `the dead-lettered delivery shows ${MAX} attempts`, D);
        t.expect.that(typeof dead.delivery.last_error === 'string' && dead.delivery.last_error.length > 0, 'last_error is set on the dead-lettered delivery', {
          ...D,
          actual: dead.delivery.last_error,
        });
        t.expect.equal(dead.delivery.next_attempt_at, null, 'next_attempt_at is null once dead-lettered', D);
        t.expect.equal(
          dead.delivery.last_response_status,
          failed.at(-1)!.answeredStatus,
          'last_response_status is the status the last failed attempt was answered with',
          {
            requirement: 'GATE-DLV-LAST-RESPONSE-STATUS',
            exchange: dead.exchange,
          },
        );

        const replayPath = `/webhooks/deliveries/${encodeURIComponent(ev.delivery.id)}/replay`;
        const foreign = await stranger.client.post(replayPath, {}, { idempotencyKey: true, retry: false });
        t.expect.error(foreign, 404, 'not_found', { requirement: 'GATE-WHOPS-REPLAY-FOREIGN-404' });
        t.expect.equal(ev.attempts().length, MAX, "another partner's replay sends nothing", { requirement: 'GATE-WHOPS-REPLAY-FOREIGN-404' });

        // The receiver answers 200 from here on (its programme is spent). The replay's answer is not shown: any 2xx.
        const own = await actor.client.post(replayPath, {}, { idempotencyKey: true, retry: false });
        const replay = expect2xx(t, own, 'GATE-WHOPS-REPLAY-DEAD-LETTERED', "the owner's replay of its dead-lettered delivery");
        t.observe('gate.webhooks.replay.status', replay.status, 'status of replaying an own dead-lettered delivery (not shown)');
        // When a requeued delivery is attempted is not shown: allow the first two retry gaps (one gap was too tight for a
        // remote target whose outbox runs on a busy machine: a requeued delivery may wait for its scheduler's next turn).
        const all = await waitForAttempts(t, ev, MAX + 1, latestArrivalOf(t, 3), 'GATE-WHOPS-REPLAY-DEAD-LETTERED', 'the replayed delivery is requeued');
        expectSameIdAndSigned(t, ev, all);
        t.expect.equal(all[MAX]!.answeredStatus, 200, 'the healthy receiver acknowledged the replayed event', {
          requirement: 'GATE-WHOPS-REPLAY-DEAD-LETTERED',
        });
        const done = await settledDelivery(t, actor, ev.delivery.id, ['succeeded'], LIST_SETTLE_MS, 'GATE-WHOPS-REPLAY-DEAD-LETTERED');
        t.expect.equal(done.delivery.status, 'succeeded', 'the replayed delivery is succeeded once the receiver answered 200', {
          requirement: 'GATE-WHOPS-REPLAY-DEAD-LETTERED',
          exchange: done.exchange,
        });
        t.expect.that(done.delivery.delivered_at !== null, 'delivered_at is set on the replayed delivery', {
          requirement: 'GATE-WHOPS-REPLAY-DEAD-LETTERED',
          exchange: done.exchange,
        });
        t.observe(
          'gate.webhooks.replay.attemptsAfter',
          done.delivery.attempts,
          'attempts shown after a replay delivered at once (a fresh count or a running total: not shown)',
        );
        const again = await listedDelivery(t, actor, ev.delivery.id, 'GATE-WHOPS-REPLAY-DEAD-LETTERED');
        t.expect.equal(again.delivery.event_id, ev.delivery.event_id, 'the replayed delivery keeps its event id', {
          requirement: 'GATE-DLV-EVENT-ID-STABLE',
          exchange: again.exchange,
        });
      },
    }),
  ],
});
