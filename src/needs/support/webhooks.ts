// Pointing a partner's webhooks at rampart's receiver (once per run and
// partner, through the profile's configureWebhook trigger), and the receiver's
// per-partner view a check works with. Receiver state is keyed by service and
// partner: a Gate and a pools partner of the same name never share it.
import type { GatePartner, PoolsPartner } from '../../profile/schema.js';
import { TransportError } from '../../client/types.js';
import { CheckFailed, CheckSkipped, CheckUnverified } from '../../runner/expect.js';
import { sendTemplate } from './triggers.js';
import type { GateActor, NeedEnv, PartnerHooks, PoolsActor, Service } from '../define.js';

export const channelOf = (service: Service, partner: { name: string }) => `${service}:${partner.name}`;

/** Is the partner's webhook_url already pointed at the receiver in this run? */
export function isWired(env: NeedEnv, service: Service, partner: { name: string }): boolean {
  return env.run.cache.has(`webhook:${channelOf(service, partner)}`);
}

export function webhookMissing(env: { profile: NeedEnv['profile'] }, service: Service): string | null {
  const tpl = service === 'gate' ? env.profile.gate.triggers.configureWebhook : env.profile.pools?.triggers.configureWebhook;
  if (!tpl) return `${service}.triggers.configureWebhook is missing from the profile (how to point a partner's webhook_url at rampart's receiver)`;
  return null;
}

/** Wire the actor's webhooks to the receiver (once per run) and return its hooks view. */
export async function wire(env: NeedEnv, service: Service, actor: GateActor | PoolsActor): Promise<PartnerHooks> {
  const partner = actor.partner as GatePartner | PoolsPartner;
  const channel = channelOf(service, partner);
  if (!env.run.cache.has(`webhook:${channel}`)) {
    const secret = partner.webhookSecret;
    if (!secret) throw new CheckSkipped(`${service} partner ${partner.name} has no webhookSecret in the profile`);
    // The pools recipe is not shown: the receiver judges (and refuses) pools deliveries only when the profile declares the Gate recipe.
    if (service === 'gate' || env.profile.pools?.webhookSignature === 'gate') env.run.receiver.setSecrets(channel, [secret]);
  }
  return hooksFor(env, channel, await pointAtReceiver(env, service, actor));
}

/** Point the partner's webhook_url at the receiver through the profile's configureWebhook trigger, once per run; the URL it points at. */
export async function pointAtReceiver(env: NeedEnv, service: Service, actor: GateActor | PoolsActor): Promise<string> {
  const partner = actor.partner as GatePartner | PoolsPartner;
  const channel = channelOf(service, partner);
  const key = `webhook:${channel}`;
  let ready = env.run.cache.get(key) as Promise<string> | undefined;
  if (!ready) {
    const tpl = service === 'gate' ? env.profile.gate.triggers.configureWebhook : env.profile.pools?.triggers.configureWebhook;
    if (!tpl) throw new CheckSkipped(webhookMissing(env, service)!);
    const url = env.run.webhookUrlFor ? env.run.webhookUrlFor(channel) : Promise.resolve(env.run.receiver.urlFor(channel));
    ready = url.then(async (webhookUrl) => {
      const { exchange } = await sendTemplate(env, service, actor, tpl, { webhookUrl, partner: partner.name });
      const ok = tpl.expectStatus ? tpl.expectStatus.includes(exchange.status) : exchange.status >= 200 && exchange.status < 300;
      if (!ok) throw new Error(`configureWebhook for ${partner.name} answered ${exchange.status}`);
      return webhookUrl;
    });
    env.run.cache.set(key, ready);
    ready.catch(() => env.run.cache.delete(key));
  }
  try {
    return await ready;
  } catch (e) {
    // No answer, or a key paused by the target: the run's outage and rate-limit handling judge those, not this check.
    if (e instanceof TransportError) throw e;
    throw new CheckUnverified(
      `could not point ${service} webhooks of ${partner.name} at the receiver: ${(e as Error).message} — check ${service}.triggers.configureWebhook (rampart doctor)`,
    );
  }
}

export function hooksFor(env: NeedEnv, channel: string, url: string): PartnerHooks {
  const receiver = env.run.receiver;
  return {
    channel,
    url,
    async waitFor(match, timeoutMs, what, requirement) {
      const done = env.run.progress.wait(`webhook ${what}`, timeoutMs);
      try {
        return await env.documentedWait(`a ${what} webhook`, receiver.waitFor(channel, match, timeoutMs));
      } catch {
        throw new CheckFailed(`no ${what} webhook reached the receiver for ${channel} within ${Math.round(timeoutMs / 1000)} s`, {
          requirement,
          expected: what,
          actual: `${receiver.attempts(channel).length} attempt(s) received on this channel`,
        });
      } finally {
        done();
      }
    },
    attempts: () => receiver.attempts(channel),
    events: () => receiver.events(channel),
    program: (answers, match) => receiver.program(channel, answers, match),
    setDefault: (b) => receiver.setDefault(channel, b),
  };
}
