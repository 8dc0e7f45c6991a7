// The webhook needs of both services share one shape: lease a partner that
// fits and has a signing secret, then wire its webhook_url to the receiver.
import type { GatePartner, PoolsPartner, Profile } from '../../profile/schema.js';
import type { GateWebhookActor, NeedEnv, PoolsWebhookActor } from '../define.js';
import { fundedPools, leaseGate, leasePools } from './lease.js';
import { isWired, webhookMissing, wire } from './webhooks.js';

export function gateWebhooksMissing(profile: Profile, filter: (p: GatePartner) => boolean, what: string): string | null {
  if (!profile.gate.partners.some((p) => !!p.webhookSecret && !p.noWebhookUrl && filter(p)))
    return `no ${what} gate partner has webhookSecret (the whsec_ secret its events are signed with)`;
  return webhookMissing({ profile }, 'gate');
}

export async function gateWebhooks(env: NeedEnv, filter: (p: GatePartner) => boolean, what: string, exclusive: boolean): Promise<GateWebhookActor> {
  // A partner declared without a webhook URL cannot be wired (the target refuses one): never lease it here.
  const fits = (p: GatePartner) => !!p.webhookSecret && !p.noWebhookUrl && filter(p);
  const actor = await leaseGate(env, `webhook-capable ${what}`.trim(), fits, {
    exclusive,
    // Reuse partners already wired (one configureWebhook per partner and run) or idle ones.
    prefer: (p) => isWired(env, 'gate', p) || env.run.gatePartners.leased(p.name) === 0,
  });
  return { ...actor, hooks: await wire(env, 'gate', actor) };
}

export function poolsWebhooksMissing(profile: Profile): string | null {
  if (!profile.pools) return 'the profile has no pools section';
  if (!profile.pools.partners.some((p) => fundedPools(p) && !!p.webhookSecret)) return 'no funded pools partner has webhookSecret';
  return webhookMissing({ profile }, 'pools');
}

export async function poolsWebhooks(env: NeedEnv, exclusive: boolean): Promise<PoolsWebhookActor> {
  const actor = await leasePools(env, 'funded webhook-capable', (p: PoolsPartner) => fundedPools(p) && !!p.webhookSecret, { exclusive });
  return { ...actor, hooks: await wire(env, 'pools', actor) };
}
