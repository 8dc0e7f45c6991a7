// Setting a partner's webhook URL through the documented path: the Dashboard
// names GET and PATCH /dashboard/webhook-settings but not their bodies, so the
// profile's configureWebhook template gives the body — usable here only when
// that template is a PATCH of /dashboard/webhook-settings (not a sandbox control).
import type { ApiClient, ApiRequest, Exchange } from '../../client/types.js';
import type { Profile, RequestTemplate } from '../../profile/schema.js';
import { defineNeed } from '../define.js';
import { fillDeep } from '../support/triggers.js';

export const WEBHOOK_SETTINGS_PATH = '/dashboard/webhook-settings';

export interface WebhookSettings {
  /** PATCH /dashboard/webhook-settings with the template's body for `webhookUrl`, by `client` with `auth` (default: its secret key). Never retried. */
  set(client: ApiClient, webhookUrl: string, partner: string, auth?: ApiRequest['auth']): Promise<Exchange>;
}

declare module '../../model/needs.js' {
  interface NeedRegistry {
    gateWebhookSettings: WebhookSettings;
  }
}

function usable(tpl: RequestTemplate | undefined): string | null {
  if (!tpl) return 'gate.triggers.configureWebhook is missing (its body is how rampart sets a webhook URL: the Dashboard shapes are not shown)';
  if (tpl.method !== 'PATCH' || tpl.path.replace(/\/+$/, '') !== WEBHOOK_SETTINGS_PATH || tpl.base === 'pools' || tpl.auth === 'none')
    return `gate.triggers.configureWebhook is ${tpl.method} ${tpl.path}, not a PATCH of ${WEBHOOK_SETTINGS_PATH} with the partner's key: the documented settings operation has no known body on this target`;
  return null;
}

export default defineNeed({
  name: 'gateWebhookSettings',
  description: `PATCH ${WEBHOOK_SETTINGS_PATH} with the body of the profile's configureWebhook template`,
  missing: (profile: Profile) => usable(profile.gate.triggers.configureWebhook),
  setup: (env) => {
    const tpl = env.profile.gate.triggers.configureWebhook!;
    return {
      set: (client, webhookUrl, partner, auth = 'secret') => {
        const vars = { webhookUrl, partner };
        return client.request({
          method: 'PATCH',
          path: WEBHOOK_SETTINGS_PATH,
          body: tpl.body === undefined ? undefined : fillDeep(tpl.body, vars),
          headers: tpl.headers ? (fillDeep(tpl.headers, vars) as Record<string, string>) : undefined,
          auth,
          retry: false,
        });
      },
    };
  },
});
