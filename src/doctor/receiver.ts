// The target reaches rampart's webhook receiver where the profile says it
// listens: a Gate partner's webhooks are pointed at the receiver (the
// profile's configureWebhook), POST /webhooks/test asks for one synthetic
// event, and it must arrive there and verify with the partner's secret. The
// pools configureWebhook is sent too (pools fires only on terminal trades, so
// no event can be asked for: its answer is what is judged). A run points the
// partners' webhooks at its own receiver again, so nothing is left to undo.
import type { Profile, RequestTemplate } from '../profile/schema.js';
import { startReceiver } from '../webhooks/receiver.js';
import type { ReceivedEvent, WebhookReceiver } from '../webhooks/types.js';
import { answered, ok2xx, templateOk, type DoctorContext } from './context.js';
import { applyAll, withoutGateField, withoutGateTrigger, withoutPoolsTrigger } from './edits.js';
import { missingRow } from './triggers.js';

const DEFAULT_WAIT_MS = 30_000;

const RECEIVER_ROW = { area: 'webhooks' as const, name: 'receiver reachable from the target' };

/** Everything that needs a delivery to reach rampart: both services' wiring. */
const unreachable = (p: Profile) => applyAll(p, [withoutGateTrigger('configureWebhook'), withoutPoolsTrigger('configureWebhook')]);

export async function checkReceiver(ctx: DoctorContext): Promise<void> {
  const { profile } = ctx;
  const gateTpl = profile.gate.triggers.configureWebhook;
  const poolsTpl = profile.pools?.triggers.configureWebhook;
  if (!gateTpl) ctx.row({ area: 'trigger', name: 'gate.triggers.configureWebhook', ...missingRow(ctx, 'gate', 'configureWebhook') });
  if (profile.pools && !poolsTpl) ctx.row({ area: 'trigger', name: 'pools.triggers.configureWebhook', ...missingRow(ctx, 'pools', 'configureWebhook') });
  if (!gateTpl && !poolsTpl) return;
  const receiver = await listenWhereTheProfileSays(ctx);
  if (!receiver) return;
  try {
    if (poolsTpl) await pointPoolsWebhooks(ctx, receiver, poolsTpl);
    if (gateTpl) await gateDeliveryArrives(ctx, receiver, gateTpl);
  } finally {
    await receiver.close();
  }
}

/** rampart's receiver, listening where the profile says; or a broken row saying why it cannot. */
async function listenWhereTheProfileSays(ctx: DoctorContext): Promise<WebhookReceiver | undefined> {
  const { webhooks } = ctx.profile;
  try {
    return await startReceiver({ host: webhooks.listenHost, port: webhooks.listenPort, publicUrl: webhooks.publicUrl });
  } catch (e) {
    ctx.row({
      ...RECEIVER_ROW,
      status: 'broken',
      detail: `rampart's receiver cannot listen on ${webhooks.listenHost}:${webhooks.listenPort}: ${(e as Error).message}`,
      without: unreachable,
      fix: 'webhooks.listenHost / webhooks.listenPort',
    });
    return undefined;
  }
}

/** The pools configureWebhook, sent for a funded partner: pools fires only on terminal trades, so its answer is what is judged. */
async function pointPoolsWebhooks(ctx: DoctorContext, receiver: WebhookReceiver, poolsTpl: RequestTemplate): Promise<void> {
  const partners = ctx.profile.pools!.partners;
  const pp = ctx.leastUsed(partners, (p) => p.state === 'funded' && !!p.webhookSecret) ?? ctx.leastUsed(partners);
  const name = 'pools.triggers.configureWebhook';
  const without = withoutPoolsTrigger('configureWebhook');
  if (!pp) {
    ctx.row({ area: 'trigger', name, status: 'not checked', detail: 'no pools partner outside the load reservation to act', without });
    return;
  }
  const channel = `pools:${pp.name}`;
  const res = await ctx.send('pools', poolsTpl, pp, { webhookUrl: receiver.urlFor(channel) });
  if (typeof res !== 'string' && templateOk(poolsTpl, res.exchange))
    ctx.row({
      area: 'trigger',
      name,
      status: 'ok',
      detail: `pointed ${pp.name}'s pools webhooks at the receiver (answered ${res.exchange.status}; pools fires only on terminal trades, so no delivery is asked for)`,
      without,
    });
  else
    ctx.row({
      area: 'trigger',
      name,
      status: 'broken',
      detail: typeof res === 'string' ? res : answered(res.exchange),
      without,
      fix: 'fix pools.triggers.configureWebhook ({{webhookUrl}} is filled in)',
    });
}

/** A Gate partner's webhooks pointed at the receiver, a webhook.test asked for: it must arrive and verify. */
async function gateDeliveryArrives(ctx: DoctorContext, receiver: WebhookReceiver, gateTpl: RequestTemplate): Promise<void> {
  const wp = ctx.leastUsed(ctx.profile.gate.partners, (p) => !!p.webhookSecret && !p.noWebhookUrl);
  const name = 'gate.triggers.configureWebhook';
  const without = withoutGateTrigger('configureWebhook');
  if (!wp) {
    ctx.row({ area: 'trigger', name, status: 'not checked', detail: 'no gate partner with webhookSecret outside the load reservation', without });
    ctx.row({
      ...RECEIVER_ROW,
      status: 'missing',
      detail: 'no gate partner has webhookSecret',
      without: unreachable,
      fix: 'webhookSecret (whsec_…) on a gate partner',
    });
    return;
  }
  const channel = `gate:${wp.name}`;
  receiver.setSecrets(channel, [wp.webhookSecret!]);
  const url = receiver.urlFor(channel);
  const conf = await ctx.send('gate', gateTpl, wp, { webhookUrl: url });
  if (typeof conf === 'string' || !templateOk(gateTpl, conf.exchange)) {
    ctx.row({
      area: 'trigger',
      name,
      status: 'broken',
      detail: typeof conf === 'string' ? conf : answered(conf.exchange),
      without,
      fix: 'fix gate.triggers.configureWebhook ({{webhookUrl}} is filled in)',
    });
    ctx.row({ ...RECEIVER_ROW, status: 'not checked', detail: "the partner's webhooks could not be pointed at the receiver", without: unreachable });
    return;
  }
  const test = await ctx.call(ctx.gateClient(wp), { method: 'POST', path: '/webhooks/test' });
  if (typeof test === 'string' || !ok2xx(test)) {
    const detail = typeof test === 'string' ? test : `configureWebhook answered ${conf.exchange.status}, but POST /webhooks/test then ${answered(test)}`;
    ctx.row({ area: 'trigger', name, status: 'broken', detail, without, fix: 'the template must set the webhook_url the target delivers to' });
    ctx.row({ ...RECEIVER_ROW, status: 'not checked', detail: 'no webhook.test could be asked for', without: unreachable });
    return;
  }
  ctx.row({ area: 'trigger', name, status: 'ok', detail: `pointed ${wp.name}'s webhooks at ${url}`, without });
  await judgeTestDelivery(ctx, receiver, { channel, url, partner: wp.name, eventId: (test.json as { event_id?: unknown } | undefined)?.event_id });
}

/** The webhook.test delivery the target was asked for: arrived at the receiver, and verified with the partner's secret. */
async function judgeTestDelivery(
  ctx: DoctorContext,
  receiver: WebhookReceiver,
  asked: { channel: string; url: string; partner: string; eventId: unknown },
): Promise<void> {
  const { channel, url, partner, eventId } = asked;
  const waitMs = ctx.opts.receiverWaitMs ?? DEFAULT_WAIT_MS;
  let got: ReceivedEvent | undefined;
  try {
    got = await receiver.waitFor(channel, (e) => (typeof eventId === 'string' ? e.eventId === eventId : e.eventType === 'webhook.test'), waitMs);
  } catch {
    got = undefined;
  }
  if (!got)
    ctx.row({
      ...RECEIVER_ROW,
      status: 'broken',
      detail: `no webhook.test delivery reached ${url} within ${Math.round(waitMs / 1000)} s`,
      without: unreachable,
      fix: "webhooks.publicUrl must be an address the target can reach (a tunnel, or the runner's address) that forwards to webhooks.listenHost:listenPort",
    });
  else if (!got.verification.ok)
    ctx.row({
      area: 'webhooks',
      name: `${partner}: webhookSecret`,
      status: 'broken',
      detail: `a delivery arrived but its Gate-Signature does not verify: ${got.verification.reason}`,
      without: withoutGateField(partner, 'webhookSecret'),
      fix: `the whsec_ secret the target signs ${partner}'s events with`,
    });
  else
    ctx.row({
      ...RECEIVER_ROW,
      status: 'ok',
      detail: `a signed webhook.test delivery arrived at ${url} and verified with ${partner}'s secret`,
      without: unreachable,
    });
}
