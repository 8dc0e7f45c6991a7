// A Gate partner the profile declares has no webhook_url configured
// (noWebhookUrl: true): POST /webhooks/test must then give 400. Rampart never
// wires such a partner (give it no webhookSecret); one wired in this run
// anyway cannot show the rule.
import { defineNeed, type GateActor } from '../define.js';
import { CheckUnverified } from '../../runner/expect.js';
import { leaseGate } from '../support/lease.js';
import { isWired } from '../support/webhooks.js';

declare module '../../model/needs.js' {
  interface NeedRegistry {
    gateNoWebhookUrl: GateActor;
  }
}

export default defineNeed({
  name: 'gateNoWebhookUrl',
  description: 'a Gate partner with no webhook_url configured',
  missing: (profile) =>
    profile.gate.partners.some((p) => p.noWebhookUrl === true)
      ? null
      : 'no gate partner has noWebhookUrl: true (a partner with no webhook_url configured, and no webhookSecret so rampart never wires it)',
  setup: async (env) => {
    const actor = await leaseGate(env, 'no-webhook_url', (p) => p.noWebhookUrl === true, { prefer: (p) => !isWired(env, 'gate', p) });
    if (isWired(env, 'gate', actor.partner))
      throw new CheckUnverified(
        `gate partner ${actor.partner.name} is declared noWebhookUrl but rampart pointed its webhooks at the receiver in this run: remove its webhookSecret`,
      );
    return actor;
  },
});
