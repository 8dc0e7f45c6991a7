// Gate "Events > Delivery rules" under a failing receiver: a non-2xx answer is
// retried on the 1m, 5m, 30m, 2h schedule (times the target's declared scale),
// under one event id, signed every time, until a 2xx delivers it; the
// deliveries list agrees with what the receiver saw.
import { defineSuite, type CheckContext, type CheckDef } from '../../src/runner/check.js';
import {
  expectSameIdAndSigned,
  gapTolerance,
  gapsOf,
  latestArrivalOf,
  programmedTestEvent,
  scaledSchedule,
  settledDelivery,
  skipUnlessAffordable,
  waitForAttempts,
} from './support/deliveries.js';

const FAIL = { kind: 'status', status: 500 } as const;
const HOUR = 3_600_000;

/** Four 500s then 200: five attempts, four measured gaps against the schedule. */
async function fullSchedule(ctx: CheckContext, requirement: 'GATE-DLV-SCHEDULE' | 'GATE-DLV-SCHEDULE-REALTIME'): Promise<void> {
  skipUnlessAffordable(ctx, 4);
  const actor = await ctx.gate.webhooks({ exclusive: true });
  const ev = await programmedTestEvent(ctx, actor, [FAIL, FAIL, FAIL, FAIL], requirement);
  const attempts = await waitForAttempts(ctx, ev, 5, latestArrivalOf(ctx, 5), requirement, 'four 500 answers are retried on the schedule');
  const expected = scaledSchedule(ctx);
  const observed = gapsOf(attempts.slice(0, 5));
  observed.forEach((ms, i) => ctx.observe('retry-gap', { attempt: i + 2, expectedMs: Math.round(expected[i]!), observedMs: ms }));
  observed.forEach((ms, i) => {
    const want = expected[i]!;
    const tol = gapTolerance(ctx, want);
    ctx.expect.that(Math.abs(ms - want) <= tol, `gap before attempt ${i + 2} is ${Math.round(want)} ms ± ${Math.round(tol)} ms`, {
      requirement,
      expected: Math.round(want),
      actual: ms,
    });
  });
  expectSameIdAndSigned(ctx, ev, attempts);
}

export default defineSuite({
  service: 'gate',
  section: 'Events > Delivery rules',
  checks: [
    {
      name: 'a receiver answering 500 then 200: retried once under the same event id, signed, delivered, and listed as the receiver saw it',
      requirements: ['GATE-DLV-NON-2XX-RETRIED', 'GATE-DLV-EVENT-ID-STABLE', 'GATE-DLV-SIGNED-EVERY-ATTEMPT', 'GATE-DLV-AT-LEAST-ONCE', 'GATE-DLV-LIST-AGREES'],
      needs: ['gate.webhooks'],
      timeoutMs: 10 * 60_000,
      async run(ctx: CheckContext) {
        skipUnlessAffordable(ctx, 1);
        const actor = await ctx.gate.webhooks({ exclusive: true });
        const ev = await programmedTestEvent(ctx, actor, [FAIL], 'GATE-DLV-NON-2XX-RETRIED');
        const attempts = await waitForAttempts(ctx, ev, 2, latestArrivalOf(ctx, 2), 'GATE-DLV-NON-2XX-RETRIED', 'a 500 answer is retried');
        expectSameIdAndSigned(ctx, ev, attempts);
        ctx.expect.equal(
          attempts.map((a) => a.answeredStatus),
          [500, 200],
          'the receiver answered 500 then 200',
          { requirement: 'GATE-DLV-AT-LEAST-ONCE' },
        );
        const gap = gapsOf(attempts)[0]!;
        ctx.observe('retry-gap', { attempt: 2, expectedMs: Math.round(scaledSchedule(ctx)[0]!), observedMs: gap });

        const { delivery, exchange } = await settledDelivery(ctx, actor, ev.delivery.id, ['succeeded'], 10_000, 'GATE-DLV-LIST-AGREES');
        const L = { requirement: 'GATE-DLV-LIST-AGREES', exchange };
        ctx.expect.equal(delivery.status, 'succeeded', 'the listed delivery is succeeded once a 2xx came back', L);
        ctx.expect.equal(delivery.attempts, attempts.length, 'the listed attempts equal the attempts the receiver saw', L);
        ctx.expect.that(delivery.delivered_at !== null, 'delivered_at is set on the succeeded delivery', L);
        ctx.expect.equal(delivery.next_attempt_at, null, 'next_attempt_at is null once delivered', L);
        ctx.expect.equal(delivery.event_id, ev.delivery.event_id, 'the listed delivery keeps its event id', L);
        ctx.observe('gate.delivery.lastResponseStatus', delivery.last_response_status, 'last_response_status after a 500 then a 200 (its meaning is not spelled out)');
        ctx.observe('gate.delivery.lastErrorAfterSuccess', delivery.last_error, 'last_error once delivered after a failed attempt (not shown)');
      },
    },
    {
      name: 'four 500 answers then 200: the gaps follow 1m, 5m, 30m, 2h times the declared scale',
      requirements: ['GATE-DLV-SCHEDULE', 'GATE-DLV-EVENT-ID-STABLE', 'GATE-DLV-SIGNED-EVERY-ATTEMPT'],
      needs: ['gate.webhooks'],
      timeoutMs: 4 * HOUR,
      async run(ctx: CheckContext) {
        if (ctx.profile.timing.retryScale === 1) ctx.skip('the target declares a real-time schedule (retryScale 1): the real-time check measures it at --depth full');
        await fullSchedule(ctx, 'GATE-DLV-SCHEDULE');
      },
    },
    {
      name: 'four 500 answers then 200 in real time: the gaps are 1m, 5m, 30m, 2h',
      requirements: ['GATE-DLV-SCHEDULE-REALTIME'],
      needs: ['gate.webhooks'],
      depth: 'full',
      timeoutMs: 4 * HOUR,
      async run(ctx: CheckContext) {
        if (ctx.profile.timing.retryScale !== 1) ctx.skip(`the target declares a scaled schedule (retryScale ${ctx.profile.timing.retryScale}); the scaled check measures it`);
        await fullSchedule(ctx, 'GATE-DLV-SCHEDULE-REALTIME');
      },
    },
  ] satisfies CheckDef[],
});
