// "HTTPS required in live mode" (Events) says what is required, not where it is enforced: a target may refuse an
// http webhook URL at the settings call, or accept it there and never send to it. For a target that accepted one,
// this sends one test event with the live webhook URL pointed at rampart's receiver over http, puts the URL back at
// once, and judges what happened to that event: refused, never attempted, or sent over plain http.
import type { ApiClient, ApiRequest, Exchange } from '../../src/client/types.js';
import type { LiveHttpReceiver } from '../../src/needs/gate/liveHttpReceiver.js';
import type { WebhookSettings } from '../../src/needs/gate/webhookSettings.js';
import type { CheckTools, RequirementId } from '../../src/runner/check.js';
import { WebhookDelivery, WebhookDeliveryList } from '../../src/model/schemas/gate/webhooks.js';

/** How long an attempt to the http URL is watched for: a delivery is attempted at once (retries come minutes later). */
const WATCH_MS = 15_000;
const POLL_MS = 1_000;

type Delivery = ReturnType<typeof WebhookDelivery.parse>;

export interface LiveHttpProbe {
  production: ApiClient;
  auth: ApiRequest['auth'];
  partner: string;
  settings: WebhookSettings;
  receiver: LiveHttpReceiver;
  /** The live mode's own https webhook URL, put back right after the test event is sent. */
  https: string;
}

/** POST /webhooks/test with the live webhook URL pointed at the receiver over http; the URL is put back whatever happens. */
async function testEventToHttp(t: CheckTools, p: LiveHttpProbe, requirement: RequirementId): Promise<Exchange> {
  try {
    const set = await p.settings.set(p.production, p.receiver.url, p.partner, p.auth);
    t.expect.that(set.status >= 200 && set.status < 300, 'the live settings accept the http URL again (they accepted one a moment ago)', {
      requirement,
      actual: set.status,
      exchange: set,
    });
    return await p.production.request({ method: 'POST', path: '/webhooks/test', auth: p.auth, retry: false });
  } finally {
    await p.settings.set(p.production, p.https, p.partner, p.auth);
  }
}

/** The delivery as the live deliveries list shows it (the first page of 200, most recent first). */
async function liveDelivery(p: LiveHttpProbe, id: string): Promise<Delivery | undefined> {
  const ex = await p.production.request({ method: 'GET', path: '/webhooks/deliveries', query: { limit: 200 }, auth: p.auth });
  const page = WebhookDeliveryList.safeParse(ex.json);
  return page.success ? page.data.data.find((d) => d.id === id) : undefined;
}

/**
 * The HTTPS rule, enforced at delivery: the test event sent while the live webhook URL was http is refused (a 4xx,
 * nothing to send to) or never attempted. An attempt that reached the receiver, or got any HTTP answer, was sent over
 * plain http in live mode: a failure. An attempt without an answer cannot be told from an unreachable receiver:
 * unverified.
 */
export async function expectNeverSentOverHttp(t: CheckTools, p: LiveHttpProbe, requirement: RequirementId): Promise<void> {
  const ex = await testEventToHttp(t, p, requirement);
  if (ex.status >= 400 && ex.status < 500) {
    t.observe(
      'gate-live-http-webhook-test',
      { status: ex.status, code: (ex.json as { code?: unknown } | undefined)?.code },
      'POST /webhooks/test refused the http URL',
    );
    return;
  }
  const delivery = t.expect.schema(ex, WebhookDelivery, requirement);
  let listed: Delivery | undefined;
  for (const deadline = Date.now() + WATCH_MS; Date.now() < deadline; await t.sleep(POLL_MS, 'an attempt to the http URL', 'target')) {
    const arrived = p.receiver.hooks.attempts().find((e) => e.eventId === delivery.event_id);
    t.expect.that(arrived === undefined, 'nothing is sent to an http webhook URL in live mode (HTTPS required)', {
      requirement,
      expected: 'no attempt over http',
      actual: arrived ? `the test event ${delivery.event_id} arrived at ${p.receiver.url} over http` : undefined,
      exchange: ex,
    });
    listed = await liveDelivery(p, delivery.id);
    // An attempt counts once it has ended (an answer or an error recorded): one still on its way may yet reach the receiver.
    const ended = !!listed && listed.attempts > 0 && (listed.last_response_status !== null || listed.last_error !== null);
    if (listed && (ended || listed.status === 'succeeded' || listed.status === 'dead_lettered')) break;
  }
  t.expect.that(
    !listed || (listed.status !== 'succeeded' && listed.last_response_status === null),
    'no attempt to an http webhook URL got an answer in live mode',
    {
      requirement,
      actual: listed && { status: listed.status, attempts: listed.attempts, last_response_status: listed.last_response_status },
    },
  );
  if (!listed)
    t.unverified(`the test delivery ${delivery.id} to the http URL is not on the live deliveries list's first page: whether it was attempted cannot be read`);
  if (listed.attempts > 0)
    t.unverified(
      `the test event to the http URL was attempted (${listed.attempts} attempt(s), no answer, last_error ${JSON.stringify(listed.last_error)}) but never reached rampart's receiver at ${p.receiver.url}: whether the target refused http itself or could not reach the receiver over http is unknown`,
    );
  if (listed.status !== 'dead_lettered' && listed.next_attempt_at !== null)
    t.unverified(
      `the test delivery to the http URL is ${listed.status} with an attempt scheduled at ${listed.next_attempt_at}: whether it will be sent over http is not known yet`,
    );
  t.observe(
    'gate-live-http-webhook-test',
    { status: ex.status, delivery: { status: listed.status, attempts: listed.attempts } },
    'created, never attempted nor scheduled',
  );
}
