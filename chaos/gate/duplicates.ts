// Gate "Events > Delivery rules" rule 1 across several events: with the
// receiver failing the first attempt of each, every event still arrives (at
// least once), redeliveries repeat an event id the receiver has already seen
// (so it can dedupe on it), and the deliveries list agrees, event by event,
// with the attempts the receiver saw.
import { check, defineSuite, type CheckTools } from '../../src/runner/check.js';
import { WebhookDelivery } from '../../src/model/schemas/gate/webhooks.js';
import { expect2xx } from '../../support/expect.js';
import { latestArrivalOf, requireVerified, scheduleBudgetMs, settledDeliveries, skipUnlessAffordable, type Delivery } from '../../support/gate/deliveries.js';

const EVENTS = 3;
const LIST_SETTLE_MS = 10_000;
/** Three events are sent one after another: the last one's retry may come that much later. */
const SEND_SLACK_MS = 5_000;

export default defineSuite({
  service: 'gate',
  section: 'Events > Delivery rules',
  checks: [
    check({
      name: `${EVENTS} events through a receiver failing each first attempt: each arrives, redeliveries repeat its id, the list agrees per event`,
      requirements: ['GATE-DLV-AT-LEAST-ONCE', 'GATE-DLV-LIST-AGREES', 'GATE-DLV-EVENT-ID-STABLE'],
      needs: ['gateWebhooksExclusive'],
      budgetMs: scheduleBudgetMs(1, SEND_SLACK_MS + EVENTS * LIST_SETTLE_MS),
      async run({ gateWebhooksExclusive: actor }, t: CheckTools) {
        skipUnlessAffordable(t, 1);
        const start = actor.hooks.attempts().length;
        const before = new Set(actor.hooks.attempts().map((e) => e.eventId));
        // Fail the first attempt of each new webhook.test event id, whatever order attempts arrive in.
        const failedOnce = new Set<string | undefined>();
        actor.hooks.program(Array(EVENTS).fill({ kind: 'status', status: 500 }), (e) => {
          if (e.eventType !== 'webhook.test' || before.has(e.eventId) || failedOnce.has(e.eventId)) return false;
          failedOnce.add(e.eventId);
          return true;
        });
        const events: { delivery: Delivery }[] = [];
        for (let i = 0; i < EVENTS; i++) {
          // The success status of POST /webhooks/test is not shown: any 2xx.
          const ex = expect2xx(t, await actor.client.post('/webhooks/test', undefined, { retry: false }), 'GATE-DLV-AT-LEAST-ONCE');
          events.push({ delivery: t.expect.schema(ex, WebhookDelivery, 'GATE-DLV-AT-LEAST-ONCE') });
        }
        const ids = events.map((e) => e.delivery.event_id);
        const seen = () =>
          actor.hooks
            .attempts()
            .slice(start)
            .filter((e) => e.eventId !== undefined && ids.includes(e.eventId));
        // Attempts under an id the target never listed: a redelivery that changed its event id.
        const strangers = () =>
          actor.hooks
            .attempts()
            .slice(start)
            .filter((e) => e.eventType === 'webhook.test' && !ids.includes(e.eventId ?? ''));
        const acked = (id: string) =>
          seen().some((e) => e.eventId === id && e.answeredStatus !== undefined && e.answeredStatus >= 200 && e.answeredStatus < 300);
        try {
          await actor.hooks.waitFor(
            () => ids.every(acked),
            latestArrivalOf(t, 2) + SEND_SLACK_MS,
            `an acknowledged attempt of each of ${EVENTS} events`,
            'GATE-DLV-AT-LEAST-ONCE',
          );
        } catch {
          // A receiver that refused the signature never answered as programmed: the rule judged here was not reached.
          requireVerified(t, seen());
          t.expect.equal(strangers().length, 0, 'every webhook.test attempt carries one of the listed event ids', { requirement: 'GATE-DLV-EVENT-ID-STABLE' });
          t.expect.that(false, `each of the ${EVENTS} events is delivered again after its failed first attempt`, {
            requirement: 'GATE-DLV-AT-LEAST-ONCE',
            actual: ids
              .map(
                (id) =>
                  `${id}: ${
                    seen()
                      .filter((e) => e.eventId === id)
                      .map((e) => e.answeredStatus)
                      .join(',') || 'never'
                  }`,
              )
              .join('; '),
          });
        }
        const all = seen();
        for (const id of ids) {
          const mine = all.filter((e) => e.eventId === id);
          t.expect.that(mine.length >= 2 && mine.slice(1).every((e) => e.duplicate), `event ${id} was redelivered under the id the receiver had already seen`, {
            requirement: 'GATE-DLV-EVENT-ID-STABLE',
            actual: mine.map((e) => `${e.answeredStatus}${e.duplicate ? ' (dup)' : ''}`),
          });
        }
        // Nothing else arrived: no attempt under an id the target never listed.
        t.expect.equal(strangers().length, 0, 'every webhook.test attempt carries one of the listed event ids', { requirement: 'GATE-DLV-EVENT-ID-STABLE' });
        const listed = await settledDeliveries(
          t,
          actor,
          events.map((ev) => ev.delivery.id),
          ['succeeded'],
          LIST_SETTLE_MS,
          'GATE-DLV-LIST-AGREES',
        );
        for (const [i, ev] of events.entries()) {
          const { delivery, exchange } = listed[i]!;
          const got = all.filter((e) => e.eventId === ev.delivery.event_id).length;
          t.expect.equal(
            [delivery.status, delivery.attempts],
            ['succeeded', got],
            `delivery ${ev.delivery.id} is listed succeeded with the ${got} attempts the receiver saw`,
            {
              requirement: 'GATE-DLV-LIST-AGREES',
              exchange,
            },
          );
        }
      },
    }),
  ],
});
