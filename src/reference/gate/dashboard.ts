// Dashboard routes (secret keys may call them, spec Authentication rule 5):
// webhook settings (how a harness points webhooks at its receiver), usage,
// volume, the deliveries list and webhook secret rotation.
//
// Not shown — chosen (also in README.md):
// - webhook-settings: { object: 'webhook_settings', webhook_url, mode, livemode }; PATCH takes
//   { webhook_url: string | null } strictly; live mode needs https (spec: HTTPS required in live mode),
//   test mode also accepts http (local receivers). A partner the profile provisions with
//   noWebhookUrl keeps no webhook_url: setting one answers 409 webhook_url_not_configurable. A partner with
//   a live key starts with an https live-mode webhook_url (https://hooks.<partner>.example.test/gate/live),
//   as a live account in service has one.
// - usage: { object: 'usage', mode, sessions_created, webhook_deliveries, webhook_deliveries_dead_lettered }.
// - volume: { object: 'volume', mode, data: [{ currency, amount, count }] } over completed transactions.
// - rotate: answers 200 { object: 'webhook_secret', secret } once; later events are signed with it.
//   The account-assertion token of the spec is not implemented (its transport is not shown).
import { randomBytes } from 'node:crypto';
import { choiceOf } from '../kit/dialect.js';
import { HttpError, jsonObject } from '../kit/http.js';
import { refuseAccountAssertion } from './accountAssertion.js';
import type { GateArea, GateCaller, GateWorld } from './world.js';
import { listDeliveries } from './webhookOperations.js';

/** The first webhook_url each partner and mode was given (fault dash-settings-get-stale answers it forever). */
const firstUrls = new WeakMap<GateWorld, Map<string, string | null>>();

/** Reading (gate.dashboard.shapes 'nested'): the dashboard's own words — url, signing_secret.value, counters nested. */
const nested = (world: GateWorld) => choiceOf(world.profile, 'gate.dashboard.shapes') === 'nested';

function settingsView(world: GateWorld, caller: GateCaller): Record<string, unknown> {
  const first = firstUrls.get(world)?.get(`${caller.mode}\u0000${caller.partner.name}`);
  const url = world.faults.has('dash-settings-get-stale') && first !== undefined ? first : world.settings(caller).webhookUrl;
  if (nested(world)) return { object: 'webhook_settings', endpoint: { url, enabled: url !== null }, mode: caller.mode };
  return { object: 'webhook_settings', webhook_url: url, mode: caller.mode, livemode: caller.mode === 'live' };
}

/** Sum decimal strings exactly (BigInt on a common scale). */
function addDecimal(a: string, b: string): string {
  const scale = Math.max(a.split('.')[1]?.length ?? 0, b.split('.')[1]?.length ?? 0);
  const toInt = (s: string) => BigInt(s.replace('.', '') + '0'.repeat(scale - (s.split('.')[1]?.length ?? 0)));
  const sum = (toInt(a) + toInt(b)).toString().padStart(scale + 1, '0');
  return scale === 0 ? sum : `${sum.slice(0, -scale)}.${sum.slice(-scale)}`;
}

export const area: GateArea = {
  name: 'dashboard',
  faults: [
    {
      name: 'dash-usage-secret-key-refused',
      service: 'gate',
      requirements: ['GATE-DASH-SK-ACCESS'],
      description: 'GET /dashboard/usage refuses secret keys (403), as if only an account assertion could call it.',
      suite: 'conformance',
    },
    {
      name: 'dash-settings-get-stale',
      service: 'gate',
      requirements: ['GATE-DASH-WEBHOOK-SETTINGS'],
      description: 'GET /dashboard/webhook-settings keeps answering the first webhook_url ever set, not the current one.',
      suite: 'conformance',
    },
    {
      name: 'dash-rotate-keeps-old-secret',
      service: 'gate',
      requirements: ['GATE-DASH-SECRET-ROTATE'],
      description: 'POST /dashboard/webhook-secret/rotate answers a new secret but keeps signing deliveries with the old one.',
      suite: 'conformance',
    },
    {
      name: 'dash-live-http-accepted',
      service: 'gate',
      requirements: ['GATE-DASH-LIVE-HTTPS'],
      description: 'An http:// webhook_url is accepted in live mode and events are sent to it over plain http.',
      suite: 'conformance',
    },
    {
      name: 'dash-usage-no-object',
      service: 'gate',
      requirements: ['GATE-CONV-OBJECT-DISCRIMINATOR'],
      description: 'GET /dashboard/usage answers without an object discriminator.',
      suite: 'conformance',
    },
    {
      name: 'dash-volume-no-object',
      service: 'gate',
      requirements: ['GATE-CONV-OBJECT-DISCRIMINATOR'],
      description: 'GET /dashboard/volume answers without an object discriminator.',
      suite: 'conformance',
    },
    {
      name: 'dash-settings-no-object',
      service: 'gate',
      requirements: ['GATE-CONV-OBJECT-DISCRIMINATOR'],
      description: 'GET /dashboard/webhook-settings answers without an object discriminator.',
      suite: 'conformance',
    },
    {
      name: 'dash-deliveries-no-object',
      service: 'gate',
      requirements: ['GATE-CONV-OBJECT-DISCRIMINATOR'],
      description: 'GET /dashboard/webhook-deliveries answers its list without the object discriminator.',
      suite: 'conformance',
    },
    {
      name: 'dash-rotate-no-object',
      service: 'gate',
      requirements: ['GATE-CONV-OBJECT-DISCRIMINATOR'],
      description: 'POST /dashboard/webhook-secret/rotate answers without an object discriminator.',
      suite: 'conformance',
    },
  ],
  register(router, world) {
    const first = new Map<string, string | null>();
    firstUrls.set(world, first);
    for (const p of world.profile.gate.partners) {
      if (!p.liveSecretKey || p.noWebhookUrl) continue;
      const url = `https://hooks.${p.name}.example.test/gate/live`;
      world.settings({ partner: p, mode: 'live' }).webhookUrl = url;
      first.set(`live\u0000${p.name}`, url);
    }
    router.on('GET', '/dashboard/webhook-settings', (req) => {
      refuseAccountAssertion(world, req);
      const caller = world.authSecret(req);
      const view = settingsView(world, caller);
      if (world.faults.has('dash-settings-no-object')) delete view.object;
      return { status: 200, body: view };
    });

    router.on('PATCH', '/dashboard/webhook-settings', (req) => {
      refuseAccountAssertion(world, req);
      const caller = world.authSecret(req);
      const body = jsonObject(req);
      const errs: string[] = [];
      const field = nested(world) ? 'url' : 'webhook_url';
      for (const k of Object.keys(body)) if (k !== field) errs.push(`unknown property: ${k}`);
      const url = body[field];
      if (url === undefined) errs.push(`${field} is required`);
      else if (url !== null) {
        let ok = false;
        if (typeof url === 'string' && url.length <= 2048) {
          try {
            const u = new URL(url);
            // Reading (reference.liveHttpWebhooks 'undelivered', which the open point gate.events.liveHttp sets): a live http URL is
            // accepted here and never sent to (deliverableUrl).
            const liveHttpTaken = world.profile.reference?.liveHttpWebhooks === 'undelivered' || world.faults.has('dash-live-http-accepted');
            ok = u.protocol === 'https:' || (u.protocol === 'http:' && (caller.mode === 'test' || liveHttpTaken));
          } catch {
            ok = false;
          }
        }
        if (!ok) errs.push(caller.mode === 'live' ? `${field} must be an absolute https URL in live mode` : `${field} must be an absolute http(s) URL`);
      }
      if (errs.length) throw new HttpError(400, errs.join('; '), 'parameter_invalid');
      if (url !== null && caller.partner.noWebhookUrl)
        throw new HttpError(409, 'This account has no webhook endpoint configurable.', 'webhook_url_not_configurable');
      world.settings(caller).webhookUrl = (url as string | null) ?? null;
      const k = `${caller.mode}\u0000${caller.partner.name}`;
      if (!first.has(k)) first.set(k, (url as string | null) ?? null);
      return { status: 200, body: settingsView(world, caller) };
    });

    router.on('GET', '/dashboard/webhook-deliveries', (req) => {
      refuseAccountAssertion(world, req);
      const caller = world.authSecret(req);
      const body = listDeliveries(world, caller, req, '/v1/dashboard/webhook-deliveries') as Record<string, unknown>;
      if (world.faults.has('dash-deliveries-no-object')) delete body.object;
      return { status: 200, body };
    });

    router.on('POST', '/dashboard/webhook-secret/rotate', (req) => {
      refuseAccountAssertion(world, req);
      const caller = world.authSecret(req);
      const secret = `whsec_${randomBytes(24).toString('base64url').replace(/[-_]/g, 'x').slice(0, 32)}`;
      if (!world.faults.has('dash-rotate-keeps-old-secret')) world.settings(caller).webhookSecret = secret;
      const object = world.faults.has('dash-rotate-no-object') ? {} : { object: 'webhook_secret' };
      if (nested(world)) return { status: 200, body: { ...object, signing_secret: { value: secret, created_at: world.iso() }, mode: caller.mode } };
      return { status: 200, body: { ...object, secret, mode: caller.mode } };
    });

    router.on('GET', '/dashboard/usage', (req) => {
      refuseAccountAssertion(world, req);
      const caller = world.authSecret(req);
      if (world.faults.has('dash-usage-secret-key-refused'))
        throw new HttpError(403, 'This endpoint needs an account assertion.', 'account_assertion_required');
      const deliveries = world.outbox.list(caller.partner.name, 'gate', caller.mode);
      const object = world.faults.has('dash-usage-no-object') ? {} : { object: 'usage' };
      const sessionsCreated = world.settings(caller).sessionsCreated;
      const deadLettered = deliveries.filter((d) => d.status === 'dead_lettered').length;
      if (nested(world))
        return {
          status: 200,
          body: {
            ...object,
            mode: caller.mode,
            counters: { sessions: { created: sessionsCreated }, webhooks: { deliveries: deliveries.length, dead_lettered: deadLettered } },
          },
        };
      return {
        status: 200,
        body: {
          ...object,
          mode: caller.mode,
          sessions_created: sessionsCreated,
          webhook_deliveries: deliveries.length,
          webhook_deliveries_dead_lettered: deadLettered,
        },
      };
    });

    router.on('GET', '/dashboard/volume', (req) => {
      refuseAccountAssertion(world, req);
      const caller = world.authSecret(req);
      const byCurrency = new Map<string, { amount: string; count: number }>();
      for (const t of world.transactions.values()) {
        if (t.partner !== caller.partner.name || t.mode !== caller.mode) continue;
        const cur = byCurrency.get(t.currency) ?? { amount: '0', count: 0 };
        byCurrency.set(t.currency, { amount: addDecimal(cur.amount, t.amount), count: cur.count + 1 });
      }
      return {
        status: 200,
        body: {
          ...(world.faults.has('dash-volume-no-object') ? {} : { object: 'volume' }),
          mode: caller.mode,
          data: [...byCurrency].map(([currency, v]) => ({ currency, amount: world.money(v.amount), count: v.count })),
        },
      };
    });
  },
};
