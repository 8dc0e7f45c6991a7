// Where the specs allow two readings, a check accepts both and observes which one the target took. The second
// world (embedded-alt.json) takes the other reading for most of them, and its conformance run proves they pass; the
// readings that world cannot take at a given moment are shown here, each on a target (or answers) that takes it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient } from '../src/client/http.js';
import type { Exchange } from '../src/client/types.js';
import type { GateActor, GateWebhookActor } from '../src/needs/define.js';
import { loadProfile } from '../src/profile/load.js';
import { startReference, type RunningReference } from '../src/reference/server.js';
import type { CheckTools } from '../src/runner/check.js';
import { expectations } from '../src/runner/expect.js';
import customers from '../conformance/gate/customers.js';
import { sharedCustomer } from '../support/gate/customers.js';
import { listedDelivery, settledDeliveries } from '../support/gate/deliveries.js';
import { recencyReadings } from '../support/gate/deliveryOrder.js';
import { firstAnswered } from '../support/gate/unshownInput.js';

/** The tools a check's body uses here: assertions, observations, the run's shared fixtures. */
function tools(profile: CheckTools['profile']) {
  const observed: { topic: string; value: unknown }[] = [];
  const shared = new Map<string, Promise<unknown>>();
  const t = {
    profile,
    depth: 'quick',
    expect: expectations,
    observe: (topic: string, value: unknown) => observed.push({ topic, value }),
    shared: <T>(key: string, make: () => Promise<T>) => (shared.get(key) ?? shared.set(key, make()).get(key)) as Promise<T>,
    sleep: (ms: number) => new Promise((r) => setTimeout(r, ms)),
  } as unknown as CheckTools;
  return { t, observed };
}

function checkNamed(suite: { checks: readonly { name: string; run: (needs: never, t: CheckTools) => Promise<void> }[] }, prefix: string) {
  const c = suite.checks.find((x) => x.name.startsWith(prefix));
  if (!c) throw new Error(`no check named ${prefix}…`);
  return c;
}

describe('kyc_status is informational: a change between distant reads is observed, never failed', () => {
  let ref: RunningReference;
  // The target's clock, moved forward by the test: minutes pass between the customer's creation and the check.
  let ahead = 0;
  beforeAll(async () => {
    const profile = loadProfile('fixtures/profiles/embedded-alt.json');
    ref = await startReference({ profile, clock: { now: () => Date.now() + ahead }, ephemeralPorts: true });
  });
  afterAll(() => ref.close());

  it('the refused PATCH check passes on a customer whose kyc_status moved on its own since the shared snapshot', async () => {
    const partner = ref.profile.gate.partners[0]!;
    const actor: GateActor = {
      partner,
      client: createApiClient({ service: 'gate', baseUrl: ref.urls.gateSandbox, label: partner.name, secretKey: partner.secretKey }),
    } as GateActor;
    const { t, observed } = tools(ref.profile);
    const { customer } = await sharedCustomer(t, actor);
    expect(customer.kyc_status).toBe('not_started');
    // Past the world's customerKycPendingAfterSeconds: the server moves kyc_status to pending on its own.
    ahead = 5 * 60_000;
    await checkNamed(customers, 'PATCH of email, phone, external_id, kyc_status or mode').run({ gatePartner: actor } as never, t);
    expect(observed.find((o) => o.topic === 'gate-customer-kyc-status-between-reads')?.value).toBe('changed on its own: not_started → pending');
  });
});

describe('"most recent first" is read on creation or on the last change', () => {
  const at = (s: number) => new Date(Date.UTC(2026, 4, 25, 10, 0, s)).toISOString();
  const d = (id: string, created: number, updated: number | null) => ({ id, created_at: at(created), updated_at: updated === null ? null : at(updated) });

  it('newest creation first: the created_at reading', () => {
    const page = [d('b', 20, 21), d('a', 10, 30), d('old', 1, 2)];
    expect(recencyReadings(page, 'b', 'a')).toEqual({ held: ['created_at'], broken: { updated_at: expect.stringContaining('updated_at') } });
  });

  it('the latest change first, though an older delivery was attempted again: the updated_at reading passes', () => {
    // a was created first but retried last: listed first by its last change.
    const page = [d('a', 10, 30), d('b', 20, 21), d('old', 1, 2)];
    expect(recencyReadings(page, 'b', 'a')).toEqual({ held: ['updated_at'], broken: { created_at: expect.stringContaining('listed after') } });
  });

  it('both hold when they agree; neither when the list is oldest first', () => {
    expect(recencyReadings([d('b', 20, 21), d('a', 10, 11)], 'b', 'a').held).toEqual(['created_at', 'updated_at']);
    const oldestFirst = recencyReadings([d('a', 10, 11), d('b', 20, 21)], 'b', 'a');
    expect(oldestFirst.held).toEqual([]);
    expect(Object.keys(oldestFirst.broken)).toEqual(['created_at', 'updated_at']);
  });

  it('without updated_at only the creation reading can hold', () => {
    expect(recencyReadings([d('a', 10, null), d('b', 20, null)], 'b', 'a').held).toEqual([]);
  });
});

describe('a body or query the spec does not show: a 4xx about the guess is an answer, never a failure', () => {
  const answer = (status: number, json: Record<string, unknown>): Exchange =>
    ({
      status,
      json,
      bodyText: JSON.stringify(json),
      requestId: 'req_7N42dgm5tFLK9N8MT7fHC7',
      headers: { 'x-request-id': 'req_7N42dgm5tFLK9N8MT7fHC7' },
      request: { method: 'POST', url: 'http://t/v1/quotes/preview', headers: {} },
    }) as unknown as Exchange;
  const invalid = (message: string) =>
    answer(400, { type: 'invalid_request', code: 'parameter_missing', message, request_id: 'req_7N42dgm5tFLK9N8MT7fHC7', doc_url: null, statusCode: 400 });

  it('every guess refused with 400: the key and the envelope pass, nothing answered, the guesses observed', async () => {
    const { t, observed } = tools(loadProfile('fixtures/profiles/embedded.json'));
    const got = await firstAnswered(t, [{ a: 1 }, { a: 2 }], async () => invalid('side is required'), 'GATE-QUOTE-PREVIEW-SK', 'POST /quotes/preview', 'topic');
    expect(got).toBeUndefined();
    expect(observed.find((o) => o.topic === 'topic')?.value).toEqual([
      { input: { a: 1 }, status: 400, message: 'side is required' },
      { input: { a: 2 }, status: 400, message: 'side is required' },
    ]);
  });

  it('the second guess answered: that answer is what the response rules judge', async () => {
    const { t } = tools(loadProfile('fixtures/profiles/embedded.json'));
    const ok = answer(200, { object: 'quote_preview' });
    const got = await firstAnswered(
      t,
      [1, 2],
      async (g) => (g === 1 ? invalid('side is required') : ok),
      'GATE-QUOTE-PREVIEW-SK',
      'POST /quotes/preview',
      'topic',
    );
    expect(got).toBe(ok);
  });

  it.each([401, 403, 404, 500])('a %i is no answer about the input: it fails', async (status) => {
    const { t } = tools(loadProfile('fixtures/profiles/embedded.json'));
    await expect(firstAnswered(t, [1], async () => answer(status, {}), 'GATE-QUOTE-PREVIEW-SK', 'POST /quotes/preview', 'topic')).rejects.toThrow(
      /accepts the secret key and answers/,
    );
  });
});

describe('the chaos helpers read GET /webhooks/deliveries on any 2xx (its success status is not shown)', () => {
  const delivery = {
    object: 'webhook_delivery',
    id: 'whd_1',
    event_id: '3f2b8c1e-9d4a-4f6b-8e2c-1a7d5b9c0e44',
    event_type: 'webhook.test',
    target_url: 'https://hooks.example.test/x',
    status: 'succeeded',
    attempts: 1,
    last_response_status: 200,
    last_error: null,
    next_attempt_at: null,
    delivered_at: '2026-05-25T10:00:01Z',
    created_at: '2026-05-25T10:00:00Z',
    updated_at: '2026-05-25T10:00:01Z',
  };
  const list = { object: 'list', data: [delivery], has_more: false, url: '/v1/webhooks/deliveries' };
  const actorAnswering = (status: number) =>
    ({
      client: {
        get: async () => ({
          status,
          json: list,
          bodyText: JSON.stringify(list),
          headers: {},
          request: { method: 'GET', url: 'http://t/v1/webhooks/deliveries', headers: {} },
        }),
      },
    }) as unknown as GateWebhookActor;

  it.each([200, 203])('a %i list is read', async (status) => {
    const { t } = tools(loadProfile('fixtures/profiles/embedded.json'));
    expect((await listedDelivery(t, actorAnswering(status), 'whd_1', 'GATE-DLV-AT-LEAST-ONCE')).delivery.id).toBe('whd_1');
    expect((await settledDeliveries(t, actorAnswering(status), ['whd_1'], ['succeeded'], 1_000, 'GATE-DLV-AT-LEAST-ONCE'))[0]!.delivery.status).toBe(
      'succeeded',
    );
  });

  it('a 404 is no list', async () => {
    const { t } = tools(loadProfile('fixtures/profiles/embedded.json'));
    await expect(listedDelivery(t, actorAnswering(404), 'whd_1', 'GATE-DLV-AT-LEAST-ONCE')).rejects.toThrow(/any 2xx/);
  });
});
