// A funded pools partner whose webhooks reach the receiver, held by this check alone (it programs the receiver or adds toxics).
import { defineNeed, type PoolsWebhookActor } from '../define.js';
import { poolsWebhooks, poolsWebhooksMissing } from '../support/webhookNeeds.js';

declare module '../../model/needs.js' {
  interface NeedRegistry {
    poolsWebhooksExclusive: PoolsWebhookActor;
  }
}

export default defineNeed({
  name: 'poolsWebhooksExclusive',
  exclusive: true,
  description: 'a funded pools partner whose webhooks reach the receiver, held exclusively',
  missing: (profile) => poolsWebhooksMissing(profile),
  setup: (env) => poolsWebhooks(env, true),
});
