// Pools "Events" rule 1 under a failing receiver: a terminal trade event the
// partner does not acknowledge is delivered again (at least once, with
// backoff), under the same eventId, with a Gate-Signature header each time;
// failed every time, it goes to the dead-letter store after the attempts the
// sandbox declares (pools.webhookRetry: the threshold is not shown).
// The pools retry schedule is not shown: redelivery is asserted within the
// Gate document's schedule at the declared time scale (or the sandbox's declared
// first gap, when that is longer), and its backoff only as far as the rule goes:
// the redelivery does not come back to back — judged against the webhook path's
// own round trip, measured to the receiver's URL — and the gap is observed. The pools signature recipe is not shown either: whether the Gate
// recipe verifies is observed, never failed.
import { check, defineSuite, type CheckTools } from '../../src/runner/check.js';
import type { ReceivedEvent } from '../../src/webhooks/types.js';
import { MEASUREMENT_SLACK_MS, QUICK_SCHEDULE_BUDGET_MS, latestArrivalOf, scheduleBudgetMs } from '../../support/gate/deliveries.js';
import { eventMentions, eventTypeOf, reservedTrade, settleTo } from '../../support/pools/pools.js';
import { GATE_LIMITS } from '../../src/model/limits.js';

const R = 'POOLS-EVT-AT-LEAST-ONCE';
/** Never wait less than this for the first attempt and its redelivery. */
const MIN_WAIT_MS = 30_000;
/** Retries the wait allows for: the Gate schedule's four gaps. */
const GAPS = GATE_LIMITS.webhook.retryScheduleMs.length;

/** Listening past the last gap for an attempt that must not come. */
const QUIET_MS = 2_000;

const acked = (e: ReceivedEvent) => e.answeredStatus !== undefined && e.answeredStatus >= 200 && e.answeredStatus < 300;

/** Round trips measured on the webhook path (the slowest is taken: an immediate retry takes one). */
const PATH_PROBES = 3;
const PATH_PROBE_TIMEOUT_MS = 10_000;

/**
 * The webhook path's round trip, as the receiver's own URL answers it: the URL the partner's webhooks were pointed at
 * (through the proxy or public URL they take), probed from here. A delivery's failed answer goes back and its retry
 * comes over that path, so an immediate retry arrives about one such round trip after the attempt it follows — the
 * API's round trip says nothing of it (another network, a tunnel). Sent before the check's programme, carrying no
 * event id, so no programmed answer and no trade's attempt is taken by a probe. The slowest of a few.
 */
async function webhookPathRoundTrip(url: string): Promise<number> {
  let slowest = 0;
  for (let i = 0; i < PATH_PROBES; i++) {
    const at = performance.now();
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-rampart-path-probe': String(i + 1) },
      body: '{}',
      signal: AbortSignal.timeout(PATH_PROBE_TIMEOUT_MS),
    }).catch(() => undefined);
    await res?.arrayBuffer().catch(() => undefined);
    if (res) slowest = Math.max(slowest, performance.now() - at);
  }
  return Math.ceil(slowest);
}

/**
 * "With backoff": the redelivery waits after the failed attempt instead of coming back to back. Its wait is not
 * shown, so only an immediate retry is ruled out: one that arrives within what the failed attempt's answer going
 * back and the retry coming over (the webhook path's round trip) and rampart's own stamping take. Where the sandbox
 * declares its first gap (pools.webhookRetry), a retry as early as that gap allows (its ratio tolerance, at the
 * declared scale) is never taken for an immediate one; where that declared gap is no longer than the path's round
 * trip, a redelivery that came no later than an immediate one could leaves the rule unverified (a later one shows
 * the wait all the same).
 */
function expectBackoff(t: CheckTools, gap: number, rtt: number): void {
  let floor = MEASUREMENT_SLACK_MS + rtt;
  const first = t.profile.pools?.webhookRetry?.scheduleSeconds[0];
  if (first !== undefined) {
    const earliest = first * 1000 * t.profile.timing.retryScale * (1 - t.profile.tolerances.retryGapRatio);
    // A gap longer than an immediate retry can take shows the wait whatever the declaration; only a shorter one needs
    // the declared gap to tell it from back to back, and cannot when that gap is within the round trip.
    if (earliest <= rtt && gap <= floor)
      t.unverified(
        `the declared first gap (as early as ${Math.round(earliest)} ms at timing.retryScale ${t.profile.timing.retryScale}) is no longer than the webhook path's round trip (${rtt} ms): a retry after it cannot be told from an immediate one — raise retryScale`,
      );
    floor = Math.min(floor, earliest);
  }
  t.expect.that(gap > floor, `the redelivery waits after the failed attempt (backoff), not back to back: ${gap} ms later`, {
    requirement: R,
    expected: `> ${Math.round(floor)} ms (an immediate retry: the webhook path's round trip, ${rtt} ms, and rampart's stamping)`,
    actual: gap,
  });
}

export default defineSuite({
  service: 'pools',
  section: 'Events',
  checks: [
    check({
      name: 'a settled-trade webhook the receiver fails is delivered again under the same eventId, with a Gate-Signature each time, after a wait (backoff)',
      requirements: [R],
      needs: ['poolsWebhooksExclusive', 'poolsTradeOutcome'],
      budgetMs: scheduleBudgetMs(GAPS, MIN_WAIT_MS),
      async run({ poolsWebhooksExclusive: actor, poolsTradeOutcome: choose }, t: CheckTools) {
        const pathRtt = await webhookPathRoundTrip(actor.hooks.url);
        t.observe('pools-webhook-path-round-trip-ms', pathRtt, "measured to the receiver's URL the deliveries take");
        const made = await reservedTrade(t, actor, R);
        const ids = [made.transactId, made.quoteId];
        const before = new Set(actor.hooks.attempts().map((e) => e.eventId));
        // Held alone, so every new event of this partner is this trade's: fail its first attempt.
        actor.hooks.program([{ kind: 'status', status: 500 }], (e) => !before.has(e.eventId));
        await settleTo(t, choose, actor, made.quoteId, 'settled', R);
        const fresh = () => actor.hooks.attempts().filter((e) => !before.has(e.eventId));
        const mine = () => fresh().filter((e) => eventMentions(e, ids));

        // The pools schedule is not shown: allow the Gate schedule's bound for all its retries at the declared scale, or
        // the sandbox's declared first gap (its tolerance, at the declared scale) where that is longer.
        const declaredFirst = t.profile.pools?.webhookRetry?.scheduleSeconds[0];
        const declaredBound =
          declaredFirst === undefined ? 0 : declaredFirst * 1000 * t.profile.timing.retryScale * (1 + t.profile.tolerances.retryGapRatio) + MIN_WAIT_MS;
        const bound = Math.max(MIN_WAIT_MS, latestArrivalOf(t, GAPS + 1), declaredBound);
        const capped = t.depth === 'quick' && bound > QUICK_SCHEDULE_BUDGET_MS;
        const waitMs = capped ? QUICK_SCHEDULE_BUDGET_MS : bound;
        t.observe(
          'pools-redelivery-wait-ms',
          waitMs,
          'the pools retry schedule is not shown: redelivery is awaited within the Gate schedule at timing.retryScale',
        );
        try {
          await actor.hooks.waitFor(() => mine().length >= 2, waitMs, 'redelivery of pool.transaction.settled', R);
        } catch {
          const got = mine();
          if (got.length === 0 && fresh().length > 0)
            t.unverified(
              `${fresh().length} new webhook attempt(s) arrived but none names the trade or its quote (the payload is not shown), so this trade's delivery could not be told apart`,
            );
          if (got.length > 0 && acked(got[0]!))
            t.unverified(`the receiver acknowledged the first attempt (${got[0]!.answeredStatus}) instead of failing it, so no redelivery was provoked`);
          if (capped)
            t.unverified(
              `no redelivery within the ${Math.round(waitMs / 60_000)} min a quick run allows; the pools retry schedule is not shown and ` +
                `the declared scale allows up to ${Math.round(bound / 60_000)} min: run with --depth full`,
            );
          t.expect.that(false, `the failed delivery is delivered again within ${Math.round(waitMs / 1000)} s (the Gate schedule at the declared scale)`, {
            requirement: R,
            expected: '≥ 2 attempts',
            actual: `${got.length} attempt(s), answered ${got.map((e) => e.answeredStatus ?? '—').join(', ')}`,
          });
        }
        const attempts = mine();
        // Failed by the programme (500) or refused by the receiver (400: the Gate recipe did not verify); either is a failed attempt.
        if (acked(attempts[0]!))
          t.unverified(`the receiver acknowledged the first attempt (${attempts[0]!.answeredStatus}), so the redelivery seen was not provoked by a failure`);
        t.expect.equal(eventTypeOf(attempts[1]!), 'pool.transaction.settled', 'the redelivered event is pool.transaction.settled', { requirement: R });
        const eventIds = [...new Set(attempts.map((e) => e.eventId))];
        t.expect.that(eventIds.length === 1 && typeof eventIds[0] === 'string', 'every attempt carries the same eventId (the dedupe key)', {
          requirement: R,
          actual: eventIds,
        });
        attempts.forEach((e, i) =>
          t.expect.that(
            typeof e.headers['gate-signature'] === 'string' && e.headers['gate-signature'].length > 0,
            `attempt ${i + 1} carries a Gate-Signature header`,
            {
              requirement: R,
              actual: Object.keys(e.headers),
            },
          ),
        );
        const gap = attempts[1]!.arrivedAt - attempts[0]!.arrivedAt;
        t.observe('pools-redelivery-gap-ms', gap, 'pools retry schedule is not shown');
        t.observe(
          'pools-signature-gate-recipe',
          attempts.map((e) => ({ ok: e.verification.ok, reason: e.verification.reason, answered: e.answeredStatus })),
          'whether the Gate recipe verifies each attempt (the pools recipe is not shown); a receiver refusal (400) still counts as a failed attempt',
        );
        expectBackoff(t, gap, pathRtt);
      },
    }),
    check({
      name: 'a settled-trade webhook the receiver fails every time is attempted as often as the sandbox declares, then dead-lettered: no attempt after the last',
      requirements: ['POOLS-EVT-DEAD-LETTER'],
      needs: ['poolsWebhooksExclusive', 'poolsTradeOutcome'],
      // At most the budget of a full run of the Gate schedule (the declared one is checked against the depth by its need).
      budgetMs: scheduleBudgetMs(GAPS + 1, MIN_WAIT_MS),
      // The declared schedule to the last attempt, and its last gap again listening for one more.
      plannedWait: (profile) => {
        const r = profile.pools?.webhookRetry;
        const gaps = (r?.scheduleSeconds ?? []).slice(0, Math.max(0, (r?.attempts ?? 1) - 1)).map((s) => s * 1000 * profile.timing.retryScale);
        const last = gaps.at(-1) ?? 0;
        const tolerance = Math.max(last * profile.tolerances.retryGapRatio, profile.tolerances.retryGapMs * profile.timing.retryScale, 1_000);
        return gaps.reduce((a, b) => a + b, 0) + last + tolerance + QUIET_MS;
      },
      async run({ poolsWebhooksExclusive: actor, poolsTradeOutcome: choose, poolsDeadLetter: policy }, t: CheckTools) {
        const D = 'POOLS-EVT-DEAD-LETTER';
        const made = await reservedTrade(t, actor, D);
        const ids = [made.transactId, made.quoteId];
        const before = new Set(actor.hooks.attempts().map((e) => e.eventId));
        // Held alone, so every new event of this partner is this trade's: fail each declared attempt (the programme is spent by them).
        actor.hooks.program(
          Array.from({ length: policy.attempts }, () => ({ kind: 'status', status: 500 }) as const),
          (e) => !before.has(e.eventId),
        );
        await settleTo(t, choose, actor, made.quoteId, 'settled', D);
        const mine = () => actor.hooks.attempts().filter((e) => !before.has(e.eventId) && eventMentions(e, ids));
        const tolerance = (gap: number) =>
          Math.max(gap * t.profile.tolerances.retryGapRatio, t.profile.tolerances.retryGapMs * t.profile.timing.retryScale, 1_000);
        const allGaps = policy.gapsMs.reduce((a, g) => a + g + tolerance(g), 0);
        try {
          await actor.hooks.waitFor(
            () => mine().length >= policy.attempts,
            Math.max(MIN_WAIT_MS, allGaps),
            `${policy.attempts} attempts of pool.transaction.settled`,
            D,
          );
        } catch {
          if (mine().length === 0)
            t.unverified('no webhook attempt naming the trade or its quote arrived (the payload is not shown): its delivery could not be followed');
          t.expect.that(false, `the failed delivery is attempted ${policy.attempts} times within the declared schedule`, {
            requirement: D,
            expected: `${policy.attempts} attempts`,
            actual: `${mine().length} attempt(s)`,
          });
        }
        // One more attempt would follow the schedule's last gap: listen that long for it.
        const last = policy.gapsMs.at(-1) ?? 0;
        await t.sleep(last + tolerance(last) + QUIET_MS, 'no attempt after the declared last one (dead-lettered)', 'target');
        const attempts = mine();
        t.expect.equal(attempts.length, policy.attempts, `after ${policy.attempts} failed attempts the delivery is dead-lettered: no further attempt`, {
          requirement: D,
        });
        const eventIds = [...new Set(attempts.map((e) => e.eventId))];
        t.expect.that(eventIds.length === 1 && typeof eventIds[0] === 'string', 'every attempt carries the same eventId', { requirement: D, actual: eventIds });
        // Failed by the programme (500) or refused by the receiver (400: the recipe did not verify): every attempt unacknowledged.
        if (attempts.some(acked))
          t.unverified(`the receiver acknowledged an attempt (${attempts.map((e) => e.answeredStatus).join(', ')}): the delivery was not failed every time`);
        t.observe(
          'pools-dead-letter-gaps-ms',
          attempts.slice(1).map((e, i) => e.arrivedAt - attempts[i]!.arrivedAt),
          'the declared pools schedule, as the receiver saw it',
        );
      },
    }),
  ],
});
