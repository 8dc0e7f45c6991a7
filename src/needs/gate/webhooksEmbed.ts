// An embed-capable Gate partner whose webhooks reach the receiver (expiry events on bootstrap).
import { defineNeed, type GateWebhookActor } from '../define.js';
import type { GatePartner } from '../../profile/schema.js';
import { gateWebhooks, gateWebhooksMissing } from '../support/webhookNeeds.js';

declare module '../../model/needs.js' {
  interface NeedRegistry {
    gateWebhooksEmbed: GateWebhookActor;
  }
}

const fits = (p: GatePartner): boolean => !!p.publishableKey && !!p.allowedOrigins?.length;

export default defineNeed({
  name: 'gateWebhooksEmbed',
  description: 'an embed-capable Gate partner whose webhooks reach the receiver',
  missing: (profile) => gateWebhooksMissing(profile, fits, 'embed-capable'),
  setup: (env) => gateWebhooks(env, fits, 'embed-capable', false),
});
