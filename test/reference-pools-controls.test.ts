// The embedded pools target's profile-driven richness: live keys issued at
// start (reference.poolsLiveKeysFor), revoked keys, the provisioned tier, an
// unprovisioned IBAN, and the sandbox controls behind pools.triggers.poolState
// and pools.triggers.balanceCredit — exercised over HTTP with plain fetch.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadProfile } from '../src/profile/load.js';
import type { PoolsPartner } from '../src/profile/schema.js';
import { issuePoolsLiveKeys } from '../src/reference/pools/liveKeys.js';
import { startReference, type RunningReference } from '../src/reference/server.js';

const base = loadProfile('fixtures/profiles/embedded.json');
const prefix = base.reference!.helperPrefix;
let ref: RunningReference;
let partners: PoolsPartner[];
const byName = (n: string) => partners.find((p) => p.name === n)!;

beforeAll(async () => {
  ref = await startReference({ profile: base, ephemeralPorts: true });
  partners = ref.profile.pools!.partners;
});
afterAll(async () => {
  await ref?.close();
});

async function call(method: string, path: string, key: string, opts: { body?: unknown; url?: string } = {}) {
  const headers: Record<string, string> = { authorization: `Bearer ${key}` };
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  const r = await fetch(`${opts.url ?? ref.urls.poolsSandbox}${path}`, {
    method,
    headers,
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
  });
  const text = await r.text();
  return { status: r.status, body: text ? JSON.parse(text) : undefined };
}

describe('pools live keys issued by the embedded target', () => {
  it('only to the partners named in reference.poolsLiveKeysFor: live format, the same on every start', () => {
    const named = base.reference!.poolsLiveKeysFor;
    expect(named.length).toBeGreaterThan(0);
    const a = issuePoolsLiveKeys(base);
    const b = issuePoolsLiveKeys(loadProfile('fixtures/profiles/embedded.json'));
    for (const p of a.pools!.partners) {
      if (named.includes(p.name)) {
        expect(p.liveSecretKey).toMatch(/^sk_live_[A-Za-z0-9]{32}$/);
        expect(p.liveSecretKey).toBe(b.pools!.partners.find((x) => x.name === p.name)!.liveSecretKey);
      } else expect(p.liveSecretKey).toBeUndefined();
    }
  });

  it('refuses a name that is no pools partner', () => {
    const bad = { ...base, reference: { ...base.reference!, poolsLiveKeysFor: ['pools-99'] } };
    expect(() => issuePoolsLiveKeys(bad)).toThrow(/reference\.poolsLiveKeysFor names pools-99, not a pools partner/);
  });

  it('a live key works on production and gets 403 key_mode_mismatch on the sandbox; a revoked key gets 401', async () => {
    const live = partners.find((p) => p.liveSecretKey)!;
    expect((await call('GET', '/pools', live.liveSecretKey!, { url: ref.urls.poolsProduction })).status).toBe(200);
    const onSandbox = await call('GET', '/pools', live.liveSecretKey!);
    expect([onSandbox.status, onSandbox.body.code]).toEqual([403, 'key_mode_mismatch']);
    const revoked = partners.find((p) => p.revokedSecretKey)!;
    expect((await call('GET', '/pools/trades', revoked.revokedSecretKey!)).status).toBe(401);
    expect((await call('GET', '/pools/trades', revoked.secretKey)).status).toBe(200);
  });
});

describe('pools partner traits and sandbox controls', () => {
  it('tier comes from the profile; an unprovisioned IBAN is null', async () => {
    const p = byName('pools-01');
    expect((await call('GET', '/pools/EUR-USDT/capabilities', p.secretKey)).body.tier).toBe(p.tier);
    expect((await call('GET', '/pools/EUR-USDT/balance', p.secretKey)).body.tier).toBe(p.tier);
    const unprovisioned = partners.find((x) => x.ibanProvisioned === false)!;
    expect((await call('GET', '/pools/funding', unprovisioned.secretKey)).body.iban).toBeNull();
    expect(typeof (await call('GET', '/pools/funding', p.secretKey)).body.iban).toBe('string');
  });

  it('a pool state applies to the calling partner only, and back', async () => {
    const [a, b] = [byName('pools-05'), byName('pools-06')];
    const quote = {
      side: 'on_ramp',
      fiatCurrency: 'EUR',
      cryptoCurrency: 'USDT',
      amount: '50.00',
      cryptoNetwork: 'ethereum',
      destAddress: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    };
    expect((await call('POST', `${prefix}/pools/EUR-USDT/state`, a.secretKey, { body: { state: 'rate_unavailable' } })).status).toBe(200);
    const un = await call('POST', '/pools/EUR-USDT/quote', a.secretKey, { body: quote });
    expect([un.status, un.body.available, un.body.unavailableReason]).toEqual([200, false, 'rate_unavailable']);
    expect((await call('GET', '/pools', a.secretKey)).body.pools.find((x: { id: string }) => x.id === 'EUR-USDT').available).toBe(false);
    expect((await call('POST', '/pools/EUR-USDT/quote', b.secretKey, { body: quote })).body.executable).toBe(true);
    await call('POST', `${prefix}/pools/EUR-USDT/state`, a.secretKey, { body: { state: 'available' } });
    expect((await call('POST', '/pools/EUR-USDT/quote', a.secretKey, { body: quote })).body.executable).toBe(true);
    expect((await call('POST', `${prefix}/pools/EUR-USDT/state`, a.secretKey, { body: { state: 'closed' } })).status).toBe(400);
    expect((await call('POST', `${prefix}/pools/EUR-USDT/state`, a.secretKey, { body: { state: 'available' }, url: ref.urls.poolsProduction })).status).toBe(
      403,
    );
  });

  it('a pay-in credits the balance and shows as payin_credit', async () => {
    const p = byName('pools-07');
    const before = (await call('GET', '/pools/EUR-USDT/balance', p.secretKey)).body.balance;
    expect((await call('POST', `${prefix}/payins`, p.secretKey, { body: { amount: '12.34', currency: 'EUR' } })).status).toBe(200);
    const after = (await call('GET', '/pools/EUR-USDT/balance', p.secretKey)).body.balance;
    expect(Math.round((Number(after) - Number(before)) * 100)).toBe(1234);
    expect((await call('GET', '/pools/ledger', p.secretKey)).body.data[0]).toMatchObject({ type: 'payin_credit', amount: '12.34' });
    expect((await call('POST', `${prefix}/payins`, p.secretKey, { body: { amount: 'ten' } })).status).toBe(400);
  });
});
