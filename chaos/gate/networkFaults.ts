// Gate "Events > Delivery rules": a connection reset or a connection that
// times out is a failed attempt and is retried. The toxic stops every attempt
// from reaching the receiver until the deliveries list shows one failed; once
// it is lifted, a retry must arrive.
import { defineSuite, type CheckContext, type CheckDef } from '../../src/runner/check.js';
import { GATE_LIMITS } from '../../src/model/limits.js';
import { expectSameIdAndSigned, latestArrivalOf, listedDelivery, programmedTestEvent, settledDelivery, waitForAttempts, type Delivery } from './support/deliveries.js';
import { chaosKit, webhookToxic } from './support/toxics.js';

const R = 'GATE-DLV-NETWORK-RETRIED';
const MAX = GATE_LIMITS.webhook.maxAttempts;

function networkCheck(label: string, type: 'reset_peer' | 'timeout', attributes: Record<string, number>): CheckDef {
  return {
    name: `a ${label} on the way to the receiver is a failed attempt and is retried`,
    requirements: [R, 'GATE-DLV-EVENT-ID-STABLE', 'GATE-DLV-SIGNED-EVERY-ATTEMPT'],
    needs: ['gate.webhooks'],
    timeoutMs: 4 * 3_600_000,
    async run(ctx: CheckContext) {
      chaosKit(ctx);
      const actor = await ctx.gate.webhooks({ exclusive: true });
      const toxic = await webhookToxic(ctx, actor, type, 'upstream', attributes);
      const ev = await programmedTestEvent(ctx, actor, [], R);
      // Lift the toxic only once an attempt has failed on it (bounded: the first attempt is immediate).
      const deadline = Date.now() + ctx.profile.timing.attemptTimeoutMs + 30_000;
      let seen: Delivery = ev.delivery;
      for (let i = 0; seen.attempts < 1 || seen.status === 'in_flight'; i++) {
        if (Date.now() > deadline) ctx.expect.that(false, 'the deliveries list shows the first attempt made', { requirement: R, actual: `${seen.status}, ${seen.attempts} attempts` });
        await ctx.sleep(Math.min(500, 20 * 2 ** i), 'first attempt on the faulty connection');
        seen = (await listedDelivery(ctx, actor, ev.delivery.id, R)).delivery;
      }
      await toxic.remove();
      ctx.observe('gate.webhooks.networkFailure', { toxic: type, status: seen.status, attempts: seen.attempts, last_error: seen.last_error }, 'the delivery after a failed attempt on a broken connection');
      ctx.expect.that(seen.status !== 'succeeded', 'an attempt that never reached the receiver is not succeeded', { requirement: R, actual: seen.status });
      ctx.expect.that(seen.status !== 'dead_lettered' || seen.attempts >= MAX, `a ${label} does not dead-letter before ${MAX} attempts`, {
        requirement: R,
        actual: `${seen.status} after ${seen.attempts} attempt(s): ${seen.last_error}`,
      });
      const arrived = await waitForAttempts(ctx, ev, 1, latestArrivalOf(ctx, MAX), R, `the delivery is retried after a ${label}`);
      expectSameIdAndSigned(ctx, ev, arrived);
      const { delivery, exchange } = await settledDelivery(ctx, actor, ev.delivery.id, ['succeeded'], 10_000, R);
      ctx.expect.equal(delivery.status, 'succeeded', `the delivery succeeds once the ${label} is gone`, { requirement: R, exchange });
      ctx.expect.that(delivery.attempts >= 2, `the failed attempt is counted`, { requirement: R, actual: delivery.attempts, exchange });
    },
  };
}

export default defineSuite({
  service: 'gate',
  section: 'Events > Delivery rules',
  checks: [
    networkCheck('connection reset', 'reset_peer', { timeout: 0 }),
    networkCheck('connection timeout', 'timeout', { timeout: 500 }),
  ],
});
