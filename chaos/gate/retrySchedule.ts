// Gate "Events > Delivery rules" under a failing receiver: a non-2xx answer is
// retried on the spec's 1m, 5m, 30m, 2h schedule (at the target's declared time
// scale, or in real time at --depth full), under one event id, signed every
// time, until a 2xx delivers it; the deliveries list agrees with what the
// receiver saw.
import { check, defineSuite, type CheckTools } from '../../src/runner/check.js';
import type { GateWebhookActor } from '../../src/needs/define.js';
import { GATE_LIMITS } from '../../src/model/limits.js';
import {
  expectSameIdAndSigned,
  gapWindow,
  gapsOf,
  indistinctGaps,
  latestArrivalOf,
  plannedScheduleMs,
  programmedTestEvent,
  scaledSchedule,
  scheduleBudgetMs,
  settledDelivery,
  skipUnlessAffordable,
  waitForAttempts,
} from '../../support/gate/deliveries.js';

const FAIL = { kind: 'status', status: 500 } as const;
/** Every gap of the schedule: four 500s then 200 make five attempts. */
const GAPS = GATE_LIMITS.webhook.retryScheduleMs.length;
const LIST_SETTLE_MS = 10_000;

const compressedSchedule = (scale: number) => `the target declares a compressed schedule (timing.retryScale ${scale}): real time cannot be measured on it`;

/** Four 500s then 200: five attempts, four measured gaps against the spec's schedule at the declared scale. */
async function fullSchedule(t: CheckTools, actor: GateWebhookActor, requirement: 'GATE-DLV-SCHEDULE' | 'GATE-DLV-SCHEDULE-REALTIME'): Promise<void> {
  skipUnlessAffordable(t, GAPS);
  const declared = indistinctGaps(t, { network: false });
  if (declared)
    t.unverified(
      `${declared} at timing.retryScale ${t.profile.timing.retryScale} with these tolerances: no measured gap could tell the schedule from a wrong one — raise retryScale or narrow tolerances.retryGapRatio`,
    );
  const ev = await programmedTestEvent(t, actor, Array(GAPS).fill(FAIL), requirement);
  const attempts = await waitForAttempts(t, ev, GAPS + 1, latestArrivalOf(t, GAPS + 1), requirement, `${GAPS} answers of 500 are retried on the schedule`);
  expectSameIdAndSigned(t, ev, attempts);
  const expected = scaledSchedule(t);
  const observed = gapsOf(attempts.slice(0, GAPS + 1));
  observed.forEach((ms, i) => t.observe('retry-gap', { attempt: i + 2, expectedMs: Math.round(expected[i]!), observedMs: ms }));
  observed.forEach((ms, i) => {
    const want = expected[i]!;
    const { lo, hi } = gapWindow(t, want);
    t.expect.that(
      ms >= lo && ms <= hi,
      `gap before attempt ${i + 2} is ${Math.round(want)} ms, measured within ${Math.max(0, Math.round(lo))}–${Math.round(hi)} ms`,
      {
        requirement,
        expected: Math.round(want),
        actual: ms,
      },
    );
  });
  // The network's share of each window is the round trip measured by now, over the attempts' time: a run's first
  // answers (new connections, a cold target) are no measure of it. A gap outside even that window failed above;
  // inside it, a schedule whose widened gaps meet cannot be told from a wrong one, so it is not passed.
  const indistinct = indistinctGaps(t);
  if (indistinct)
    t.unverified(
      `${indistinct} once widened by the network's round trip (p95 ${t.targetClock('gate').roundTrip()?.p95Ms ?? 0} ms) at timing.retryScale ${t.profile.timing.retryScale}: no measured gap could tell the schedule from a wrong one — raise retryScale`,
    );
}

export default defineSuite({
  service: 'gate',
  section: 'Events > Delivery rules',
  checks: [
    check({
      name: 'a receiver answering 500 then 200: retried once under the same event id, signed, delivered, and listed as the receiver saw it (last_response_status 200)',
      requirements: [
        'GATE-DLV-NON-2XX-RETRIED',
        'GATE-DLV-EVENT-ID-STABLE',
        'GATE-DLV-SIGNED-EVERY-ATTEMPT',
        'GATE-DLV-AT-LEAST-ONCE',
        'GATE-DLV-LIST-AGREES',
        'GATE-DLV-LAST-RESPONSE-STATUS',
      ],
      needs: ['gateWebhooksExclusive'],
      budgetMs: scheduleBudgetMs(1, LIST_SETTLE_MS),
      async run({ gateWebhooksExclusive: actor }, t: CheckTools) {
        skipUnlessAffordable(t, 1);
        const ev = await programmedTestEvent(t, actor, [FAIL], 'GATE-DLV-NON-2XX-RETRIED');
        const attempts = await waitForAttempts(t, ev, 2, latestArrivalOf(t, 2), 'GATE-DLV-NON-2XX-RETRIED', 'a 500 answer is retried');
        expectSameIdAndSigned(t, ev, attempts);
        t.expect.equal(
          attempts.map((a) => a.answeredStatus),
          [500, 200],
          'the receiver answered 500 then 200',
          { requirement: 'GATE-DLV-AT-LEAST-ONCE' },
        );
        const gap = gapsOf(attempts)[0]!;
        t.observe('retry-gap', { attempt: 2, expectedMs: Math.round(scaledSchedule(t)[0]!), observedMs: gap });

        const { delivery, exchange } = await settledDelivery(t, actor, ev.delivery.id, ['succeeded'], LIST_SETTLE_MS, 'GATE-DLV-LIST-AGREES');
        const L = { requirement: 'GATE-DLV-LIST-AGREES', exchange } as const;
        t.expect.equal(delivery.status, 'succeeded', 'the listed delivery is succeeded once a 2xx came back', L);
        t.expect.equal(delivery.attempts, attempts.length, 'the listed attempts equal the attempts the receiver saw', L);
        t.expect.that(delivery.delivered_at !== null, 'delivered_at is set on the succeeded delivery', L);
        t.expect.equal(delivery.next_attempt_at, null, 'next_attempt_at is null once delivered', L);
        t.expect.equal(delivery.event_id, ev.delivery.event_id, 'the listed delivery keeps its event id', L);
        // The last response is the 200 that delivered it, not the 500 before.
        t.expect.equal(
          delivery.last_response_status,
          attempts.at(-1)!.answeredStatus,
          'last_response_status is the status the last attempt was answered with',
          {
            requirement: 'GATE-DLV-LAST-RESPONSE-STATUS',
            exchange,
          },
        );
        t.observe('gate.delivery.lastErrorAfterSuccess', delivery.last_error, 'last_error once delivered after a failed attempt (not shown)');
      },
    }),
    check({
      name: 'four 500 answers then 200: the gaps follow 1m, 5m, 30m, 2h at the declared time scale',
      requirements: ['GATE-DLV-SCHEDULE', 'GATE-DLV-EVENT-ID-STABLE', 'GATE-DLV-SIGNED-EVERY-ATTEMPT'],
      needs: ['gateWebhooksExclusive'],
      budgetMs: scheduleBudgetMs(GAPS),
      plannedWait: (profile) => plannedScheduleMs(profile, [0, 1, 2, 3]),
      // At scale 1 this is the real-time measurement: it runs at --depth full (skipUnlessAffordable says so at quick depth).
      async run({ gateWebhooksExclusive: actor }, t: CheckTools) {
        await fullSchedule(t, actor, 'GATE-DLV-SCHEDULE');
      },
    }),
    check({
      name: 'four 500 answers then 200 in real time: the gaps are 1m, 5m, 30m, 2h',
      requirements: ['GATE-DLV-SCHEDULE-REALTIME'],
      needs: ['gateWebhooksExclusive'],
      depth: 'full',
      budgetMs: scheduleBudgetMs(GAPS),
      // The whole schedule in real time (2 h 36 min): the nightly plan's longest wait.
      plannedWait: (profile) =>
        profile.timing.retryScale !== 1
          ? { skip: compressedSchedule(profile.timing.retryScale) }
          : GATE_LIMITS.webhook.retryScheduleMs.reduce((a, b) => a + b, 0),
      async run({ gateWebhooksExclusive: actor }, t: CheckTools) {
        if (t.profile.timing.retryScale !== 1) t.skip(compressedSchedule(t.profile.timing.retryScale));
        await fullSchedule(t, actor, 'GATE-DLV-SCHEDULE-REALTIME');
      },
    }),
  ],
});
