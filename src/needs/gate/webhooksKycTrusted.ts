// A KYC-trusted Gate partner whose webhooks reach the receiver (kyc events).
import { defineNeed, type GateWebhookActor } from '../define.js';
import type { GatePartner } from '../../profile/schema.js';
import { gateWebhooks, gateWebhooksMissing } from '../support/webhookNeeds.js';

declare module '../../model/needs.js' {
  interface NeedRegistry {
    gateWebhooksKycTrusted: GateWebhookActor;
  }
}

const fits = (p: GatePartner): boolean => p.kycTrusted === true;

export default defineNeed({
  name: 'gateWebhooksKycTrusted',
  description: 'a KYC-trusted Gate partner whose webhooks reach the receiver',
  missing: (profile) => gateWebhooksMissing(profile, fits, 'KYC-trusted'),
  setup: (env) => gateWebhooks(env, fits, 'KYC-trusted', false),
});
