// Gate "Events > Delivery rules" rule 1 across several events: with the
// receiver failing the first attempt of each, every event still arrives (at
// least once), redeliveries repeat an event id the receiver has already seen
// (so it can dedupe on it), and the deliveries list agrees, event by event,
// with the attempts the receiver saw.
import { defineSuite, type CheckContext, type CheckDef } from '../../src/runner/check.js';
import type { ReceivedEvent } from '../../src/webhooks/types.js';
import { WebhookDelivery } from '../../src/model/schemas/gate/webhooks.js';
import { latestArrivalOf, settledDelivery, skipUnlessAffordable, type Delivery } from './support/deliveries.js';

const EVENTS = 3;

export default defineSuite({
  service: 'gate',
  section: 'Events > Delivery rules',
  checks: [
    {
      name: `${EVENTS} events through a receiver failing each first attempt: each arrives, redeliveries repeat its id, the list agrees per event`,
      requirements: ['GATE-DLV-AT-LEAST-ONCE', 'GATE-DLV-LIST-AGREES', 'GATE-DLV-EVENT-ID-STABLE'],
      needs: ['gate.webhooks'],
      timeoutMs: 30 * 60_000,
      async run(ctx: CheckContext) {
        skipUnlessAffordable(ctx, 1);
        const actor = await ctx.gate.webhooks({ exclusive: true });
        const name = actor.partner.name;
        const start = ctx.receiver.attempts(name).length;
        const before = new Set(ctx.receiver.attempts(name).map((e) => e.eventId));
        // Fail the first attempt of each new webhook.test event id, whatever order attempts arrive in.
        const failedOnce = new Set<string | undefined>();
        ctx.receiver.program(name, Array(EVENTS).fill({ kind: 'status', status: 500 }), (e) => {
          if (e.eventType !== 'webhook.test' || before.has(e.eventId) || failedOnce.has(e.eventId)) return false;
          failedOnce.add(e.eventId);
          return true;
        });
        const events: { delivery: Delivery }[] = [];
        for (let i = 0; i < EVENTS; i++) {
          const ex = ctx.expect.status(await actor.client.post('/webhooks/test', undefined, { retry: false }), [200, 201, 202], 'GATE-DLV-AT-LEAST-ONCE');
          events.push({ delivery: ctx.expect.schema(ex, WebhookDelivery, 'GATE-DLV-AT-LEAST-ONCE') });
        }
        const ids = events.map((e) => e.delivery.event_id);
        const seen = () => ctx.receiver.attempts(name).slice(start).filter((e: ReceivedEvent) => e.eventId !== undefined && ids.includes(e.eventId));
        const acked = (id: string) => seen().some((e) => e.eventId === id && e.answeredStatus !== undefined && e.answeredStatus >= 200 && e.answeredStatus < 300);
        try {
          await ctx.waitForEvent(name, () => ids.every(acked), latestArrivalOf(ctx, 2) + 5_000, `an acknowledged attempt of each of ${EVENTS} events`);
        } catch {
          ctx.expect.that(false, `each of the ${EVENTS} events is delivered again after its failed first attempt`, {
            requirement: 'GATE-DLV-AT-LEAST-ONCE',
            actual: ids.map((id) => `${id}: ${seen().filter((e) => e.eventId === id).map((e) => e.answeredStatus).join(',') || 'never'}`).join('; '),
          });
        }
        const all = seen();
        for (const id of ids) {
          const mine = all.filter((e) => e.eventId === id);
          ctx.expect.that(mine.length >= 2 && mine.slice(1).every((e) => e.duplicate), `event ${id} was redelivered under the id the receiver had already seen`, {
            requirement: 'GATE-DLV-EVENT-ID-STABLE',
            actual: mine.map((e) => `${e.answeredStatus}${e.duplicate ? ' (dup)' : ''}`),
          });
        }
        // Nothing else arrived: no attempt under an id the target never listed.
        const strangers = ctx.receiver.attempts(name).slice(start).filter((e) => e.eventType === 'webhook.test' && !ids.includes(e.eventId ?? ''));
        ctx.expect.equal(strangers.length, 0, 'every webhook.test attempt carries one of the listed event ids', { requirement: 'GATE-DLV-EVENT-ID-STABLE' });
        for (const ev of events) {
          const { delivery, exchange } = await settledDelivery(ctx, actor, ev.delivery.id, ['succeeded'], 10_000, 'GATE-DLV-LIST-AGREES');
          const got = all.filter((e) => e.eventId === ev.delivery.event_id).length;
          ctx.expect.equal([delivery.status, delivery.attempts], ['succeeded', got], `delivery ${ev.delivery.id} is listed succeeded with the ${got} attempts the receiver saw`, {
            requirement: 'GATE-DLV-LIST-AGREES',
            exchange,
          });
        }
      },
    },
  ] satisfies CheckDef[],
});
