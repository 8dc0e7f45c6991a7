// A Gate partner whose webhooks reach the receiver, held by this check alone (it programs the receiver's answers or adds toxics).
import { defineNeed, type GateWebhookActor } from '../define.js';
import type { GatePartner } from '../../profile/schema.js';
import { gateWebhooks, gateWebhooksMissing } from '../support/webhookNeeds.js';

declare module '../../model/needs.js' {
  interface NeedRegistry {
    gateWebhooksExclusive: GateWebhookActor;
  }
}

const fits = (_p: GatePartner): boolean => true;

export default defineNeed({
  name: 'gateWebhooksExclusive',
  exclusive: true,
  description: 'a Gate partner whose webhooks reach the receiver, held exclusively',
  missing: (profile) => gateWebhooksMissing(profile, fits, ''),
  setup: (env) => gateWebhooks(env, fits, '', true),
});
