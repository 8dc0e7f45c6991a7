// The embedded pools target exercised over HTTP with plain fetch: auth and
// entitlement, quotes and addresses, transact idempotency, stored quotes,
// settlement, trades pagination, balance, funding, ledger and webhooks.
import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadProfile } from '../src/profile/load.js';
import type { PoolsPartner } from '../src/profile/schema.js';
import { breakChecksum } from '../src/model/eip55.js';
import { startReference, type RunningReference } from '../src/reference/server.js';

const base = loadProfile('fixtures/profiles/embedded.json');
const pools = base.pools!;
const byName = (n: string): PoolsPartner => pools.partners.find((p) => p.name === n)!;
const funded = byName('pools-01');
const second = byName('pools-02');
const ADDR = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';

let ref: RunningReference;
let sandbox: string;
let production: string;

beforeAll(async () => {
  ref = await startReference({
    profile: { ...base, reference: { ...base.reference!, quoteTtlSeconds: 1, timeScale: 0.0001, attemptTimeoutMs: 300 } },
    ephemeralPorts: true,
  });
  sandbox = ref.urls.poolsSandbox;
  production = ref.urls.poolsProduction;
});
afterAll(async () => {
  await ref?.close();
});

interface Res {
  status: number;
  headers: Headers;
  body: any;
}

async function call(method: string, path: string, opts: { key?: string; body?: unknown; idem?: string; url?: string } = {}): Promise<Res> {
  const headers: Record<string, string> = {};
  if (opts.key) headers.authorization = `Bearer ${opts.key}`;
  if (opts.idem) headers['idempotency-key'] = opts.idem;
  let body: string | undefined;
  if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers['content-type'] = 'application/json';
  }
  const r = await fetch(`${opts.url ?? sandbox}${path}`, { method, headers, body });
  const text = await r.text();
  return { status: r.status, headers: r.headers, body: text ? JSON.parse(text) : undefined };
}

function expectError(r: Res, status: number, code?: string): void {
  expect(r.status).toBe(status);
  expect(r.body).toMatchObject({ statusCode: status, request_id: r.headers.get('x-request-id') });
  expect(typeof r.body.type).toBe('string');
  if (code) expect(r.body.code).toBe(code);
}

const quoteBody = (extra: Record<string, unknown> = {}) => ({
  side: 'on_ramp',
  fiatCurrency: 'EUR',
  cryptoCurrency: 'USDT',
  amount: '100.00',
  cryptoNetwork: 'ethereum',
  destAddress: ADDR,
  ...extra,
});

async function firmQuote(p: PoolsPartner = funded, extra: Record<string, unknown> = {}): Promise<any> {
  const r = await call('POST', '/pools/EUR-USDT/quote', { key: p.secretKey, body: quoteBody(extra) });
  expect(r.status).toBe(201);
  return r.body;
}

async function transact(p: PoolsPartner, quoteId: string, idem: string = crypto.randomUUID(), body: unknown = { quoteId }): Promise<Res> {
  return call('POST', '/pools/EUR-USDT/transact', { key: p.secretKey, body, idem });
}

async function balance(p: PoolsPartner): Promise<string> {
  return (await call('GET', '/pools/EUR-USDT/balance', { key: p.secretKey })).body.balance;
}

describe('pools auth and entitlement', () => {
  it('401 without or with an unknown key; PK only on discovery; test key refused on production', async () => {
    expectError(await call('GET', '/pools/trades'), 401);
    expectError(await call('GET', '/pools/trades', { key: 'sk_test_nope' }), 401);
    const gateKey = base.gate.partners[0]!.secretKey;
    expectError(await call('GET', '/pools/trades', { key: gateKey }), 401);
    expect((await call('GET', '/pools', { key: funded.publishableKey })).status).toBe(200);
    expect((await call('GET', '/pools', { key: funded.secretKey })).status).toBe(200);
    expectError(await call('GET', '/pools/ledger', { key: funded.publishableKey }), 403, 'key_mode_mismatch');
    expectError(await call('GET', '/pools/trades', { key: funded.secretKey, url: production }), 403, 'key_mode_mismatch');
  });

  it('entitled routes give each 403 code; read routes only key_mode_mismatch', async () => {
    for (const [name, code] of [
      ['pools-not-enabled', 'pools_not_enabled'],
      ['pools-suspended', 'pool_access_suspended'],
      ['pools-kyc-pending', 'kyc_not_approved'],
    ] as const) {
      const p = byName(name);
      expectError(await call('GET', '/pools/EUR-USDT/capabilities', { key: p.secretKey }), 403, code);
      expectError(await call('POST', '/pools/EUR-USDT/quote', { key: p.secretKey, body: quoteBody() }), 403, code);
      expect((await call('GET', '/pools/trades', { key: p.secretKey })).status).toBe(200);
    }
    expectError(await call('GET', '/pools/EUR-ETH/capabilities', { key: funded.secretKey }), 403, 'pool_not_allowed');
    expectError(await call('GET', '/pools/XXX-YYY/capabilities', { key: funded.secretKey }), 404);
  });
});

describe('pools quotes', () => {
  it('firm, indicative and unavailable quotes', async () => {
    const q = await firmQuote();
    expect(q).toMatchObject({ available: true, executable: true, spreadBps: 25, feeBps: 10 });
    expect(Date.parse(q.expiresAt) - Date.now()).toBeLessThanOrEqual(1_100);
    const ind = await call('POST', '/pools/EUR-USDT/quote', { key: funded.secretKey, body: quoteBody({ type: 'indicative' }) });
    expect(ind.status).toBe(200);
    expect(ind.body).toMatchObject({ available: true, executable: false });
    expect(ind.body.quoteId).toBeUndefined();
    const dry = await call('POST', '/pools/EUR-BTC/quote', { key: funded.secretKey, body: quoteBody({ cryptoCurrency: 'BTC' }) });
    expect(dry.status).toBe(200);
    expect(dry.body).toMatchObject({ available: false, unavailableReason: 'pool_dry' });
  });

  it('destAddress: required on_ramp, format, EIP-55, single case; network default tron; destNetwork allowlist', async () => {
    const { destAddress: _omit, ...noAddr } = quoteBody();
    expectError(await call('POST', '/pools/EUR-USDT/quote', { key: funded.secretKey, body: noAddr }), 400, 'dest_address_required');
    expectError(await call('POST', '/pools/EUR-USDT/quote', { key: funded.secretKey, body: quoteBody({ destAddress: '0x1234' }) }), 400, 'invalid_address');
    expectError(
      await call('POST', '/pools/EUR-USDT/quote', { key: funded.secretKey, body: quoteBody({ destAddress: breakChecksum(ADDR) }) }),
      400,
      'invalid_address_checksum',
    );
    await firmQuote(funded, { destAddress: ADDR.toLowerCase() });
    await firmQuote(funded, { destAddress: `0x${ADDR.slice(2).toUpperCase()}` });
    const { cryptoNetwork: _n, ...noNet } = quoteBody();
    const tron = await call('POST', '/pools/EUR-USDT/quote', { key: funded.secretKey, body: noNet });
    const stored = await call('GET', `/pools/quotes/${tron.body.quoteId}`, { key: funded.secretKey });
    expect(stored.body.cryptoNetwork).toBe('tron');
    expectError(await call('POST', '/pools/EUR-USDT/quote', { key: funded.secretKey, body: quoteBody({ destNetwork: 'tron' }) }), 400, 'unsupported_network');
  });
});

describe('pools transact', () => {
  it('reserves, replays, detects key conflicts, answers the existing trade for another key, debits exactly once', async () => {
    const before = await balance(funded);
    const q = await firmQuote();
    const idem = crypto.randomUUID();
    expectError(await call('POST', '/pools/EUR-USDT/transact', { key: funded.secretKey, body: { quoteId: q.quoteId } }), 400);
    const t = await transact(funded, q.quoteId, idem);
    expect(t.status).toBe(201);
    expect(t.body).toMatchObject({ quoteId: q.quoteId, status: 'reserved' });
    const replay = await transact(funded, q.quoteId, idem);
    expect(replay.body.transactId).toBe(t.body.transactId);
    const q2 = await firmQuote();
    expectError(await transact(funded, q2.quoteId, idem), 409, 'idempotency-conflict');
    const other = await transact(funded, q.quoteId);
    expect(other.status).toBe(200);
    expect(other.body.transactId).toBe(t.body.transactId);
    const after = await balance(funded);
    expect(Number(before) - Number(after)).toBeCloseTo(100, 2);
  });

  it('402 beyond the balance, 501 off_ramp, 409 on expired and rejected quotes, 429 past the velocity cap', async () => {
    const big = await firmQuote(funded, { amount: '1000000.00' });
    expectError(await transact(funded, big.quoteId), 402);
    const off = await call('POST', '/pools/EUR-USDT/quote', {
      key: byName('pools-03').secretKey,
      body: { side: 'off_ramp', fiatCurrency: 'EUR', cryptoCurrency: 'USDT', amount: '50' },
    });
    expect(off.status).toBe(201);
    expectError(await transact(byName('pools-03'), off.body.quoteId), 501);
    const rej = await firmQuote();
    expect((await call('POST', `/pools/quotes/${rej.quoteId}/reject`, { key: funded.secretKey })).body.status).toBe('rejected');
    expectError(await transact(funded, rej.quoteId), 409, 'quote_rejected');
    expectError(await call('POST', `/pools/quotes/${rej.quoteId}/reject`, { key: funded.secretKey }), 409);
    const exp = await firmQuote();
    await new Promise((r) => setTimeout(r, 1_100));
    expect((await call('GET', `/pools/quotes/${exp.quoteId}`, { key: funded.secretKey })).body.status).toBe('expired');
    expectError(await transact(funded, exp.quoteId), 409, 'quote_expired');
    const vel = byName('pools-velocity');
    const keys: string[] = [];
    for (let i = 0; i < 2; i++) {
      const q = await firmQuote(vel);
      keys.push(crypto.randomUUID());
      expect((await transact(vel, q.quoteId, keys[i])).status).toBe(201);
    }
    const q3 = await firmQuote(vel);
    expectError(await transact(vel, q3.quoteId), 429, 'velocity_cap_exceeded');
  });

  it('one trade per quote under concurrent transacts with different keys', async () => {
    const q = await firmQuote(second);
    const results = await Promise.all(Array.from({ length: 8 }, () => transact(second, q.quoteId)));
    expect(new Set(results.map((r) => r.body.transactId)).size).toBe(1);
  });
});

describe('pools settlement, trades and money', () => {
  it('the poll advances; pure reads do not; returned refunds once without a webhook; ledger agrees with the balance', async () => {
    const p = byName('pools-04');
    const q = await firmQuote(p);
    const t = (await transact(p, q.quoteId)).body;
    expect((await call('GET', `/pools/trades/${t.transactId}`, { key: p.secretKey })).body.status).toBe('reserved');
    expect((await call('POST', `/_sandbox/trades/${q.quoteId}/outcome`, { key: p.secretKey, body: { outcome: 'returned' } })).status).toBe(200);
    expect((await call('GET', `/pools/transactions/${q.quoteId}`, { key: p.secretKey })).body.status).toBe('settled');
    expect((await call('GET', `/pools/transactions/${q.quoteId}`, { key: p.secretKey })).body.status).toBe('returned');
    await call('GET', `/pools/transactions/${q.quoteId}`, { key: p.secretKey });
    const ledger = (await call('GET', '/pools/ledger?limit=100', { key: p.secretKey })).body.data as any[];
    expect(ledger.filter((e) => e.type === 'buy_refund' && e.transactId === t.transactId)).toHaveLength(1);
    const sum = ledger.reduce((acc, e) => acc + Number(e.amount), 0);
    expect(sum).toBeCloseTo(Number(await balance(p)), 2);
  });

  it('trades list: limit bounds, newest first, cursor walk, unknown and malformed cursors, date filters', async () => {
    const p = byName('pools-05');
    const made: string[] = [];
    for (let i = 0; i < 3; i++) made.push((await transact(p, (await firmQuote(p)).quoteId)).body.transactId);
    for (const limit of ['0', '101', 'x']) expectError(await call('GET', `/pools/trades?limit=${limit}`, { key: p.secretKey }), 400, 'invalid_limit');
    const page1 = await call('GET', '/pools/trades?limit=2', { key: p.secretKey });
    expect(page1.body.data.map((t: any) => t.transactId)).toEqual([made[2], made[1]]);
    expect(page1.body.hasMore).toBe(true);
    const page2 = await call('GET', `/pools/trades?limit=2&cursor=${page1.body.nextCursor}`, { key: p.secretKey });
    expect(page2.body).toMatchObject({ hasMore: false, nextCursor: null });
    expect(page2.body.data.map((t: any) => t.transactId)).toEqual([made[0]]);
    expect((await call('GET', '/pools/trades?cursor=ptx_unknown', { key: p.secretKey })).body.data).toEqual([]);
    // The spec fixes no cursor format: a cursor the partner was never handed is unknown, whatever it looks like.
    expect((await call('GET', '/pools/trades?cursor=%25%25', { key: p.secretKey })).body).toMatchObject({ data: [], hasMore: false, nextCursor: null });
    expectError(await call('GET', '/pools/trades?created_after=yesterday', { key: p.secretKey }), 400);
    const first = page2.body.data[0];
    const exact = await call('GET', `/pools/trades?created_after=${first.createdAt}&created_before=${first.createdAt}`, { key: p.secretKey });
    expect(exact.body.data.map((t: any) => t.transactId)).toContain(first.transactId);
  });

  it('balance gate off: balance null, funding 404; funding EUR only', async () => {
    const off = byName('pools-nogate');
    expect(await balance(off)).toBeNull();
    expectError(await call('GET', '/pools/funding', { key: off.secretKey }), 404);
    expect((await call('GET', '/pools/funding', { key: funded.secretKey })).body).toMatchObject({ currency: 'EUR' });
    expectError(await call('GET', '/pools/funding?currency=USD', { key: funded.secretKey }), 400);
  });

  it('terminal trades fire signed webhooks; reserved and returned do not', async () => {
    const received: { headers: Record<string, string | string[] | undefined>; body: string }[] = [];
    const server: Server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        received.push({ headers: req.headers, body });
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const p = byName('pools-06');
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
      expect((await call('PUT', '/_sandbox/webhook-settings', { key: p.secretKey, body: { webhook_url: url } })).status).toBe(200);
      const q = await firmQuote(p);
      await transact(p, q.quoteId);
      await new Promise((r) => setTimeout(r, 100));
      expect(received).toHaveLength(0);
      await call('POST', `/_sandbox/trades/${q.quoteId}/outcome`, { key: p.secretKey, body: { outcome: 'failed' } });
      expect((await call('GET', `/pools/transactions/${q.quoteId}`, { key: p.secretKey })).body.status).toBe('failed');
      for (let i = 0; i < 50 && received.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
      expect(received).toHaveLength(1);
      const ev = JSON.parse(received[0]!.body);
      expect(ev).toMatchObject({ type: 'pool.transaction.failed', data: { quoteId: q.quoteId, status: 'failed' } });
      const sig = String(received[0]!.headers['gate-signature']);
      const t = /t=(\d+)/.exec(sig)![1]!;
      const v1 = /v1=([0-9a-f]+)/.exec(sig)![1]!;
      expect(v1).toBe(createHmac('sha256', p.webhookSecret!).update(`${t}.${received[0]!.body}`).digest('hex'));
    } finally {
      server.close();
    }
  });
});
