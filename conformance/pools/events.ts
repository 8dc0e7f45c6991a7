// Pools webhooks: the three terminal trade events, signed with Gate-Signature,
// one eventId each; none for reserved, returned or a quote rejection.
// Payload shape is not shown, so an event belongs to a trade when its raw body
// names the trade or its quote. The signature recipe is not shown either: the
// Gate recipe is verified only when the profile declares it
// (pools.webhookSignature: 'gate'); otherwise its verdict is observed.
import type { PoolsWebhookActor } from '../../src/needs/define.js';
import { check, defineSuite, type CheckTools, type RequirementId } from '../../src/runner/check.js';
import { CheckFailed } from '../../src/runner/expect.js';
import type { ReceivedEvent } from '../../src/webhooks/types.js';
import { expect2xx } from '../../support/expect.js';
import {
  createFirmQuote,
  eventMentions,
  eventTypeOf,
  gateRecipeVerdict,
  isTerminal,
  pollPath,
  pollToTerminal,
  quotePath,
  reservedTrade,
  settleTo,
} from '../../support/pools/pools.js';

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

/**
 * The trade's webhook of `type`. A target whose payload never names the trade
 * cannot have its events attributed: when only unattributable events of the
 * type arrived, the check is unverified; when none arrived, it fails.
 */
async function tradeEvent(
  t: CheckTools,
  actor: PoolsWebhookActor,
  ids: string[],
  type: string,
  since: number,
  requirement: RequirementId,
): Promise<ReceivedEvent> {
  try {
    return await actor.hooks.waitFor((e) => eventMentions(e, ids), EVENT_WAIT_MS, type, requirement);
  } catch (e) {
    const anonymous = actor.hooks.attempts().filter((x) => x.arrivedAt >= since && eventTypeOf(x) === type);
    if (e instanceof CheckFailed && anonymous.length > 0) {
      t.unverified(
        `${anonymous.length} ${type} webhook(s) arrived but none names trade ${ids[0]} or quote ${ids[1]} (the payload shape is not shown): the event cannot be attributed to the trade`,
      );
    }
    throw e;
  }
}

/** The first webhook naming one of `ids`, or undefined when none came within EVENT_WAIT_MS. */
async function attributed(actor: PoolsWebhookActor, ids: string[], requirement: RequirementId): Promise<ReceivedEvent | undefined> {
  try {
    return await actor.hooks.waitFor((e) => eventMentions(e, ids), EVENT_WAIT_MS, `a webhook naming ${ids.join(' or ')}`, requirement);
  } catch (e) {
    if (e instanceof CheckFailed) return undefined;
    throw e;
  }
}

/** Webhooks of the partner since `since` whose type matches: one the spec rules out, whatever its payload names. */
function typedAs(actor: PoolsWebhookActor, since: number, type: RegExp): string[] {
  return uniqueEvents(actor.hooks.attempts().filter((e) => e.arrivedAt >= since && type.test(eventTypeOf(e) ?? ''))).map((e) => String(eventTypeOf(e)));
}

/** Gate-Signature present; verified when the profile declares the Gate recipe for pools, its verdict observed otherwise. */
function judgeSignature(t: CheckTools, actor: PoolsWebhookActor, ev: ReceivedEvent) {
  const R = 'POOLS-EVT-SIGNED';
  const sig = ev.headers['gate-signature'];
  t.expect.that(typeof sig === 'string' && sig.length > 0, 'the delivery carries a Gate-Signature header', { requirement: R, actual: Object.keys(ev.headers) });
  if (t.profile.pools?.webhookSignature === 'gate') {
    t.expect.that(
      ev.verification.ok,
      'the Gate-Signature verifies with the Gate recipe and the partner’s webhookSecret (the profile declares pools.webhookSignature: gate)',
      {
        requirement: R,
        actual: ev.verification.reason,
      },
    );
    return;
  }
  const gate = gateRecipeVerdict(ev, actor.partner.webhookSecret);
  t.observe(
    'pools-signature-gate-recipe',
    gate.ok,
    gate.ok ? 'the Gate recipe verifies (declare pools.webhookSignature: gate to assert it)' : `the Gate recipe does not verify: ${gate.reason}`,
  );
}

function terminalEventCheck(outcome: 'settled' | 'failed' | 'released', requirement: 'POOLS-EVT-SETTLED' | 'POOLS-EVT-FAILED' | 'POOLS-EVT-RELEASED') {
  const type = `pool.transaction.${outcome}`;
  return check({
    name: `a ${outcome} trade fires one signed ${type} webhook and nothing before it, and none again when polled after it ended`,
    requirements: [requirement, 'POOLS-EVT-SIGNED', 'POOLS-EVT-EVENT-ID', 'POOLS-EVT-TERMINAL-ONLY'],
    needs: ['poolsWebhooks', 'poolsTradeOutcome'],
    async run({ poolsWebhooks: actor, poolsTradeOutcome: choose }, t: CheckTools) {
      const made = await reservedTrade(t, actor, requirement);
      const ids = [made.transactId, made.quoteId];
      const mine = () => actor.hooks.attempts().filter((e) => eventMentions(e, ids));
      await t.sleep(QUIET_MS, 'no webhook for a reserved trade', 'target');
      t.expect.equal(
        mine().map((e) => eventTypeOf(e)),
        [],
        'no webhook fires for the reserved trade',
        { requirement: 'POOLS-EVT-TERMINAL-ONLY' },
      );

      const since = Date.now();
      await settleTo(t, choose, actor, made.quoteId, outcome, requirement);
      const ev = await tradeEvent(t, actor, ids, type, since, requirement);
      t.expect.equal(eventTypeOf(ev), type, `the webhook of a ${outcome} trade is ${type}`, { requirement });
      judgeSignature(t, actor, ev);
      t.expect.that(typeof ev.eventId === 'string' && ev.eventId.length > 0, 'the delivery carries an eventId', {
        requirement: 'POOLS-EVT-EVENT-ID',
        actual: ev.json,
      });

      // The ended trade polled again (a partner's poller keeps asking): one outcome is one event, never a second under a new eventId.
      for (let i = 0; i < 2; i++) expect2xx(t, await actor.client.get(pollPath(made.quoteId)), requirement, `the ${outcome} trade polled again`);
      await t.sleep(QUIET_MS, 'late or duplicate webhooks', 'target');
      const all = mine();
      t.expect.equal(
        uniqueEvents(all).map((e) => eventTypeOf(e)),
        [type],
        `the trade fires exactly one event (${type}) under one eventId, also when polled again after it ended`,
        { requirement: 'POOLS-EVT-EVENT-ID' },
      );
      t.observe('pools-event-attempts', all.length);
    },
  });
}

export default defineSuite({
  service: 'pools',
  section: 'Events',
  checks: [
    terminalEventCheck('settled', 'POOLS-EVT-SETTLED'),
    terminalEventCheck('failed', 'POOLS-EVT-FAILED'),
    terminalEventCheck('released', 'POOLS-EVT-RELEASED'),
    check({
      name: 'a returned trade fires no webhook for returned',
      requirements: ['POOLS-EVT-NO-RETURNED-WEBHOOK'],
      needs: ['poolsWebhooks', 'poolsTradeOutcome'],
      async run({ poolsWebhooks: actor, poolsTradeOutcome: choose }, t: CheckTools) {
        const R = 'POOLS-EVT-NO-RETURNED-WEBHOOK';
        const made = await reservedTrade(t, actor, R);
        const ids = [made.transactId, made.quoteId];
        const since = Date.now();
        const path = await settleTo(t, choose, actor, made.quoteId, 'returned', R);
        // The trade passed through settled, whose webhook is due: once it is in, listen on for anything after it.
        const settled = await attributed(actor, ids, R);
        await t.sleep(QUIET_MS, 'no webhook for returned', 'target');
        // A webhook typed for the returned status is ruled out whoever its payload names (its shape is not shown).
        const typed = typedAs(actor, since, /returned/i);
        t.expect.equal(typed, [], 'no webhook is typed for the returned status', { requirement: R });
        const types = uniqueEvents(actor.hooks.attempts().filter((e) => eventMentions(e, ids))).map((e) => eventTypeOf(e));
        t.expect.that(types.every((x) => x === 'pool.transaction.settled') && types.length <= 1, 'no webhook beyond the settled one for a returned trade', {
          requirement: R,
          actual: types,
        });
        t.observe('pools-returned-events', { path, types });
        // Without a webhook that names the trade, one of another type for its return could not be told from the others.
        if (!settled)
          t.unverified(
            `no webhook named trade ${ids[0]} or quote ${ids[1]} within ${EVENT_WAIT_MS / 1000} s of its settling (the payload shape is not shown): a returned webhook of another type could not be attributed; none typed for returned came`,
          );
      },
    }),
    check({
      name: 'a quote rejection fires no webhook',
      requirements: ['POOLS-EVT-NO-REJECT-WEBHOOK'],
      needs: ['poolsWebhooks'],
      async run({ poolsWebhooks: actor }, t: CheckTools) {
        const R = 'POOLS-EVT-NO-REJECT-WEBHOOK';
        // The payload is not shown: only when this target's webhooks name the quote can a rejection's silence be read from
        // them. A trade polled to its end fires its terminal webhook: it must name its quoteId.
        const control = await reservedTrade(t, actor, R);
        const end = (await pollToTerminal(t, actor, control.quoteId, R)).at(-1)!;
        const terminal = isTerminal(end) ? await attributed(actor, [control.transactId, control.quoteId], R) : undefined;

        const { quote } = await createFirmQuote(t, actor, R);
        const since = Date.now();
        expect2xx(t, await actor.client.post(quotePath(quote.quoteId, '/reject'), undefined, { retry: false }), R, 'reject of an active quote');
        await t.sleep(QUIET_MS, 'no webhook for a rejection', 'target');
        t.expect.equal(typedAs(actor, since, /reject/i), [], 'no webhook is typed for a rejection', { requirement: R });
        const events = actor.hooks.attempts().filter((e) => eventMentions(e, [quote.quoteId]));
        t.expect.equal(
          events.map((e) => eventTypeOf(e)),
          [],
          'no webhook names the rejected quote',
          { requirement: R },
        );
        if (!terminal || !eventMentions(terminal, [control.quoteId]))
          t.unverified(
            !isTerminal(end)
              ? `polling left the control trade ${end}: no terminal webhook to learn whether this target's webhooks name quotes; none typed for a rejection came`
              : !terminal
                ? `the control trade's terminal webhook (${end}) named neither it nor its quote within ${EVENT_WAIT_MS / 1000} s (the payload shape is not shown): a rejection webhook could not be attributed; none typed for a rejection came`
                : `the control trade's terminal webhook names the trade but not its quote: a rejection webhook (no trade) could not be attributed; none typed for a rejection came`,
          );
      },
    }),
  ],
});
