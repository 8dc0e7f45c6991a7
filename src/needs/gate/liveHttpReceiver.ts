// A channel of rampart's webhook receiver reached over plain http: where a live-mode webhook URL that a target
// accepted over http is pointed for one test event, to see whether the target sends over http ("HTTPS required in
// live mode" may be enforced at the settings call or by never delivering). No partner is wired to it, and no
// secret is registered: an attempt that arrives is recorded, whatever its signature.
import { randomUUID } from 'node:crypto';
import type { PartnerHooks } from '../define.js';
import { defineNeed } from '../define.js';
import { hooksFor } from '../support/webhooks.js';

export interface LiveHttpReceiver {
  /** http:// URL of the channel (the receiver's public URL with its scheme made http). */
  url: string;
  hooks: PartnerHooks;
}

declare module '../../model/needs.js' {
  interface NeedRegistry {
    gateLiveHttpReceiver: LiveHttpReceiver;
  }
}

export default defineNeed({
  name: 'gateLiveHttpReceiver',
  description: "a channel of rampart's webhook receiver reached over plain http (no partner wired to it)",
  // Always there: the receiver runs in every run. Whether the target can reach it over http shows in the answers.
  missing: () => null,
  setup: async (env) => {
    const channel = `gate:live-http-${randomUUID().slice(0, 8)}`;
    const base = env.run.webhookUrlFor ? await env.run.webhookUrlFor(channel) : env.run.receiver.urlFor(channel);
    const url = base.replace(/^https:/i, 'http:');
    return { url, hooks: hooksFor(env, channel, url) };
  },
});
