// A funded pools partner whose webhooks reach the receiver (terminal trade events).
import { defineNeed, type PoolsWebhookActor } from '../define.js';
import { poolsWebhooks, poolsWebhooksMissing } from '../support/webhookNeeds.js';

declare module '../../model/needs.js' {
  interface NeedRegistry {
    poolsWebhooks: PoolsWebhookActor;
  }
}

export default defineNeed({
  name: 'poolsWebhooks',
  description: 'a funded pools partner whose webhooks reach the receiver',
  missing: (profile) => poolsWebhooksMissing(profile),
  setup: (env) => poolsWebhooks(env, false),
});
