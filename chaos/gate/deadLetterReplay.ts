// Gate "States and transitions > Webhook delivery": five attempts without a
// 2xx dead-letter the delivery (last_error set, next_attempt_at null, no sixth
// attempt); the owner's replay requeues it and it is delivered under the same
// event id once the receiver is healthy; another partner's replay is 404.
import { defineSuite, type CheckContext, type CheckDef } from '../../src/runner/check.js';
import { GATE_LIMITS } from '../../src/model/limits.js';
import {
  expectSameIdAndSigned,
  gapTolerance,
  latestArrivalOf,
  listedDelivery,
  programmedTestEvent,
  quietFor,
  scaledSchedule,
  settledDelivery,
  skipUnlessAffordable,
  waitForAttempts,
} from './support/deliveries.js';

const MAX = GATE_LIMITS.webhook.maxAttempts;
const FAIL = { kind: 'status', status: 500 } as const;

export default defineSuite({
  service: 'gate',
  section: 'States and transitions > Webhook delivery',
  checks: [
    {
      name: "five failed attempts dead-letter the delivery with no sixth; another partner's replay is 404; the owner's replay delivers it under the same event id",
      requirements: ['GATE-DLV-DEAD-LETTER-5', 'GATE-WHOPS-REPLAY-DEAD-LETTERED', 'GATE-WHOPS-REPLAY-FOREIGN-404', 'GATE-DLV-EVENT-ID-STABLE', 'GATE-DLV-SIGNED-EVERY-ATTEMPT'],
      needs: ['gate.webhooks', 'gate.secondPartner'],
      timeoutMs: 6 * 3_600_000,
      async run(ctx: CheckContext) {
        const R = 'GATE-DLV-DEAD-LETTER-5';
        const schedule = scaledSchedule(ctx);
        // A sixth attempt would follow the last gap of the schedule: listen that long for one.
        const lastGap = schedule[schedule.length - 1]!;
        const quiet = lastGap + gapTolerance(ctx, lastGap) + 1_000;
        skipUnlessAffordable(ctx, MAX - 1, quiet);
        const actor = await ctx.gate.webhooks({ exclusive: true });
        const ev = await programmedTestEvent(ctx, actor, Array(MAX).fill(FAIL), R);
        await waitForAttempts(ctx, ev, MAX, latestArrivalOf(ctx, MAX), R, `${MAX} failing answers are all attempted`);
        const failed = await quietFor(ctx, ev, quiet, 'no sixth attempt');
        ctx.expect.equal(failed.length, MAX, `no attempt follows the ${MAX}th failure`, { requirement: R });
        expectSameIdAndSigned(ctx, ev, failed);

        const dead = await settledDelivery(ctx, actor, ev.delivery.id, ['dead_lettered'], 10_000, R);
        const D = { requirement: R, exchange: dead.exchange };
        ctx.expect.equal(dead.delivery.status, 'dead_lettered', `after ${MAX} attempts without 2xx the delivery is dead_lettered`, D);
        ctx.expect.equal(dead.delivery.attempts, MAX, `the dead-lettered delivery shows ${MAX} attempts`, D);
        ctx.expect.that(typeof dead.delivery.last_error === 'string' && dead.delivery.last_error.length > 0, 'last_error is set on the dead-lettered delivery', {
          ...D,
          actual: dead.delivery.last_error,
        });
        ctx.expect.equal(dead.delivery.next_attempt_at, null, 'next_attempt_at is null once dead-lettered', D);

        const replayPath = `/webhooks/deliveries/${encodeURIComponent(ev.delivery.id)}/replay`;
        const stranger = ctx.gate.other();
        const foreign = await stranger.client.post(replayPath, {}, { idempotencyKey: true, retry: false });
        ctx.expect.error(foreign, 404, 'not_found', { requirement: 'GATE-WHOPS-REPLAY-FOREIGN-404' });
        ctx.expect.equal(ev.attempts().length, MAX, "another partner's replay sends nothing", { requirement: 'GATE-WHOPS-REPLAY-FOREIGN-404' });

        // The receiver answers 200 from here on (its programme is spent).
        const replay = await actor.client.post(replayPath, {}, { idempotencyKey: true, retry: false });
        ctx.observe('gate.webhooks.replay.status', replay.status, 'status of replaying an own dead-lettered delivery (not shown)');
        ctx.expect.that(replay.status < 400, "the owner's replay of its dead-lettered delivery is accepted", {
          requirement: 'GATE-WHOPS-REPLAY-DEAD-LETTERED',
          actual: `${replay.status} ${replay.bodyText.slice(0, 200)}`,
          exchange: replay,
        });
        // When a requeued delivery is attempted is not shown: allow one first retry gap.
        const all = await waitForAttempts(ctx, ev, MAX + 1, latestArrivalOf(ctx, 2), 'GATE-WHOPS-REPLAY-DEAD-LETTERED', 'the replayed delivery is requeued');
        const redelivered = all[MAX]!;
        ctx.expect.equal(redelivered.answeredStatus, 200, 'the healthy receiver acknowledged the replayed event', { requirement: 'GATE-WHOPS-REPLAY-DEAD-LETTERED' });
        expectSameIdAndSigned(ctx, ev, all);
        const done = await settledDelivery(ctx, actor, ev.delivery.id, ['succeeded'], 10_000, 'GATE-WHOPS-REPLAY-DEAD-LETTERED');
        ctx.expect.equal(done.delivery.status, 'succeeded', 'the replayed delivery is succeeded once the receiver answered 200', {
          requirement: 'GATE-WHOPS-REPLAY-DEAD-LETTERED',
          exchange: done.exchange,
        });
        ctx.expect.that(done.delivery.delivered_at !== null, 'delivered_at is set on the replayed delivery', { requirement: 'GATE-WHOPS-REPLAY-DEAD-LETTERED', exchange: done.exchange });
        ctx.observe('gate.webhooks.replay.attemptsAfter', done.delivery.attempts, 'attempts shown after a replay delivered at once (a fresh count or a running total: not shown)');
        const again = await listedDelivery(ctx, actor, ev.delivery.id, 'GATE-WHOPS-REPLAY-DEAD-LETTERED');
        ctx.expect.equal(again.delivery.event_id, ev.delivery.event_id, 'the replayed delivery keeps its event id', { requirement: 'GATE-DLV-EVENT-ID-STABLE', exchange: again.exchange });
      },
    },
  ] satisfies CheckDef[],
});
