// A Gate partner whose webhook_url points at the receiver (shared with other checks).
import { defineNeed, type GateWebhookActor } from '../define.js';
import type { GatePartner } from '../../profile/schema.js';
import { gateWebhooks, gateWebhooksMissing } from '../support/webhookNeeds.js';

declare module '../../model/needs.js' {
  interface NeedRegistry {
    gateWebhooks: GateWebhookActor;
  }
}

const fits = (_p: GatePartner): boolean => true;

export default defineNeed({
  name: 'gateWebhooks',
  description: "a Gate partner whose webhooks reach rampart's receiver",
  missing: (profile) => gateWebhooksMissing(profile, fits, ''),
  setup: (env) => gateWebhooks(env, fits, '', false),
});
