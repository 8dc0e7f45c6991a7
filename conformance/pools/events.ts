// Pools webhooks: the three terminal trade events, signed with Gate-Signature,
// one eventId each; none for reserved, returned or a quote rejection.
// Payload shape is not shown, so an event belongs to a trade when its raw body
// names the trade or its quote; the signature recipe is not shown either, so
// the Gate recipe's verdict is observed, not asserted.
import { defineSuite, type CheckContext, type CheckDef } from '../../src/runner/check.js';
import type { ReceivedEvent } from '../../src/webhooks/types.js';
import { createFirmQuote, eventMentions, eventTypeOf, quotePath, reservedTrade, settleTo } from './support/pools.js';

const EVENT_WAIT_MS = 20_000;
/** How long to keep listening for a webhook that must not come. */
const QUIET_MS = 2_000;

function uniqueEvents(events: ReceivedEvent[]): ReceivedEvent[] {
  const seen = new Map<string, ReceivedEvent>();
  for (const e of events) {
    const id = e.eventId ?? e.rawBody.toString('utf8');
    if (!seen.has(id)) seen.set(id, e);
  }
  return [...seen.values()];
}

function terminalEventCheck(outcome: 'settled' | 'failed' | 'released', requirement: string): CheckDef {
  const type = `pool.transaction.${outcome}`;
  return {
    name: `a ${outcome} trade fires one signed ${type} webhook and nothing before it`,
    requirements: [requirement, 'POOLS-EVT-SIGNED', 'POOLS-EVT-EVENT-ID', 'POOLS-EVT-TERMINAL-ONLY'],
    needs: ['pools.partner', 'pools.webhooks', 'pools.trigger.outcome'],
    timeoutMs: 60_000,
    async run(ctx: CheckContext) {
      const actor = await ctx.pools.webhooks();
      const name = actor.partner.name;
      const made = await reservedTrade(ctx, actor, requirement);
      const ids = [made.transactId, made.quoteId];
      const mine = () => ctx.receiver.attempts(name).filter((e) => eventMentions(e, ids));
      await ctx.sleep(QUIET_MS, 'no webhook for a reserved trade');
      ctx.expect.equal(mine().length, 0, 'no webhook fires for the reserved trade', { requirement: 'POOLS-EVT-TERMINAL-ONLY' });

      await settleTo(ctx, actor, made.quoteId, outcome, requirement);
      const ev = await ctx.waitForEvent(name, (e) => eventMentions(e, ids), EVENT_WAIT_MS, type);
      ctx.expect.equal(eventTypeOf(ev), type, `the webhook of a ${outcome} trade is ${type}`, { requirement });
      const sig = ev.headers['gate-signature'];
      ctx.expect.that(typeof sig === 'string' && sig.length > 0, 'the delivery carries a Gate-Signature header', {
        requirement: 'POOLS-EVT-SIGNED',
        actual: Object.keys(ev.headers),
      });
      // The pools recipe is not shown: record whether the Gate recipe verifies it.
      ctx.observe('pools-signature-gate-recipe', ev.verification.ok, ev.verification.reason);
      ctx.expect.that(typeof ev.eventId === 'string' && ev.eventId.length > 0, 'the delivery carries an eventId', {
        requirement: 'POOLS-EVT-EVENT-ID',
        actual: ev.json,
      });

      await ctx.sleep(QUIET_MS, 'late or duplicate webhooks');
      const all = mine();
      const unique = uniqueEvents(all);
      ctx.expect.equal(
        unique.map((e) => eventTypeOf(e)),
        [type],
        `the trade fires exactly one event (${type}) under one eventId`,
        { requirement: 'POOLS-EVT-EVENT-ID' },
      );
      ctx.observe('pools-event-attempts', all.length);
    },
  };
}

export default defineSuite({
  service: 'pools',
  section: 'Events',
  checks: [
    terminalEventCheck('settled', 'POOLS-EVT-SETTLED'),
    terminalEventCheck('failed', 'POOLS-EVT-FAILED'),
    terminalEventCheck('released', 'POOLS-EVT-RELEASED'),
    {
      name: 'a returned trade fires no webhook for returned',
      requirements: ['POOLS-EVT-NO-RETURNED-WEBHOOK'],
      needs: ['pools.partner', 'pools.webhooks', 'pools.trigger.outcome'],
      timeoutMs: 60_000,
      async run(ctx: CheckContext) {
        const actor = await ctx.pools.webhooks();
        const made = await reservedTrade(ctx, actor, 'POOLS-EVT-NO-RETURNED-WEBHOOK');
        const ids = [made.transactId, made.quoteId];
        const path = await settleTo(ctx, actor, made.quoteId, 'returned', 'POOLS-EVT-NO-RETURNED-WEBHOOK');
        await ctx.sleep(QUIET_MS, 'no webhook for returned');
        const events = uniqueEvents(ctx.receiver.attempts(actor.partner.name).filter((e) => eventMentions(e, ids)));
        const types = events.map((e) => eventTypeOf(e));
        // The trade passed through settled, whose webhook is due; nothing else may fire.
        ctx.expect.that(types.every((t) => t === 'pool.transaction.settled') && types.length <= 1, 'no webhook beyond the settled one for a returned trade', {
          requirement: 'POOLS-EVT-NO-RETURNED-WEBHOOK',
          actual: types,
        });
        ctx.observe('pools-returned-events', { path, types });
      },
    },
    {
      name: 'a quote rejection fires no webhook',
      requirements: ['POOLS-EVT-NO-REJECT-WEBHOOK'],
      needs: ['pools.partner', 'pools.webhooks'],
      async run(ctx: CheckContext) {
        const actor = await ctx.pools.webhooks();
        const { quote } = await createFirmQuote(ctx, actor, 'POOLS-EVT-NO-REJECT-WEBHOOK');
        ctx.expect.status(await actor.client.post(quotePath(quote.quoteId, '/reject')), [200, 201], 'POOLS-EVT-NO-REJECT-WEBHOOK');
        await ctx.sleep(QUIET_MS, 'no webhook for a rejection');
        const events = ctx.receiver.attempts(actor.partner.name).filter((e) => eventMentions(e, [quote.quoteId]));
        ctx.expect.equal(events.length, 0, 'no webhook names the rejected quote', { requirement: 'POOLS-EVT-NO-REJECT-WEBHOOK' });
      },
    },
  ],
});
