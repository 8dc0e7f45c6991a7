// A Gate partner whose webhook signing secret rampart may rotate (the profile
// marks it webhookSecretRotation and gives it no webhookSecret, so no other
// check depends on a secret a rotation replaces), wired to the receiver and
// held alone. The rotate response's shape is not shown: the profile names where
// it carries the new secret (gate.rotatedSecretPath); each secret learnt is
// registered with the receiver next to the previous one, as a receiver does
// during a migration.
import type { Exchange } from '../../client/types.js';
import type { GatePartner } from '../../profile/schema.js';
import { defineNeed, type GateWebhookActor } from '../define.js';
import { leaseGate } from '../support/lease.js';
import { pick } from '../support/triggers.js';
import { channelOf, hooksFor, pointAtReceiver, webhookMissing } from '../support/webhooks.js';

export const ROTATE_PATH = '/dashboard/webhook-secret/rotate';

export interface SecretRotationActor extends GateWebhookActor {
  /** Where the rotate response carries the new secret (gate.rotatedSecretPath), when declared. */
  secretPath?: string;
  /** POST /dashboard/webhook-secret/rotate (never retried: a retry would rotate twice). */
  rotate(): Promise<{ exchange: Exchange; secret?: string }>;
}

declare module '../../model/needs.js' {
  interface NeedRegistry {
    gateWebhookSecretRotation: SecretRotationActor;
  }
}

const rotatable = (p: GatePartner) => p.webhookSecretRotation === true && p.noWebhookUrl !== true;

export default defineNeed({
  name: 'gateWebhookSecretRotation',
  description: 'a Gate partner whose webhook signing secret rampart may rotate, wired to the receiver',
  exclusive: true,
  missing: (profile) => {
    if (!profile.gate.partners.some(rotatable))
      return 'no gate partner has webhookSecretRotation: true (a partner whose webhook signing secret rampart may rotate; give it no webhookSecret)';
    return webhookMissing({ profile }, 'gate');
  },
  setup: async (env) => {
    const actor = await leaseGate(env, 'webhook-secret-rotatable', rotatable, { exclusive: true });
    const channel = channelOf('gate', actor.partner);
    const url = await pointAtReceiver(env, 'gate', actor);
    const secretPath = env.profile.gate.rotatedSecretPath;
    const learnt: string[] = [];
    return {
      ...actor,
      hooks: hooksFor(env, channel, url),
      ...(secretPath ? { secretPath } : {}),
      rotate: async () => {
        const exchange = await actor.client.post(ROTATE_PATH, undefined, { retry: false });
        const v = secretPath && exchange.status >= 200 && exchange.status < 300 ? pick(exchange.json, secretPath) : undefined;
        const secret = typeof v === 'string' && v.length > 0 ? v : undefined;
        if (secret) {
          learnt.push(secret);
          // Two secrets during a migration: the new one and the one before it.
          env.run.receiver.setSecrets(channel, learnt.slice(-2));
        }
        return { exchange, ...(secret ? { secret } : {}) };
      },
    };
  },
});
