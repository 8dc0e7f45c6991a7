// Gate "Endpoints > Dashboard": the paths are named, their shapes are not
// shown. Secret keys may call them (Authentication rule 5); the webhook
// settings set where events go (judged through GET and the next delivery); a
// live webhook URL must be https (Events): an http one is refused at the
// settings call or never sent to (when it is enforced is not shown); a rotated
// signing secret signs what follows (Authentication rule 8). Settings bodies are
// the profile's configureWebhook template; success statuses are any 2xx;
// settings are read by the URLs they carry, whatever the field names.
import { randomUUID } from 'node:crypto';
import type { Exchange } from '../../src/client/types.js';
import type { GateWebhookActor } from '../../src/needs/define.js';
import { check, defineSuite, type CheckTools, type RequirementId } from '../../src/runner/check.js';
import { WebhookDelivery } from '../../src/model/schemas/gate/webhooks.js';
import { parseSignatureHeader, verifyGateSignature } from '../../src/webhooks/verify.js';
import type { ReceivedEvent } from '../../src/webhooks/types.js';
import { expect2xx } from '../../support/expect.js';
import { expectNeverSentOverHttp } from '../../support/gate/liveHttp.js';
import { expectObjectDiscriminator } from '../../support/gate/objects.js';
import { stringsIn } from '../../support/gate/sessions.js';

const SETTINGS = '/dashboard/webhook-settings';
const EVENT_WAIT_MS = 30_000;
const isUrl = (s: string) => /^https?:\/\//i.test(s);

/** GET /dashboard/webhook-settings through `send`: the URLs the settings carry. */
async function settingsUrls(t: CheckTools, send: () => Promise<Exchange>, requirement: RequirementId): Promise<{ ex: Exchange; urls: string[] }> {
  const ex = expect2xx(t, await send(), requirement, `GET ${SETTINGS}`);
  return { ex, urls: stringsIn(ex.json).filter(isUrl) };
}

/** POST /webhooks/test, then the attempt that reached the receiver for it. */
async function testEvent(
  t: CheckTools,
  actor: GateWebhookActor,
  requirement: RequirementId,
): Promise<{ delivery: ReturnType<typeof WebhookDelivery.parse>; event: ReceivedEvent; ex: Exchange }> {
  const ex = expect2xx(t, await actor.client.post('/webhooks/test', undefined, { retry: false }), requirement, 'POST /webhooks/test');
  const delivery = t.expect.schema(ex, WebhookDelivery, requirement);
  const event = await actor.hooks.waitFor((e) => e.eventId === delivery.event_id, EVENT_WAIT_MS, `webhook.test ${delivery.event_id}`, requirement);
  return { delivery, event, ex };
}

/** Does the attempt's Gate-Signature verify with exactly these secrets (freshness aside: judged by the Events checks)? */
function signedWith(e: ReceivedEvent, secrets: string[]): boolean {
  const header = e.headers['gate-signature'];
  if (!header) return false;
  const { t: ts } = parseSignatureHeader(header);
  return verifyGateSignature({ rawBody: e.rawBody, header, secrets, nowSeconds: Number(ts), toleranceSeconds: 0 }).ok;
}

export default defineSuite({
  service: 'gate',
  section: 'Endpoints > Dashboard',
  checks: [
    check({
      name: 'a secret key may call the dashboard: usage, volume, webhook settings and webhook deliveries answer 2xx, each object with its discriminator',
      requirements: ['GATE-DASH-SK-ACCESS', 'GATE-CONV-OBJECT-DISCRIMINATOR'],
      needs: ['gatePartner'],
      async run({ gatePartner: actor }, t: CheckTools) {
        const R = 'GATE-DASH-SK-ACCESS';
        for (const path of ['/dashboard/usage', '/dashboard/volume', SETTINGS, '/dashboard/webhook-deliveries']) {
          const ex = expect2xx(t, await actor.client.get(path), R, `GET ${path} with a secret key`);
          expectObjectDiscriminator(t, ex, `GET ${path}`, { shapeNotShown: true });
          t.observe(
            `gate-dashboard-shape ${path}`,
            ex.json && typeof ex.json === 'object' ? Object.keys(ex.json).sort() : typeof ex.json,
            'request and response shapes are not shown',
          );
        }
      },
    }),
    check({
      name: 'PATCH /dashboard/webhook-settings sets the webhook URL: GET shows it and the next delivery goes to it',
      requirements: ['GATE-DASH-WEBHOOK-SETTINGS'],
      // Held alone: its webhook URL changes under this check only. The second URL is the same receiver path with a
      // query, so an event sent meanwhile still reaches the partner's channel.
      needs: ['gateWebhooksExclusive'],
      async run({ gateWebhooksExclusive: actor, gateWebhookSettings: settings }, t: CheckTools) {
        const R = 'GATE-DASH-WEBHOOK-SETTINGS';
        const read = () => settingsUrls(t, () => actor.client.get(SETTINGS), R);
        const before = await read();
        t.expect.that(before.urls.includes(actor.hooks.url), 'GET shows the webhook URL the partner set (the receiver)', {
          requirement: R,
          actual: before.urls,
          exchange: before.ex,
        });

        const moved = `${actor.hooks.url}${actor.hooks.url.includes('?') ? '&' : '?'}rampart=${randomUUID().slice(0, 8)}`;
        let restored = false;
        try {
          const patched = await settings.set(actor.client, moved, actor.partner.name);
          if (patched.status >= 400 && patched.status < 500)
            t.unverified(
              `PATCH ${SETTINGS} refused a webhook URL with a query string (${patched.status}): no second URL to move the partner's webhooks to without losing its events`,
            );
          expect2xx(t, patched, R, `PATCH ${SETTINGS}`);
          const after = await read();
          t.expect.that(after.urls.includes(moved), 'GET shows the webhook URL the PATCH set', { requirement: R, actual: after.urls, exchange: after.ex });
          const { delivery, ex } = await testEvent(t, actor, R);
          t.expect.equal(delivery.target_url, moved, 'the next delivery goes to the webhook URL the PATCH set', { requirement: R, exchange: ex });

          expect2xx(t, await settings.set(actor.client, actor.hooks.url, actor.partner.name), R, `PATCH ${SETTINGS} (back)`);
          restored = true;
          const back = await read();
          t.expect.that(back.urls.includes(actor.hooks.url) && !back.urls.includes(moved), 'GET shows the webhook URL set back', {
            requirement: R,
            actual: back.urls,
            exchange: back.ex,
          });
        } finally {
          if (!restored) await settings.set(actor.client, actor.hooks.url, actor.partner.name).catch(() => undefined);
        }
      },
    }),
    check({
      name: 'live mode: an http:// webhook URL is refused at the settings call (400, nothing changed) or, accepted there, never sent to; the https one is accepted',
      requirements: ['GATE-DASH-LIVE-HTTPS'],
      needs: ['gateLiveHttpReceiver'],
      async run({ gateWebhookSettings: settings, gateLiveKey: live, gateProduction: production, gateLiveHttpReceiver: receiver }, t: CheckTools) {
        const R = 'GATE-DASH-LIVE-HTTPS';
        const auth = { bearer: live.key };
        const read = () => settingsUrls(t, () => production.request({ method: 'GET', path: SETTINGS, auth }), R);
        const before = await read();
        // Nothing live is changed for long: the http twin of the configured https URL is offered, and the https URL
        // itself is set again as it is. Only a settings answer naming exactly one https URL says which it is.
        const httpsUrls = [...new Set(before.urls.filter((u) => /^https:\/\//i.test(u)))];
        const https = httpsUrls.length === 1 ? httpsUrls[0] : undefined;
        const http = https ? `http://${https.slice('https://'.length)}` : `http://hooks.rampart.example.test/${randomUUID().slice(0, 8)}`;
        const offered = await settings.set(production, http, live.partner.name, auth);
        const accepted = offered.status >= 200 && offered.status < 300;
        // Accepted: put the live endpoint back at once, before anything is judged.
        if (accepted && https) await settings.set(production, https, live.partner.name, auth);
        // When "HTTPS required in live mode" is enforced is not shown: at the settings call, or by never sending to it.
        t.observe('gate-live-http-webhook', accepted ? 'accepted at the settings call' : `refused at the settings call (${offered.status})`);
        if (!accepted) {
          t.expect.error(offered, 400, 'invalid_request', { requirement: R });
          const after = await read();
          t.expect.equal(after.urls, before.urls, 'the refused http URL changed nothing', { requirement: R, exchange: after.ex });
        }
        if (!https)
          t.unverified(
            httpsUrls.length === 0
              ? 'the live mode has no https webhook URL configured: accepting an https URL could only be shown by changing a live endpoint, which rampart never does'
              : `the live settings name ${httpsUrls.length} https URLs (field names are not shown): which is the webhook URL is unknown, and rampart never changes a live endpoint on a guess`,
          );
        // Accepted at the settings call: then nothing may be sent to it. One test event shows it (the URL put back at once).
        if (accepted) await expectNeverSentOverHttp(t, { production, auth, partner: live.partner.name, settings, receiver, https }, R);
        expect2xx(t, await settings.set(production, https, live.partner.name, auth), R, `PATCH ${SETTINGS} with the live mode's own https URL`);
        const again = await read();
        t.expect.that(again.urls.includes(https), 'the https URL stays set', { requirement: R, actual: again.urls, exchange: again.ex });
      },
    }),
    check({
      name: 'a rotation issues a new webhook signing secret; deliveries after it verify with the newest secret or the one it replaced (when the sender switches is not shown)',
      requirements: ['GATE-DASH-SECRET-ROTATE', 'GATE-CONV-OBJECT-DISCRIMINATOR'],
      budgetMs: 90_000,
      async run({ gateWebhookSecretRotation: actor }, t: CheckTools) {
        const R = 'GATE-DASH-SECRET-ROTATE';
        const first = await actor.rotate();
        expect2xx(t, first.exchange, R, 'POST /dashboard/webhook-secret/rotate');
        expectObjectDiscriminator(t, first.exchange, 'POST /dashboard/webhook-secret/rotate', { shapeNotShown: true });
        if (!actor.secretPath) {
          t.observe(
            'gate-webhook-secret-rotate-response',
            first.exchange.json && typeof first.exchange.json === 'object' ? Object.keys(first.exchange.json).sort() : typeof first.exchange.json,
            'the response shape is not shown',
          );
          t.unverified(
            'the profile does not say where the rotate response carries the new secret (gate.rotatedSecretPath; its shape is not shown): deliveries after the rotation cannot be verified',
          );
        }
        if (!first.secret) t.unverified(`the rotate response carries no secret at ${actor.secretPath} (gate.rotatedSecretPath): fix the path in the profile`);
        // When the sender switches to a rotated secret is not shown ("a receiver may verify with two secrets during
        // migration"): a delivery signed with the new secret or with the one it replaced passes, and which is observed.
        const one = await testEvent(t, actor, R);
        t.observe(
          'gate-webhook-secret-after-rotation',
          signedWith(one.event, [first.secret]) ? 'the new secret' : 'not the new secret (the replaced one is not in the profile: not verified)',
          'when the sender switches to a rotated secret is not shown',
        );

        const second = await actor.rotate();
        expect2xx(t, second.exchange, R, 'POST /dashboard/webhook-secret/rotate (again)');
        if (!second.secret) t.unverified(`the second rotate response carries no secret at ${actor.secretPath}`);
        t.expect.that(second.secret !== first.secret, 'each rotation issues a new secret', { requirement: R });
        const two = await testEvent(t, actor, R);
        const newest = signedWith(two.event, [second.secret]);
        t.expect.that(
          newest || signedWith(two.event, [first.secret]),
          'a delivery after the second rotation is signed with the newest secret or the one it replaced',
          {
            requirement: R,
            actual: two.event.verification.reason,
          },
        );
        t.expect.that(two.event.verification.ok, 'the receiver, holding both secrets during the migration, accepts it', {
          requirement: R,
          actual: two.event.verification.reason,
        });
        t.observe(
          'gate-webhook-secret-after-second-rotation',
          newest ? 'the newest secret' : 'the secret it replaced (still migrating)',
          'when the sender switches is not shown',
        );
      },
    }),
  ],
});
