// The pools side of the dialect world (every open point of src/model/openPoints/pools at its second choice), over
// HTTP with plain fetch: the reference really takes each choice the harness must then accept — another pair spelling,
// trimmed money, whole-second stamps, bare UUIDs, 200 for a firm quote and transact, transact's three fields, a poll
// that answers its status alone and settles on the second poll, 409 on a consumed quote under a new key, the
// funding instructions as an object and no IBAN, a lean ledger paged with ?after=, the pool checked before the
// access state, a throttle past 20 requests a second, a base below /pools/v1 — and the profile says what the
// sandbox documents of itself (its ledger words, its retry policy, its controls' words), never the opening balance.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Profile } from '../src/profile/schema.js';
import type { RunningReference } from '../src/reference/server.js';
import { startDialect } from './support/embedded.js';

let ref: RunningReference;
let profile: Profile;
let key: string;

beforeAll(async () => {
  ref = await startDialect('everywhere');
  profile = ref.profile;
  key = profile.pools!.partners.find((p) => p.state === 'funded' && p.balanceGate)!.secretKey;
});
afterAll(async () => {
  await ref?.close();
});

async function call(method: string, path: string, opts: { body?: unknown; idem?: string; as?: string } = {}) {
  const headers: Record<string, string> = { authorization: `Bearer ${opts.as ?? key}` };
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  if (opts.idem) headers['idempotency-key'] = opts.idem;
  const r = await fetch(`${ref.urls.poolsSandbox}${path}`, { method, headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body) });
  const text = await r.text();
  return { status: r.status, body: text ? JSON.parse(text) : undefined };
}

const quote = () => call('POST', `/pools/${profile.pools!.pools.main}/quote`, { body: { side: 'on_ramp', type: 'firm', ...profile.pools!.quote } });

describe('the pools dialect world', () => {
  it('its base is below /pools/v1; the profile declares the ledger words, the retry policy and the controls, not the opening balance', () => {
    expect(ref.urls.poolsSandbox).toMatch(/\/pools\/v1$/);
    expect(profile.pools!.ledgerPaging).toMatchObject({ cursorParam: 'after', nextCursor: 'next', entries: 'entries' });
    expect(profile.pools!.webhookRetry).toEqual({ attempts: 4, scheduleSeconds: [120, 600, 3600] });
    expect(profile.pools!.webhookSignature).toBeUndefined();
    expect(profile.pools!.triggers!.poolState!.values?.state).toMatchObject({ pool_dry: 'dry', engine_unavailable: 'engine_down' });
    expect(profile.reference!.poolsOpeningBalance).toBe('25000.00');
  });

  it('a pool lists another pair spelling; capabilities other EVM networks and bounds', async () => {
    const pools = await call('GET', '/pools');
    expect(pools.body.pools.find((p: { id: string }) => p.id === 'EUR-USDT')).toMatchObject({ pair: 'EUR/USDT' });
    const cap = await call('GET', '/pools/EUR-USDT/capabilities');
    expect(cap.body).toMatchObject({ pair: 'EUR/USDT', supportedNetworks: ['polygon', 'arbitrum', 'base'], minOrderUsdt: '5', maxOrderUsdt: '2000000' });
  });

  it('a firm quote answers 200 with the shown fields only, trimmed, and stamps whole seconds; its id is a UUID', async () => {
    const q = await quote();
    expect(q.status).toBe(200);
    expect(q.body.quoteId).toMatch(/^[0-9a-f-]{36}$/);
    expect(q.body.expiresAt).toMatch(/:\d{2}\+00:00$/);
    expect(q.body.rate).not.toMatch(/\.\d*0$/);
    expect(q.body).not.toHaveProperty('fiatAmount');
    const stored = await call('GET', `/pools/quotes/${q.body.quoteId}`);
    expect(stored.body.fiatAmount).toBe('100');
  });

  it('transact answers 200 with three fields; a consumed quote under a new key gives 409; the poll answers its status alone and settles on the second poll', async () => {
    const q = await quote();
    const tx = await call('POST', `/pools/${profile.pools!.pools.main}/transact`, { body: { quoteId: q.body.quoteId }, idem: 'k1' });
    expect(tx.status).toBe(200);
    expect(Object.keys(tx.body).sort()).toEqual(['quoteId', 'status', 'transactId']);
    expect((await call('POST', `/pools/${profile.pools!.pools.main}/transact`, { body: { quoteId: q.body.quoteId }, idem: 'k2' })).status).toBe(409);
    expect((await call('GET', `/pools/transactions/${q.body.quoteId}`)).body).toEqual({ status: 'reserved' });
    expect((await call('GET', `/pools/transactions/${q.body.quoteId}`)).body).toEqual({ status: 'settled' });
  });

  it('funding instructions are an object and the IBAN is not provisioned; the ledger is lean and pages with ?after=', async () => {
    const funding = await call('GET', '/pools/funding');
    expect(funding.body.iban).toBeNull();
    expect(typeof funding.body.instructions).toBe('object');
    const ledger = await call('GET', '/pools/ledger?limit=1');
    expect(ledger.body).toHaveProperty('entries');
    expect(ledger.body.entries[0]).not.toHaveProperty('balanceAfter');
  });

  it('a 400 carries its type as its code; past 20 requests a second a key is throttled (429, Retry-After)', async () => {
    const bad = await call('POST', `/pools/${profile.pools!.pools.main}/quote`, { body: { side: 'sideways' } });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('invalid_request');
    expect(bad.body.message).not.toContain('; ');
    const burst = await Promise.all(Array.from({ length: 30 }, () => call('GET', '/pools/funding')));
    expect(burst.some((r) => r.status === 429 && r.body.type === 'rate_limited')).toBe(true);
  });
});
