// Pools "Events" rule 1 under a failing receiver: a terminal trade event the
// partner does not acknowledge is delivered again (at least once, with
// backoff), under the same eventId, signed with Gate-Signature each time.
// The pools retry schedule is not shown: only redelivery is asserted, and the
// gap is observed.
import { defineSuite, type CheckContext, type CheckDef } from '../../src/runner/check.js';
import { eventMentions, eventTypeOf, reservedTrade, settleTo } from '../../conformance/pools/support/pools.js';
import { QUICK_SCHEDULE_BUDGET_MS, latestArrivalOf } from '../gate/support/deliveries.js';

const R = 'POOLS-EVT-AT-LEAST-ONCE';
const MIN_WAIT_MS = 30_000;

export default defineSuite({
  service: 'pools',
  section: 'Events',
  checks: [
    {
      name: 'a settled-trade webhook the receiver fails is delivered again under the same eventId, signed each time',
      requirements: [R],
      needs: ['pools.partner', 'pools.webhooks', 'pools.trigger.outcome'],
      timeoutMs: 4 * 3_600_000,
      async run(ctx: CheckContext) {
        const actor = await ctx.pools.webhooks({ exclusive: true });
        const name = actor.partner.name;
        const made = await reservedTrade(ctx, actor, R);
        const ids = [made.transactId, made.quoteId];
        const before = new Set(ctx.receiver.attempts(name).map((e) => e.eventId));
        // Held alone, so every new event of this partner is this trade's: fail its first attempt.
        ctx.receiver.program(name, [{ kind: 'status', status: 500 }], (e) => !before.has(e.eventId));
        await settleTo(ctx, actor, made.quoteId, 'settled', R);
        const mine = () => ctx.receiver.attempts(name).filter((e) => eventMentions(e, ids));
        // Backoff is not shown: allow the Gate schedule's bound for four retries, capped at quick depth.
        const cap = ctx.depth === 'quick' ? QUICK_SCHEDULE_BUDGET_MS : 3 * 3_600_000;
        const waitMs = Math.max(MIN_WAIT_MS, Math.min(latestArrivalOf(ctx, 5), cap));
        try {
          await ctx.waitForEvent(name, () => mine().length >= 2, waitMs, 'redelivery of pool.transaction.settled');
        } catch {
          ctx.expect.that(false, `the failed delivery is delivered again within ${Math.round(waitMs / 1000)} s`, {
            requirement: R,
            expected: '≥ 2 attempts',
            actual: `${mine().length} attempt(s), answered ${mine().map((e) => e.answeredStatus ?? '—').join(', ')}`,
          });
        }
        const attempts = mine();
        ctx.expect.equal(attempts[0]!.answeredStatus, 500, 'the receiver failed the first attempt', { requirement: R });
        ctx.expect.equal(eventTypeOf(attempts[1]!), 'pool.transaction.settled', 'the redelivered event is pool.transaction.settled', { requirement: R });
        const eventIds = [...new Set(attempts.map((e) => e.eventId))];
        ctx.expect.that(eventIds.length === 1 && typeof eventIds[0] === 'string', 'every attempt carries the same eventId (the dedupe key)', { requirement: R, actual: eventIds });
        attempts.forEach((e, i) =>
          ctx.expect.that(typeof e.headers['gate-signature'] === 'string' && e.headers['gate-signature'].length > 0, `attempt ${i + 1} carries a Gate-Signature header`, {
            requirement: R,
            actual: Object.keys(e.headers),
          }),
        );
        ctx.observe('pools-redelivery-gap-ms', attempts[1]!.arrivedAt - attempts[0]!.arrivedAt, 'pools retry schedule is not shown');
        ctx.observe('pools-signature-gate-recipe', attempts.map((e) => e.verification.ok), 'whether the Gate recipe verifies each attempt (pools recipe not shown)');
      },
    },
  ] satisfies CheckDef[],
});
