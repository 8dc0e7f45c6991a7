// Gate commerce areas of the embedded reference (capabilities, customers,
// quotes/transactions, rails), driven through a Router with a small in-test
// world, so each documented rule and each seeded fault is exercised directly.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { loadProfile } from '../src/profile/load.js';
import type { GatePartner } from '../src/profile/schema.js';
import { ActiveFaults } from '../src/reference/kit/faults.js';
import { HttpError, Router, errorEnvelope, type Reply, type Req } from '../src/reference/kit/http.js';
import { area as capabilities } from '../src/reference/gate/capabilities.js';
import { area as customers } from '../src/reference/gate/customers.js';
import { area as eligibility } from '../src/reference/gate/eligibility.js';
import { area as quotesTransactions } from '../src/reference/gate/quotesTransactions.js';
import { area as rails } from '../src/reference/gate/rails.js';
import type { GateCaller, GateWorld } from '../src/reference/gate/world.js';
import { moneyWriter, stampWriter, wholeSeconds } from '../src/reference/gate/wire.js';
import { issueLiveKeys } from '../src/reference/liveKeys.js';
import { CATALOGUE } from '../src/model/catalogue/index.js';

// The target issues live keys at start; the same derivation gives them here.
const profile = issueLiveKeys(loadProfile('fixtures/profiles/embedded.json'));
const partners = profile.gate.partners;
const railPartner = partners.find((p) => p.rails === true)!;
const otherRailPartner = partners.find((p) => p.rails === true && p !== railPartner)!;
const noRailPartner = partners.find((p) => p.rails === false) ?? partners.find((p) => p.rails !== true)!;

interface FakeSession {
  id: string;
  owner: string;
  status: string;
  amount: string;
  currency: string;
  target_token: string | null;
}

/** A minimal world honouring E1's GateWorld contract: enough to drive the four areas. */
function makeWorld(faultNames: string[] = []) {
  let t = Date.parse('2026-05-25T12:00:00Z');
  let n = 0;
  const sessions = new Map<string, FakeSession>();
  const idem = new Map<string, Reply>();
  const events: Array<{ partner: string; type: string; data: unknown }> = [];
  const stamp = stampWriter(profile);
  const world = {
    profile,
    faults: new ActiveFaults(faultNames),
    clock: { now: () => t },
    outbox: undefined as never,
    transactions: new Map<string, unknown>(),
    authSecret(req: Req, opts?: { rail?: boolean }): GateCaller {
      const auth = String(req.headers.authorization ?? '');
      const key = auth.startsWith('Bearer ') ? auth.slice(7) : '';
      const partner = partners.find((p) => p.secretKey === key);
      if (!partner) throw new HttpError(401, 'invalid credential', 'unauthorized');
      if (opts?.rail && partner.rails !== true) throw new HttpError(403, 'rails not enabled', 'feature_not_available');
      return { partner, mode: 'test' };
    },
    session(caller: GateCaller, id: string) {
      const s = sessions.get(id);
      if (!s || s.owner !== caller.partner.name) throw new HttpError(404, 'no such session', 'resource_missing');
      return s;
    },
    sessionView(s: FakeSession) {
      return { object: 'gate_session', ...s };
    },
    emit(caller: GateCaller, type: string, data: unknown) {
      events.push({ partner: caller.partner.name, type, data });
    },
    async idempotent(caller: GateCaller, req: Req, scope: string, opts: { required: boolean }, create: () => Reply | Promise<Reply>) {
      const key = req.headers['idempotency-key'] as string | undefined;
      if (!key) {
        if (opts.required) throw new HttpError(400, 'Idempotency-Key required');
        return create();
      }
      const k = `${caller.partner.name}|${scope}|${key}`;
      const hit = idem.get(k);
      if (hit) return hit;
      const r = await create();
      idem.set(k, r);
      return r;
    },
    newId: (prefix: string) => `${prefix}_${(++n).toString().padStart(8, '0')}`,
    iso: (ms?: number) => stamp(ms ?? t),
    moment: (ms?: number) => (wholeSeconds(profile) ? Math.floor((ms ?? t) / 1000) * 1000 : (ms ?? t)),
    money: moneyWriter(profile),
    nextSeq: () => ++n,
  };
  const router = new Router();
  for (const a of [capabilities, eligibility, customers, quotesTransactions, rails]) a.register(router, world as unknown as GateWorld);

  async function call(
    method: string,
    pathWithQuery: string,
    opts: { partner?: GatePartner; body?: unknown; headers?: Record<string, string>; idem?: string | false } = {},
  ): Promise<{ status: number; body: any }> {
    const url = new URL(pathWithQuery, 'http://x');
    const headers: Record<string, string> = { authorization: `Bearer ${(opts.partner ?? railPartner).secretKey}`, ...opts.headers };
    if (opts.idem !== false && method === 'POST') headers['idempotency-key'] = opts.idem ?? randomUUID();
    const m = router.match(method, url.pathname);
    // The server answers unknown paths with the 404 envelope; mirror it.
    if (!m.handler) return { status: 404, body: errorEnvelope(new HttpError(404, 'No such route'), 'no-route') };
    const requestId = randomUUID();
    const req: Req = {
      method,
      path: url.pathname,
      query: url.searchParams,
      headers,
      rawBody: opts.body === undefined ? Buffer.alloc(0) : Buffer.from(typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body)),
      params: m.params,
      requestId,
      env: 'test',
      raw: undefined as unknown as IncomingMessage,
    };
    try {
      const r = await m.handler(req);
      return { status: r.status, body: JSON.parse(JSON.stringify(r.body ?? null)) };
    } catch (e) {
      if (!(e instanceof HttpError)) throw e;
      return { status: e.status, body: errorEnvelope(e, requestId) };
    }
  }

  function openSession(owner: GatePartner = railPartner, amount = '100.00', currency = 'EUR'): string {
    const id = `gs_${++n}`;
    sessions.set(id, { id, owner: owner.name, status: 'open', amount, currency, target_token: 'USDC' });
    return id;
  }

  return {
    world,
    call,
    events,
    sessions,
    openSession,
    advance: (ms: number) => {
      t += ms;
    },
  };
}

const cat = profile.gate.catalog;

describe('capabilities', () => {
  it('lists countries, currencies and assets with the list envelope', async () => {
    const { call } = makeWorld();
    for (const p of ['/capabilities/countries', '/capabilities/currencies', '/capabilities/assets']) {
      const r = await call('GET', p);
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ object: 'list', has_more: false, url: `/v1${p}` });
      expect(r.body.data.length).toBeGreaterThan(0);
    }
    const offOnly = await call('GET', '/capabilities/assets?side=off_ramp&active=true');
    expect(offOnly.body.data.every((a: any) => a.side === 'off_ramp' && a.active)).toBe(true);
    expect(offOnly.body.data.some((a: any) => a.symbol === cat.onRampOnlyAsset)).toBe(false);
    expect((await call('GET', '/capabilities/assets?side=sideways')).status).toBe(400);
  });

  it('serves one asset case-insensitively and 404s inactive, wrong-side, region-excluded and unknown symbols', async () => {
    const { call } = makeWorld();
    const a = await call('GET', `/capabilities/assets/${cat.activeAsset!.toLowerCase()}?country_code=${cat.supportedCountry}&currency=eur`);
    expect(a.status).toBe(200);
    expect(a.body).toMatchObject({ object: 'asset', symbol: cat.activeAsset, side: 'on_ramp', active: true, currency: 'EUR' });
    expect((await call('GET', `/capabilities/assets/${cat.activeAsset}?side=off_ramp`)).body.side).toBe('off_ramp');
    expect((await call('GET', `/capabilities/assets/${cat.inactiveAsset}`)).status).toBe(404);
    expect((await call('GET', `/capabilities/assets/${cat.onRampOnlyAsset}?side=off_ramp`)).status).toBe(404);
    expect((await call('GET', `/capabilities/assets/${cat.onRampOnlyAsset}`)).status).toBe(200);
    expect((await call('GET', '/capabilities/assets/NOPE')).status).toBe(404);
    expect((await call('GET', `/capabilities/assets/${cat.activeAsset}?country_code=${cat.unsupportedCountry}`)).status).toBe(404);
    expect((await call('GET', `/capabilities/assets/${cat.activeAsset}`, { headers: { 'cf-ipcountry': cat.unsupportedCountry! } })).status).toBe(404);
    expect((await call('GET', '/capabilities/assets/USDT?country_code=DE')).status).toBe(404);
    const nameless = await call('GET', '/capabilities/assets/usdt?country_code=US');
    expect(nameless.body.name).toBe('USDT');
  });

  it('resolves payment methods: currency over country_code, empty 200 when nothing resolves, has_more false', async () => {
    const { call } = makeWorld();
    const byCountry = await call('GET', `/capabilities/payment-methods?country_code=${cat.supportedCountry}`);
    expect(byCountry.status).toBe(200);
    expect(byCountry.body.has_more).toBe(false);
    expect(byCountry.body.data.length).toBeGreaterThan(0);
    expect(byCountry.body.data.every((m: any) => m.currency === cat.supportedCountryCurrency && m.side === 'on_ramp' && m.object === 'payment_method')).toBe(
      true,
    );
    const both = await call('GET', `/capabilities/payment-methods?currency=USD&country_code=${cat.supportedCountry}`);
    expect(both.body.data.every((m: any) => m.currency === 'USD')).toBe(true);
    for (const q of ['', `?country_code=${cat.countryWithoutMethods}`, `?currency=${cat.unsupportedCurrency}`, `?country_code=${cat.unsupportedCountry}`]) {
      const r = await call('GET', `/capabilities/payment-methods${q}`);
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ object: 'list', data: [], has_more: false });
    }
    const payouts = await call('GET', '/capabilities/payout-methods?currency=EUR');
    expect(payouts.body.data[0]).toMatchObject({ object: 'payout_method', side: 'off_ramp', currency: 'EUR' });
  });

  it('answers eligibility from explicit, ip and no country with every unavailable_reason', async () => {
    const { call } = makeWorld();
    const ok = await call(
      'GET',
      `/capabilities/eligibility?country_code=${cat.supportedCountry!.toLowerCase()}&currency=${cat.supportedCurrency}&asset=${cat.activeAsset}`,
    );
    expect(ok.body).toEqual({
      object: 'eligibility',
      country_code: cat.supportedCountry,
      eligible: true,
      supported: true,
      default_currency: cat.supportedCountryCurrency,
      currency_supported: true,
      asset_supported: true,
      geo_source: 'explicit',
      unavailable_reason: null,
    });
    const ip = await call('GET', '/capabilities/eligibility', { headers: { 'cf-ipcountry': cat.supportedCountry! } });
    expect(ip.body).toMatchObject({ geo_source: 'ip', eligible: true, currency_supported: null, asset_supported: null });
    const none = await call('GET', '/capabilities/eligibility');
    expect(none.body).toMatchObject({ geo_source: 'none', country_code: null, eligible: false, unavailable_reason: 'country_unresolved' });
    const kp = await call('GET', `/capabilities/eligibility?country_code=${cat.unsupportedCountry}`);
    expect(kp.body).toMatchObject({ supported: false, eligible: false, unavailable_reason: 'country_not_supported' });
    const jpy = await call('GET', `/capabilities/eligibility?country_code=${cat.supportedCountry}&currency=${cat.unsupportedCurrency}`);
    expect(jpy.body).toMatchObject({ eligible: false, currency_supported: false, unavailable_reason: 'currency_not_supported' });
    const luna = await call('GET', `/capabilities/eligibility?country_code=${cat.supportedCountry}&asset=${cat.inactiveAsset}`);
    expect(luna.body).toMatchObject({ eligible: false, asset_supported: false, unavailable_reason: 'asset_not_supported' });
    expect((await call('GET', '/capabilities/eligibility?country_code=DEU')).status).toBe(400);
  });

  it('seeded capability faults each break their rule', async () => {
    const f = (name: string) => makeWorld([name]).call;
    const call0 = makeWorld().call;
    expect((await f('cap-asset-symbol-case-sensitive')('GET', '/capabilities/assets/usdc')).status).toBe(404);
    expect((await f('cap-inactive-asset-served')('GET', `/capabilities/assets/${cat.inactiveAsset}`)).status).toBe(200);
    expect((await f('cap-asset-side-ignored')('GET', `/capabilities/assets/${cat.onRampOnlyAsset}?side=off_ramp`)).status).toBe(200);
    const prec = await f('cap-payment-methods-country-precedence')('GET', '/capabilities/payment-methods?currency=USD&country_code=DE');
    expect(prec.body.data[0].currency).toBe('EUR');
    expect((await f('cap-payment-methods-unresolved-404')('GET', '/capabilities/payment-methods')).status).toBe(404);
    expect((await f('cap-payment-methods-has-more')('GET', '/capabilities/payment-methods?currency=EUR')).body.has_more).toBe(true);
    expect((await f('elig-ip-reported-explicit')('GET', '/capabilities/eligibility', { headers: { 'cf-ipcountry': 'DE' } })).body.geo_source).toBe('explicit');
    expect((await f('elig-ignores-currency')('GET', '/capabilities/eligibility?country_code=DE&currency=JPY')).body.eligible).toBe(true);
    expect((await f('cap-asset-region-ignored')('GET', '/capabilities/assets/USDT?country_code=DE')).status).toBe(200);
    expect(
      (await f('elig-ip-over-explicit')('GET', '/capabilities/eligibility?country_code=DE', { headers: { 'cf-ipcountry': 'KP' } })).body.country_code,
    ).toBe('KP');
    expect((await call0('GET', '/capabilities/eligibility?country_code=DE', { headers: { 'cf-ipcountry': 'KP' } })).body).toMatchObject({
      country_code: 'DE',
      geo_source: 'explicit',
    });
    expect((await f('elig-unresolved-no-reason')('GET', '/capabilities/eligibility')).body.unavailable_reason).toBeNull();
  });
});

describe('customers', () => {
  const body = (i: number) => ({ external_id: `ext-${i}`, email: `c${i}@example.test`, phone: '+4930123456', first_name: 'Ada' });

  it('creates with Idempotency-Key replay, rejects duplicates including soft-deleted, emits events', async () => {
    const { call, events } = makeWorld();
    const key = randomUUID();
    const a = await call('POST', '/customers', { body: body(1), idem: key });
    expect(a.status).toBe(201);
    expect(a.body).toMatchObject({ object: 'customer', mode: 'test', livemode: false, external_id: 'ext-1', metadata: {}, last_name: null });
    expect((await call('POST', '/customers', { body: body(1), idem: key })).body.id).toBe(a.body.id);
    expect((await call('POST', '/customers', { body: { ...body(2), email: 'C1@example.test' } })).status).toBe(409);
    expect((await call('POST', '/customers', { body: { ...body(2), external_id: 'ext-1' } })).status).toBe(409);
    expect((await call('POST', '/customers', { body: { ...body(3), kyc_status: 'verified' } })).status).toBe(400);
    expect((await call('POST', '/customers', { body: { email: 'x@y.z' } })).status).toBe(400);
    // Another partner has its own namespace.
    expect((await call('POST', '/customers', { body: body(1), partner: otherRailPartner })).status).toBe(201);
    const del = await call('DELETE', `/customers/${a.body.id}`);
    expect(del.body).toMatchObject({ id: a.body.id, object: 'customer', deleted: true });
    expect((await call('POST', '/customers', { body: body(1) })).status).toBe(409);
    expect(events.filter((e) => e.partner === railPartner.name).map((e) => e.type)).toEqual(['customer.created', 'customer.deleted']);
  });

  it('PATCH is strict: null clears, omitted unchanged, metadata replaces, immutable/unknown give 400', async () => {
    const { call, events } = makeWorld();
    const c = (await call('POST', '/customers', { body: { ...body(1), last_name: 'Lovelace', metadata: { a: '1', b: '2' } } })).body;
    const p = await call('PATCH', `/customers/${c.id}`, { body: { first_name: null, country_code: 'de', metadata: { c: '3' } } });
    expect(p.status).toBe(200);
    expect(p.body).toMatchObject({ first_name: null, last_name: 'Lovelace', country_code: 'de', metadata: { c: '3' } });
    for (const bad of [
      { email: 'n@x.y' },
      { phone: '1' },
      { external_id: 'e' },
      { kyc_status: 'x' },
      { mode: 'live' },
      { nickname: 'x' },
      { first_name: 'x'.repeat(129) },
      { country_code: 'DEU' },
      { metadata: [] },
    ]) {
      const r = await call('PATCH', `/customers/${c.id}`, { body: bad });
      expect(r.status, JSON.stringify(bad)).toBe(400);
      expect(r.body.type).toBe('invalid_request');
    }
    expect((await call('PATCH', `/customers/${c.id}`, { body: { last_name: 'x'.repeat(128) } })).status).toBe(200);
    expect(events.filter((e) => e.type === 'customer.updated')).toHaveLength(2);
  });

  it('soft delete is idempotent, hides the customer from reads and lists; foreign ids are 404', async () => {
    const { call } = makeWorld();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await call('POST', '/customers', { body: body(i) })).body.id);
    expect((await call('GET', `/customers/${ids[0]}`, { partner: otherRailPartner })).status).toBe(404);
    expect((await call('DELETE', `/customers/${ids[0]}`, { partner: otherRailPartner })).status).toBe(404);
    const d1 = await call('DELETE', `/customers/${ids[2]}`);
    const d2 = await call('DELETE', `/customers/${ids[2]}`);
    expect(d2.status).toBe(200);
    expect(d2.body).toEqual(d1.body);
    expect((await call('GET', `/customers/${ids[2]}`)).status).toBe(404);
    expect((await call('PATCH', `/customers/${ids[2]}`, { body: {} })).status).toBe(404);
    const page1 = await call('GET', '/customers?limit=2');
    expect(page1.body).toMatchObject({ object: 'list', has_more: true, url: '/v1/customers' });
    expect(page1.body.data.map((c: any) => c.id)).toEqual([ids[4], ids[3]]);
    const page2 = await call('GET', `/customers?limit=2&starting_after=${ids[3]}`);
    expect(page2.body.data.map((c: any) => c.id)).toEqual([ids[1], ids[0]]);
    expect(page2.body.has_more).toBe(false);
    expect((await call('GET', '/customers?limit=0')).status).toBe(400);
    expect((await call('GET', '/customers', { partner: otherRailPartner })).body.data).toEqual([]);
  });

  it('seeded customer faults each break their rule', async () => {
    const run = async (fault: string, fn: (w: ReturnType<typeof makeWorld>, id: string) => Promise<unknown>) => {
      const w = makeWorld([fault]);
      const c = (await w.call('POST', '/customers', { body: { ...body(1), metadata: { a: '1' } } })).body;
      return fn(w, c.id);
    };
    expect(
      await run('cust-duplicate-email-allowed', async (w) => (await w.call('POST', '/customers', { body: { ...body(2), email: body(1).email } })).status),
    ).toBe(201);
    expect(
      await run('cust-deleted-identity-released', async (w, id) => {
        await w.call('DELETE', `/customers/${id}`);
        return (await w.call('POST', '/customers', { body: body(1) })).status;
      }),
    ).toBe(201);
    expect(
      await run(
        'cust-duplicate-external-id-allowed',
        async (w) => (await w.call('POST', '/customers', { body: { ...body(2), external_id: body(1).external_id } })).status,
      ),
    ).toBe(201);
    expect(await run('cust-foreign-403', async (w, id) => (await w.call('GET', `/customers/${id}`, { partner: otherRailPartner })).status)).toBe(403);
    expect(await run('cust-patch-immutable-accepted', async (w, id) => (await w.call('PATCH', `/customers/${id}`, { body: { email: 'z@z.z' } })).status)).toBe(
      200,
    );
    expect(await run('cust-patch-unknown-key-accepted', async (w, id) => (await w.call('PATCH', `/customers/${id}`, { body: { foo: 1 } })).status)).toBe(200);
    expect(
      await run('cust-metadata-merged', async (w, id) => (await w.call('PATCH', `/customers/${id}`, { body: { metadata: { b: '2' } } })).body.metadata),
    ).toEqual({ a: '1', b: '2' });
    expect(await run('cust-null-ignored', async (w, id) => (await w.call('PATCH', `/customers/${id}`, { body: { first_name: null } })).body.first_name)).toBe(
      'Ada',
    );
    expect(
      await run('cust-name-length-unchecked', async (w, id) => (await w.call('PATCH', `/customers/${id}`, { body: { first_name: 'x'.repeat(200) } })).status),
    ).toBe(200);
    const deleted = async (w: ReturnType<typeof makeWorld>, id: string) => {
      await w.call('DELETE', `/customers/${id}`);
      return w;
    };
    expect(await run('cust-deleted-readable', async (w, id) => (await (await deleted(w, id)).call('GET', `/customers/${id}`)).status)).toBe(200);
    expect(await run('cust-deleted-listed', async (w, id) => (await (await deleted(w, id)).call('GET', '/customers')).body.data.length)).toBe(1);
    expect(await run('cust-delete-not-idempotent', async (w, id) => (await (await deleted(w, id)).call('DELETE', `/customers/${id}`)).status)).toBe(404);
  });
});

describe('quotes, transactions and rails', () => {
  async function quote(w: ReturnType<typeof makeWorld>, side: 'on_ramp' | 'off_ramp', partner = railPartner) {
    const sid = w.openSession(partner);
    const q = await w.call('POST', '/quotes', { body: { gate_session_id: sid, side }, partner });
    expect(q.status).toBe(201);
    return { sid, q: q.body };
  }
  const payout = (sid: string, qid: string, extra: Record<string, unknown> = {}) => ({ gate_session_id: sid, quote_id: qid, ...extra });

  it('previews indicative options and locks signed quotes that reads never redeem', async () => {
    const w = makeWorld();
    const p = await w.call('POST', '/quotes/preview', { body: { amount: '100.00', currency: 'eur', asset: 'usdc' } });
    expect(p.status).toBe(200);
    expect(p.body).toMatchObject({ object: 'quote_preview', indicative: true, currency: 'EUR', asset: 'USDC' });
    expect(p.body.options.length).toBeGreaterThan(0);
    expect((await w.call('POST', '/quotes/preview', { body: { amount: '-1', currency: 'EUR' } })).status).toBe(400);
    expect((await w.call('POST', '/quotes/preview', { body: { amount: '1', currency: 'JPY' } })).status).toBe(400);

    const { sid, q } = await quote(w, 'off_ramp');
    expect(q).toMatchObject({ object: 'quote', state: 'active', side: 'off_ramp', gate_session_id: sid, currency: 'EUR' });
    expect(Number(q.fiat_pay_or_receive)).toBeLessThan(100);
    const { q: onQ } = await quote(w, 'on_ramp');
    expect(Number(onQ.fiat_pay_or_receive)).toBeGreaterThan(100);
    for (let i = 0; i < 3; i++) expect((await w.call('GET', `/quotes/${q.id}`)).body.state).toBe('active');
    expect((await w.call('GET', `/quotes/${q.id}`, { partner: otherRailPartner })).status).toBe(404);
    expect((await w.call('POST', '/quotes', { body: { gate_session_id: sid }, partner: noRailPartner })).body.code).toBe('feature_not_available');
    expect((await w.call('POST', '/quotes', { body: { gate_session_id: sid }, partner: otherRailPartner })).status).toBe(404);
  });

  it('pay-out: 201 with the quote amount and method; consumed and expired quotes give 409', async () => {
    const w = makeWorld();
    const { sid, q } = await quote(w, 'off_ramp');
    const r = await w.call('POST', '/rails/pay_outs', { body: payout(sid, q.id, { reference: 'inv-1', metadata: { k: 'v' } }) });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      object: 'rail_pay_out',
      kind: 'pay_out',
      status: 'pending',
      amount: q.fiat_pay_or_receive,
      currency: 'EUR',
      method: q.method,
      quote_id: q.id,
      reference: 'inv-1',
    });
    expect(r.body.account_blocked).toBeUndefined();
    expect((await w.call('GET', `/quotes/${q.id}`)).body.state).toBe('consumed');
    const again = await w.call('POST', '/rails/pay_outs', { body: payout(sid, q.id) });
    expect(again.status).toBe(409);
    expect(again.body.type).toBe('conflict');
    expect((await w.call('GET', `/rails/pay_outs/${r.body.id}`)).body.id).toBe(r.body.id);
    expect((await w.call('GET', `/rails/pay_outs/${r.body.id}`, { partner: otherRailPartner })).status).toBe(404);

    const e = await quote(w, 'off_ramp');
    expect((await w.call('POST', `/_sandbox/quotes/${e.q.id}/expire`, { body: {} })).body.state).toBe('expired');
    expect((await w.call('POST', '/rails/pay_outs', { body: payout(e.sid, e.q.id) })).status).toBe(409);
    const late = await quote(w, 'off_ramp');
    w.advance(11 * 60_000);
    expect((await w.call('GET', `/quotes/${late.q.id}`)).body.state).toBe('expired');
    expect((await w.call('POST', '/rails/pay_outs', { body: payout(late.sid, late.q.id) })).status).toBe(409);
  });

  it('pay-out body rules: money, method and identity fields, lengths, Idempotency-Key, entitlement; other keys ignored', async () => {
    const w = makeWorld();
    const { sid, q } = await quote(w, 'off_ramp');
    for (const extra of [
      { amount: '1' },
      { currency: 'EUR' },
      { fee: '0' },
      { method: 'sepa' },
      { iban: 'DE89370400440532013000' },
      { name: 'A' },
      { email: 'a@b.c' },
      { address: {} },
      { wallet: '0x' },
      { reference: 'r'.repeat(129) },
      { metadata: 'x' },
    ]) {
      const r = await w.call('POST', '/rails/pay_outs', { body: payout(sid, q.id, extra) });
      expect(r.status, JSON.stringify(extra)).toBe(400);
    }
    expect((await w.call('POST', '/rails/pay_outs', { body: payout(sid, 'q'.repeat(65)) })).status).toBe(400);
    expect((await w.call('POST', '/rails/pay_outs', { body: { quote_id: q.id } })).status).toBe(400);
    expect((await w.call('POST', '/rails/pay_outs', { body: payout(sid, q.id), idem: false })).status).toBe(400);
    expect((await w.call('POST', '/rails/pay_outs', { body: payout(sid, q.id), idem: 'not-a-uuid' })).status).toBe(400);
    const denied = await w.call('POST', '/rails/pay_outs', { body: payout(sid, q.id), partner: noRailPartner });
    expect(denied.status).toBe(403);
    expect(denied.body.code).toBe('feature_not_available');
    // None of the rejections consumed the quote.
    expect((await w.call('GET', `/quotes/${q.id}`)).body.state).toBe('active');
    const key = randomUUID();
    // A key the spec does not name is not refused (what the service does with it is not shown).
    const ok = await w.call('POST', '/rails/pay_outs', { body: payout(sid, q.id, { reference: 'r'.repeat(128), surprise: 1 }), idem: key });
    expect(ok.status).toBe(201);
    expect((await w.call('POST', '/rails/pay_outs', { body: payout(sid, q.id, { reference: 'r'.repeat(128), surprise: 1 }), idem: key })).body.id).toBe(
      ok.body.id,
    );
  });

  it('pay-in redeems an on_ramp quote once; foreign pay-ins are 404', async () => {
    const w = makeWorld();
    const { sid, q } = await quote(w, 'on_ramp');
    const body = JSON.parse(JSON.stringify(profile.gate.triggers.payInBody).replace('{{sessionId}}', sid).replace('{{quoteId}}', q.id));
    const r = await w.call('POST', '/rails/pay_ins', { body, idem: 'order-42-attempt-1' });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ object: 'rail_pay_in', kind: 'pay_in', amount: q.fiat_pay_or_receive });
    expect((await w.call('POST', '/rails/pay_ins', { body })).status).toBe(409);
    expect((await w.call('GET', `/rails/pay_ins/${r.body.id}`)).status).toBe(200);
    expect((await w.call('GET', `/rails/pay_ins/${r.body.id}`, { partner: otherRailPartner })).status).toBe(404);
    // The spec names the key on pay-ins without saying it is required: one without a key redeems too.
    const second = await quote(w, 'on_ramp');
    const body2 = JSON.parse(JSON.stringify(profile.gate.triggers.payInBody).replace('{{sessionId}}', second.sid).replace('{{quoteId}}', second.q.id));
    expect((await w.call('POST', '/rails/pay_ins', { body: body2, idem: false })).status).toBe(201);
  });

  it('concurrent redemptions of one quote produce exactly one pay-out', async () => {
    const w = makeWorld();
    const { sid, q } = await quote(w, 'off_ramp');
    const results = await Promise.all(Array.from({ length: 20 }, () => w.call('POST', '/rails/pay_outs', { body: payout(sid, q.id) })));
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(19);
  });

  it('lists and reads transactions of the caller only', async () => {
    const w = makeWorld();
    const scopeA = `${railPartner.name}\u0000test`;
    const scopeB = `${otherRailPartner.name}\u0000test`;
    for (let i = 0; i < 3; i++) w.world.transactions.set(`tx_${i}`, { refid: `tx_${i}`, scope: scopeA, amount: '1.00' });
    w.world.transactions.set('tx_b', { refid: 'tx_b', scope: scopeB, amount: '2.00' });
    const l = await w.call('GET', '/transactions?limit=2');
    expect(l.body).toMatchObject({ object: 'list', has_more: true, url: '/v1/transactions' });
    expect(l.body.data.map((t: any) => t.refid)).toEqual(['tx_2', 'tx_1']);
    expect(l.body.data[0].scope).toBeUndefined();
    expect((await w.call('GET', '/transactions?starting_after=tx_1')).body.data.map((t: any) => t.refid)).toEqual(['tx_0']);
    expect((await w.call('GET', '/transactions/tx_0')).body).toMatchObject({ object: 'transaction', refid: 'tx_0' });
    expect((await w.call('GET', '/transactions/tx_b')).status).toBe(404);
    expect((await w.call('GET', '/transactions/tx_nope')).status).toBe(404);
    const leaky = makeWorld(['txn-foreign-readable']);
    leaky.world.transactions.set('tx_b', { refid: 'tx_b', scope: scopeB });
    expect((await leaky.call('GET', '/transactions/tx_b')).status).toBe(200);
    expect((await makeWorld(['txn-unknown-refid-200']).call('GET', '/transactions/tx_nope')).status).toBe(200);
  });

  it('seeded quote and rail faults each break their rule', async () => {
    const withQuote = async (fault: string) => {
      const w = makeWorld([fault]);
      return { w, ...(await quote(w, 'off_ramp')) };
    };
    {
      const { w, sid, q } = await withQuote('quote-read-redeems');
      await w.call('GET', `/quotes/${q.id}`);
      expect((await w.call('POST', '/rails/pay_outs', { body: payout(sid, q.id) })).status).toBe(409);
    }
    {
      const { w, sid, q } = await withQuote('quote-expired-redeemable');
      await w.call('POST', `/_sandbox/quotes/${q.id}/expire`, { body: {} });
      expect((await w.call('POST', '/rails/pay_outs', { body: payout(sid, q.id) })).status).toBe(201);
    }
    {
      const { w, sid, q } = await withQuote('quote-consumed-redeemable');
      await w.call('POST', '/rails/pay_outs', { body: payout(sid, q.id) });
      expect((await w.call('POST', '/rails/pay_outs', { body: payout(sid, q.id) })).status).toBe(201);
    }
    const single = async (fault: string, extra: Record<string, unknown>, opts: { idem?: false } = {}) => {
      const { w, sid, q } = await withQuote(fault);
      return w.call('POST', '/rails/pay_outs', { body: payout(sid, q.id, extra), ...opts });
    };
    expect((await single('rail-payout-money-field-accepted', { amount: '5.00' })).status).toBe(201);
    expect((await single('rail-payout-identity-field-accepted', { iban: 'DE00' })).status).toBe(201);
    expect((await single('rail-payout-idempotency-optional', {}, { idem: false })).status).toBe(201);
    expect((await single('rail-payout-reference-unbounded', { reference: 'r'.repeat(300) })).status).toBe(201);
    expect((await single('rail-payout-status-200', {})).status).toBe(200);
    {
      const { w, sid, q } = await withQuote('rail-payout-amount-not-quote');
      expect((await w.call('POST', '/rails/pay_outs', { body: payout(sid, q.id) })).body.amount).toBe(q.amount);
      expect(q.amount).not.toBe(q.fiat_pay_or_receive);
    }
    {
      const w = makeWorld(['rail-entitlement-ignored']);
      const sid = w.openSession(noRailPartner);
      // Without entitlement the partner still cannot lock a quote, so the pay-out gets past the 403 to a 404 on the quote.
      expect((await w.call('POST', '/rails/pay_outs', { body: payout(sid, 'quote_missing'), partner: noRailPartner })).status).toBe(404);
    }
    {
      const w = makeWorld(['quote-entitlement-ignored']);
      const sid = w.openSession(noRailPartner);
      expect((await w.call('POST', '/quotes', { body: { gate_session_id: sid, side: 'off_ramp' }, partner: noRailPartner })).status).toBe(201);
    }
    {
      const w = makeWorld(['rail-payin-not-redeeming']);
      const { sid, q } = await quote(w, 'on_ramp');
      expect((await w.call('POST', '/rails/pay_ins', { body: payout(sid, q.id) })).status).toBe(201);
      expect((await w.call('GET', `/quotes/${q.id}`)).body.state).toBe('active');
    }
    expect((await single('rail-payout-id-unbounded', { quote_id: 'q'.repeat(65) })).status).toBe(404);
    {
      const { w, sid, q } = await withQuote('rail-payout-foreign-403');
      const po = (await w.call('POST', '/rails/pay_outs', { body: payout(sid, q.id) })).body;
      expect((await w.call('GET', `/rails/pay_outs/${po.id}`, { partner: otherRailPartner })).status).toBe(403);
    }
  });
});

describe('seeded faults of the commerce areas', () => {
  const faults = [capabilities, eligibility, customers, quotesTransactions, rails].flatMap((a) => a.faults);
  it('are unique kebab-case gate faults naming catalogue requirements', () => {
    const ids = new Set<string>(CATALOGUE.map((r) => r.id));
    expect(faults.length).toBeGreaterThanOrEqual(15);
    expect(new Set(faults.map((f) => f.name)).size).toBe(faults.length);
    for (const f of faults) {
      expect(f.name).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(f.service).toBe('gate');
      expect(f.requirements.length).toBeGreaterThan(0);
      for (const id of f.requirements) expect(ids.has(id), `${f.name} names ${id}`).toBe(true);
    }
  });
});

describe('over HTTP on the embedded reference', () => {
  it('serves the commerce routes with the envelope, tenant scoping and environment separation', async () => {
    const { startReference } = await import('../src/reference/server.js');
    const ref = await startReference({
      profile: { ...profile, reference: { ...profile.reference, rateLimits: false } } as typeof profile,
      ephemeralPorts: true,
    });
    try {
      const sandbox = ref.urls.gateSandbox;
      const req = async (base: string, method: string, path: string, key: string | undefined, body?: unknown, extra: Record<string, string> = {}) => {
        const headers: Record<string, string> = { ...extra };
        if (key) headers.authorization = `Bearer ${key}`;
        if (body !== undefined) headers['content-type'] = 'application/json';
        if (method === 'POST') headers['idempotency-key'] ??= randomUUID();
        const res = await fetch(`${base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
        const text = await res.text();
        return { status: res.status, requestId: res.headers.get('x-request-id'), body: text ? JSON.parse(text) : null };
      };

      const noAuth = await req(sandbox, 'GET', '/capabilities/countries', undefined);
      expect(noAuth.status).toBe(401);
      expect(noAuth.body.request_id).toBe(noAuth.requestId);
      const elig = await req(sandbox, 'GET', '/capabilities/eligibility', railPartner.secretKey, undefined, { 'cf-ipcountry': cat.supportedCountry! });
      expect(elig.body).toMatchObject({ geo_source: 'ip', country_code: cat.supportedCountry, eligible: true });
      const pm = await req(sandbox, 'GET', `/capabilities/payment-methods?country_code=${cat.countryWithoutMethods}`, railPartner.secretKey);
      expect(pm).toMatchObject({ status: 200, body: { object: 'list', data: [], has_more: false } });

      const c = await req(sandbox, 'POST', '/customers', railPartner.secretKey, { external_id: 'http-1', email: 'http-1@example.test', phone: '+491' });
      expect(c.status).toBe(201);
      expect(c.body).toMatchObject({ mode: 'test', livemode: false });
      expect((await req(sandbox, 'GET', `/customers/${c.body.id}`, otherRailPartner.secretKey)).status).toBe(404);
      const bad = await req(sandbox, 'PATCH', `/customers/${c.body.id}`, railPartner.secretKey, { email: 'x@y.z' });
      expect(bad.status).toBe(400);
      expect(bad.body).toMatchObject({ type: 'invalid_request', statusCode: 400 });
      expect(bad.body.request_id).toBe(bad.requestId);

      // Live keys see the live environment only: the sandbox customer does not exist there.
      expect(railPartner.liveSecretKey).toMatch(/^sk_live_/);
      const live = await req(ref.urls.gateProduction, 'GET', `/customers/${c.body.id}`, railPartner.liveSecretKey!);
      expect(live.status).toBe(404);
      const denied = await req(sandbox, 'POST', '/rails/pay_outs', noRailPartner.secretKey, { gate_session_id: 'gs_x', quote_id: 'q_x' });
      expect(denied.status).toBe(403);
      expect(denied.body.code).toBe('feature_not_available');
      expect((await req(sandbox, 'POST', '/rails/pay_outs', railPartner.secretKey, { gate_session_id: 'gs_x', quote_id: 'q_x', amount: '1' })).status).toBe(
        400,
      );
      expect((await req(sandbox, 'GET', '/transactions', railPartner.secretKey)).body).toMatchObject({ object: 'list', data: [], has_more: false });
      expect((await req(sandbox, 'GET', '/transactions/tx_missing', railPartner.secretKey)).status).toBe(404);

      // The profile's triggers drive a signed quote into a pay-out, and a completion into a transaction.
      const session = await req(sandbox, 'POST', '/gate_sessions', railPartner.secretKey, { ...profile.gate.sessionDefaults });
      expect(session.status).toBeLessThan(300);
      const trig = profile.gate.triggers;
      const fill = (v: unknown, vars: Record<string, string>) => JSON.parse(JSON.stringify(v).replace(/\{\{(\w+)\}\}/g, (_m, k: string) => vars[k] ?? ''));
      const q = await req(
        sandbox,
        trig.createSignedQuote!.method,
        trig.createSignedQuote!.path,
        railPartner.secretKey,
        fill(trig.createSignedQuote!.body, { sessionId: session.body.id, side: 'off_ramp' }),
      );
      expect(q.status).toBe(201);
      expect(q.body.state).toBe('active');
      const po = await req(sandbox, 'POST', '/rails/pay_outs', railPartner.secretKey, {
        gate_session_id: session.body.id,
        quote_id: q.body.id,
        reference: 'http',
      });
      expect(po.status).toBe(201);
      expect(po.body).toMatchObject({ object: 'rail_pay_out', amount: q.body.fiat_pay_or_receive, status: 'pending' });
      expect((await req(sandbox, 'POST', '/rails/pay_outs', railPartner.secretKey, { gate_session_id: session.body.id, quote_id: q.body.id })).status).toBe(
        409,
      );
      const q2 = await req(sandbox, 'POST', '/quotes', railPartner.secretKey, { gate_session_id: session.body.id, side: 'on_ramp' });
      const exp = trig.expireSignedQuote!;
      expect((await req(sandbox, exp.method, fill(exp.path, { quoteId: q2.body.id }), railPartner.secretKey, exp.body)).status).toBe(200);
      expect(
        (await req(sandbox, 'POST', '/rails/pay_ins', railPartner.secretKey, fill(trig.payInBody, { sessionId: session.body.id, quoteId: q2.body.id }))).status,
      ).toBe(409);
      const done = await req(sandbox, 'POST', fill(trig.completeSession!.path, { sessionId: session.body.id }), railPartner.secretKey, {});
      expect(done.status).toBe(200);
      const tx = await req(sandbox, 'GET', `/transactions/${done.body.tx_refid}`, railPartner.secretKey);
      expect(tx.body).toMatchObject({ object: 'transaction', refid: done.body.tx_refid, gate_session_id: session.body.id });
      expect(tx.body.partner).toBeUndefined();
      expect((await req(sandbox, 'GET', `/transactions/${done.body.tx_refid}`, otherRailPartner.secretKey)).status).toBe(404);
      expect((await req(sandbox, 'GET', '/transactions', railPartner.secretKey)).body.data.map((t: any) => t.refid)).toEqual([done.body.tx_refid]);
    } finally {
      await ref.close();
    }
  });
});

describe('malformed input', () => {
  it('never escapes as a non-envelope error on any commerce route', async () => {
    const w = makeWorld();
    const sid = w.openSession();
    const routes: Array<[string, string]> = [
      ['GET', '/capabilities/assets'],
      ['GET', '/capabilities/assets/%E0%A4%A'],
      ['GET', '/capabilities/payment-methods'],
      ['GET', '/capabilities/eligibility'],
      ['POST', '/customers'],
      ['GET', '/customers'],
      ['PATCH', '/customers/cus_x'],
      ['DELETE', '/customers/cus_x'],
      ['POST', '/quotes/preview'],
      ['POST', '/quotes'],
      ['GET', '/quotes/q_x'],
      ['POST', '/_sandbox/quotes/q_x/expire'],
      ['GET', '/transactions'],
      ['GET', '/transactions/tx_x'],
      ['POST', '/rails/pay_ins'],
      ['POST', '/rails/pay_outs'],
      ['GET', '/rails/pay_outs/x'],
    ];
    const bodies: unknown[] = [
      '',
      'not json',
      '[]',
      'null',
      '42',
      { gate_session_id: 7, quote_id: [] },
      { gate_session_id: sid, quote_id: { a: 1 }, metadata: null },
      { amount: 1e309, currency: null, asset: {} },
      { external_id: 'e', email: 'a@b', metadata: [1], first_name: 5 },
      { side: 'up', gate_session_id: sid },
      { __proto__: { x: 1 }, constructor: 'x' },
    ];
    const queries = ['', '?limit=-1', '?limit=abc', '?starting_after=nope', '?side=x', '?country_code=%00%01', '?currency=12', '?active=maybe'];
    let answered = 0;
    for (const [method, path] of routes) {
      for (const q of queries) {
        for (const body of method === 'GET' ? [undefined] : bodies) {
          const r = await w.call(method, `${path}${q}`, {
            body: typeof body === 'string' ? (body === '' ? undefined : body) : body,
            headers: { 'cf-ipcountry': '\u00ff\u00fe' },
          });
          expect(r.status).toBeLessThan(500);
          if (r.status >= 400) expect(r.body).toMatchObject({ type: expect.any(String), code: expect.any(String), statusCode: r.status });
          answered++;
        }
      }
    }
    expect(answered).toBeGreaterThan(500);
  });
});
