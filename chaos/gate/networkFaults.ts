// Gate "Events > Delivery rules": a connection reset or a connection that
// times out is a failed attempt and is retried. The fault (a toxic in front of
// the receiver, or the receiver itself behind a public URL) stops every attempt
// from reaching the partner until the deliveries list shows one failed; once it
// is lifted, a retry must arrive.
import { check, defineSuite, type CheckDef, type CheckTools } from '../../src/runner/check.js';
import { GATE_LIMITS } from '../../src/model/limits.js';
import type { ReceiverFault } from '../../src/webhooks/types.js';
import {
  expectSameIdAndSigned,
  latestArrivalOf,
  listedDelivery,
  programmedTestEvent,
  scheduleBudgetMs,
  settledDelivery,
  skipUnlessAffordable,
  waitForAttempts,
  type Delivery,
} from '../../support/gate/deliveries.js';

const R = 'GATE-DLV-NETWORK-RETRIED';
const WH = GATE_LIMITS.webhook;
/** Beyond the spec's attempt timeout, how long the first attempt may take to show as made in the list. */
const FIRST_ATTEMPT_SLACK_MS = 30_000;
const LIST_SETTLE_MS = 10_000;

function networkCheck(label: string, fault: ReceiverFault): CheckDef {
  return check({
    name: `a ${label} on the way to the receiver is a failed attempt and is retried`,
    requirements: [R, 'GATE-DLV-EVENT-ID-STABLE', 'GATE-DLV-SIGNED-EVERY-ATTEMPT'],
    needs: ['gateWebhooksExclusive', 'toxiproxy'],
    // The failed first attempt, then up to every retry gap until one reaches the healed receiver.
    budgetMs: scheduleBudgetMs(WH.maxAttempts - 1, WH.attemptTimeoutMs + FIRST_ATTEMPT_SLACK_MS + LIST_SETTLE_MS),
    async run({ gateWebhooksExclusive: actor, toxiproxy: kit }, t: CheckTools) {
      skipUnlessAffordable(t, WH.maxAttempts - 1, WH.attemptTimeoutMs);
      const staged = await kit.webhookFault(actor.hooks, fault);
      const ev = await programmedTestEvent(t, actor, [], R);
      // Lift the toxic only once an attempt has failed on it (bounded: the first attempt is immediate, and ends by the spec's timeout).
      const deadline = Date.now() + WH.attemptTimeoutMs + FIRST_ATTEMPT_SLACK_MS;
      let seen: Delivery = ev.delivery;
      const firstLookMs = Math.max(250, fault.kind === 'timeout' ? fault.afterMs : 0);
      // An attempt has ended once it is counted and the delivery is no longer in flight — or, where the target holds a
      // waiting retry in in_flight (the status held while a retry waits is not shown), once the attempt left its error.
      const ended = (d: Delivery) => d.attempts >= 1 && (d.status !== 'in_flight' || d.last_error !== null || d.last_response_status !== null);
      for (let i = 0; !ended(seen); i++) {
        if (Date.now() > deadline)
          t.expect.that(false, 'the deliveries list shows the first attempt made', { requirement: R, actual: `${seen.status}, ${seen.attempts} attempts` });
        // Each look is a request on the partner's key: the first after the fault could have ended an attempt
        // (a timeout toxic holds it that long), then backing off to 2 s.
        await t.sleep(Math.min(2_000, firstLookMs * 2 ** i), 'first attempt on the faulty connection', 'target');
        seen = (await listedDelivery(t, actor, ev.delivery.id, R)).delivery;
      }
      await staged.remove();
      t.observe(
        'gate.webhooks.networkFailure',
        { fault: fault.kind, stagedBy: kit.webhookFaultsBy, status: seen.status, attempts: seen.attempts, last_error: seen.last_error },
        'the delivery after a failed attempt on a broken connection',
      );
      // The case judged is an attempt that failed on the network: if one got through, the toxic staged nothing.
      if (ev.attempts().length > 0) t.unverified(`an attempt reached the receiver through the staged ${fault.kind}, so no network failure was staged`);
      t.expect.that(seen.status !== 'succeeded', 'an attempt that never reached the receiver is not succeeded', { requirement: R, actual: seen.status });
      t.expect.that(seen.status !== 'dead_lettered' || seen.attempts >= WH.maxAttempts, `a ${label} does not dead-letter before ${WH.maxAttempts} attempts`, {
        requirement: R,
        actual: `${seen.status} after ${seen.attempts} attempt(s): ${seen.last_error}`,
      });
      const arrived = await waitForAttempts(t, ev, 1, latestArrivalOf(t, WH.maxAttempts), R, `the delivery is retried after a ${label}`);
      expectSameIdAndSigned(t, ev, arrived);
      const { delivery, exchange } = await settledDelivery(t, actor, ev.delivery.id, ['succeeded'], LIST_SETTLE_MS, R);
      t.expect.equal(delivery.status, 'succeeded', `the delivery succeeds once the ${label} is gone`, { requirement: R, exchange });
      t.expect.that(delivery.attempts >= 2, 'the failed attempt is counted', { requirement: R, actual: delivery.attempts, exchange });
    },
  });
}

export default defineSuite({
  service: 'gate',
  section: 'Events > Delivery rules',
  checks: [networkCheck('connection reset', { kind: 'reset' }), networkCheck('connection timeout', { kind: 'timeout', afterMs: 500 })],
});
