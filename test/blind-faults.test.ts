// The blind sequence faults (src/reference/{gate,pools}/blindFaults.ts) are real: each drives the embedded target over
// HTTP through the short sequence that exposes its fault, and the documented rule holds with the fault off and breaks
// with it on. No single request of a sequence shows the fault; the rule is judged on what the sequence's last reads
// answer. (This is about the reference, not the explorer.)
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadProfile } from '../src/profile/load.js';
import type { GatePartner, PoolsPartner, Profile } from '../src/profile/schema.js';
import { BLIND_GATE_FAULTS } from '../src/reference/gate/blindFaults.js';
import { BLIND_POOLS_FAULTS } from '../src/reference/pools/blindFaults.js';
import { startReference, type RunningReference } from '../src/reference/server.js';

const base = loadProfile('fixtures/profiles/embedded.json');
const profile: Profile = { ...base, reference: { ...base.reference!, rateLimits: false } };
const gateP = (n: string): GatePartner => profile.gate.partners.find((p) => p.name === n)!;
const poolsP = (n: string): PoolsPartner => profile.pools!.partners.find((p) => p.name === n)!;
const ADDR = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';

interface Res {
  status: number;
  body: any;
}

/** Webhook deliveries the receiver took, by path. */
const received = new Map<string, any[]>();
let receiver: Server;
let receiverUrl: string;

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const list = received.get(req.url ?? '') ?? [];
      list.push(JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null'));
      received.set(req.url ?? '', list);
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((r) => receiver.close(r));
});

/** One running target and calls against its two sandbox bases. */
class Target {
  constructor(readonly ref: RunningReference) {}

  async call(url: string, method: string, path: string, opts: { key: string; body?: unknown; idem?: string; headers?: Record<string, string> }): Promise<Res> {
    const headers: Record<string, string> = { authorization: `Bearer ${opts.key}`, ...(opts.headers ?? {}) };
    if (opts.idem) headers['idempotency-key'] = opts.idem;
    if (opts.body !== undefined) headers['content-type'] = 'application/json';
    const r = await fetch(`${url}${path}`, { method, headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body) });
    const text = await r.text();
    return { status: r.status, body: text ? JSON.parse(text) : undefined };
  }

  gate(method: string, path: string, opts: { partner?: string; body?: unknown; idem?: string; headers?: Record<string, string>; key?: string } = {}) {
    return this.call(this.ref.urls.gateSandbox, method, path, { key: opts.key ?? gateP(opts.partner ?? 'gate-01').secretKey, ...opts });
  }

  pools(method: string, path: string, opts: { partner?: string; body?: unknown; idem?: string } = {}) {
    return this.call(this.ref.urls.poolsSandbox, method, path, { key: poolsP(opts.partner ?? 'pools-01').secretKey, ...opts });
  }

  async session(partner = 'gate-01'): Promise<any> {
    const body = { amount: '25.00', currency: 'EUR', return_url: 'https://shop.example.test/done' };
    const r = await this.gate('POST', '/gate_sessions', { partner, body, idem: randomUUID() });
    expect(r.status).toBe(201);
    return r.body;
  }

  async signedQuote(sessionId: string, side: 'on_ramp' | 'off_ramp'): Promise<any> {
    const r = await this.gate('POST', '/quotes', { body: { gate_session_id: sessionId, side } });
    expect(r.status).toBe(201);
    return r.body;
  }

  async customer(n: string, extra: Record<string, unknown> = {}): Promise<Res> {
    return this.gate('POST', '/customers', { body: { external_id: `ext-${n}`, email: `${n}@blind.example.test`, phone: '+491510000000', ...extra } });
  }

  async poolsQuote(partner = 'pools-01', pool = 'EUR-USDT'): Promise<any> {
    const body = { side: 'on_ramp', fiatCurrency: 'EUR', cryptoCurrency: pool.split('-')[1], amount: '100.00', cryptoNetwork: 'ethereum', destAddress: ADDR };
    const r = await this.pools('POST', `/pools/${pool}/quote`, { partner, body });
    expect(r.status).toBe(201);
    return r.body;
  }

  async transact(quoteId: string, idem: string = randomUUID(), partner = 'pools-01', pool = 'EUR-USDT'): Promise<Res> {
    return this.pools('POST', `/pools/${pool}/transact`, { partner, body: { quoteId }, idem });
  }

  poll(quoteId: string, partner = 'pools-01'): Promise<Res> {
    return this.pools('GET', `/pools/transactions/${quoteId}`, { partner });
  }
}

/** One fault's sequence: it answers whether the documented rule held, and what the sequence saw. */
type Sequence = (t: Target) => Promise<{ holds: boolean; seen: unknown }>;

const ids = (r: Res) => (r.body.data as { id: string }[]).map((d) => d.id);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const SEQUENCES: Record<string, Sequence> = {
  // bootstrap with the client_secret → the linked buy completes → refresh: refused (the session is not open).
  async 'seq-blind-embed-refresh-after-completion'(t) {
    const s = await t.session();
    const p = gateP('gate-01');
    const boot = await t.gate('POST', '/embed/bootstrap', {
      key: p.publishableKey,
      headers: { origin: p.allowedOrigins![0]! },
      body: { clientSecret: s.client_secret },
    });
    expect(boot.status).toBe(200);
    expect((await t.gate('POST', `/_sandbox/gate_sessions/${s.id}/complete`, { body: {} })).status).toBe(200);
    const refresh = await t.gate('POST', '/embed/refresh', { headers: { 'x-embed-token': boot.body.embed_token } });
    return { holds: refresh.status >= 400 && refresh.status < 500, seen: refresh.status };
  },

  // create with a key → cancel → the same create again: the original response (the same session).
  async 'seq-blind-sess-replay-new-after-cancel'(t) {
    const key = randomUUID();
    const body = { amount: '30.00', currency: 'EUR', return_url: 'https://shop.example.test/done' };
    const first = await t.gate('POST', '/gate_sessions', { body, idem: key });
    expect((await t.gate('POST', `/gate_sessions/${first.body.id}/cancel`)).status).toBe(200);
    const again = await t.gate('POST', '/gate_sessions', { body, idem: key });
    return { holds: again.body.id === first.body.id, seen: { first: first.body.id, again: again.body.id, status: again.body.status } };
  },

  // create with a key → PATCH → the same create again → read: the patched customer.
  async 'seq-blind-cust-replay-reprimes-cache'(t) {
    const n = randomUUID();
    const body = { external_id: `ext-${n}`, email: `${n}@blind.example.test`, phone: '+491510000000', first_name: 'Before' };
    const key = randomUUID();
    const c = await t.gate('POST', '/customers', { body, idem: key });
    expect(c.status).toBe(201);
    expect((await t.gate('PATCH', `/customers/${c.body.id}`, { body: { first_name: 'After' } })).status).toBe(200);
    expect((await t.gate('POST', '/customers', { body, idem: key })).body.id).toBe(c.body.id);
    const read = await t.gate('GET', `/customers/${c.body.id}`);
    return { holds: read.body.first_name === 'After', seen: read.body.first_name };
  },

  // create → patch → create with another email and the same external_id: 409.
  async 'seq-blind-cust-external-id-freed-by-patch'(t) {
    const n = randomUUID();
    const a = await t.customer(`a-${n}`, { external_id: `ext-${n}` });
    expect((await t.gate('PATCH', `/customers/${a.body.id}`, { body: { first_name: 'Ada' } })).status).toBe(200);
    const dup = await t.customer(`b-${n}`, { external_id: `ext-${n}` });
    return { holds: dup.status === 409, seen: dup.status };
  },

  // list → a new delivery → skip=1: the unskipped list from its second delivery on.
  async 'seq-blind-whops-skip-stale-snapshot'(t) {
    const partner = 'gate-03';
    const set = await t.gate('PATCH', '/dashboard/webhook-settings', { partner, body: { webhook_url: `${receiverUrl}/gate-03` } });
    expect(set.status).toBe(200);
    for (let i = 0; i < 3; i++) expect((await t.gate('POST', '/webhooks/test', { partner })).status).toBe(201);
    expect((await t.gate('GET', '/webhooks/deliveries', { partner })).status).toBe(200);
    expect((await t.gate('POST', '/webhooks/test', { partner })).status).toBe(201);
    const skipped = await t.gate('GET', '/webhooks/deliveries?skip=1', { partner });
    const whole = await t.gate('GET', '/webhooks/deliveries', { partner });
    return { holds: JSON.stringify(ids(skipped)) === JSON.stringify(ids(whole).slice(1)), seen: { skipped: ids(skipped), whole: ids(whole) } };
  },

  // pay-in A → pay-in B on the same session → A's request again: A's original answer.
  async 'seq-blind-rail-payin-replay-latest-of-session'(t) {
    const s = await t.session();
    const [qa, qb] = [await t.signedQuote(s.id, 'on_ramp'), await t.signedQuote(s.id, 'on_ramp')];
    const [ka, kb] = [randomUUID(), randomUUID()];
    const a = await t.gate('POST', '/rails/pay_ins', { body: { gate_session_id: s.id, quote_id: qa.id }, idem: ka });
    expect(a.status).toBe(201);
    expect((await t.gate('POST', '/rails/pay_ins', { body: { gate_session_id: s.id, quote_id: qb.id }, idem: kb })).status).toBe(201);
    const replay = await t.gate('POST', '/rails/pay_ins', { body: { gate_session_id: s.id, quote_id: qa.id }, idem: ka });
    return { holds: replay.body.id === a.body.id, seen: { a: a.body.id, replay: replay.body.id } };
  },

  // pay-out A → the same key with another body (409) → A's request again: the original pay-out.
  async 'seq-blind-rail-payout-key-keeps-last-body'(t) {
    const s = await t.session();
    const [qa, qb] = [await t.signedQuote(s.id, 'off_ramp'), await t.signedQuote(s.id, 'off_ramp')];
    const key = randomUUID();
    const a = await t.gate('POST', '/rails/pay_outs', { body: { gate_session_id: s.id, quote_id: qa.id }, idem: key });
    expect(a.status).toBe(201);
    expect((await t.gate('POST', '/rails/pay_outs', { body: { gate_session_id: s.id, quote_id: qb.id }, idem: key })).status).toBe(409);
    const replay = await t.gate('POST', '/rails/pay_outs', { body: { gate_session_id: s.id, quote_id: qa.id }, idem: key });
    return { holds: replay.status < 300 && replay.body.id === a.body.id, seen: { status: replay.status, a: a.body.id, replay: replay.body.id } };
  },

  // read → a PATCH refused 400 (a good token beside a bad one) → read: unchanged.
  async 'seq-blind-brand-refused-patch-cached'(t) {
    const partner = 'gate-02';
    const before = await t.gate('GET', '/branding', { partner });
    const refused = await t.gate('PATCH', '/branding', { partner, body: { brand_name: `Blind ${randomUUID().slice(0, 8)}`, primary_color: 'red' } });
    expect(refused.status).toBe(400);
    const after = await t.gate('GET', '/branding', { partner });
    return { holds: after.body.brand_name === before.body.brand_name, seen: { before: before.body.brand_name, after: after.body.brand_name } };
  },

  // transact → released by the poll → the stored quote: still consumed.
  async 'seq-blind-pools-release-reopens-quote'(t) {
    const q = await t.poolsQuote();
    expect((await t.transact(q.quoteId)).status).toBe(201);
    expect((await t.pools('POST', `/_sandbox/trades/${q.quoteId}/outcome`, { body: { outcome: 'released' } })).status).toBe(200);
    expect((await t.poll(q.quoteId)).body.status).toBe('released');
    const stored = await t.pools('GET', `/pools/quotes/${q.quoteId}`);
    return { holds: stored.body.status === 'consumed' && stored.body.consumedAt !== null, seen: stored.body.status };
  },

  // balance through EUR-USDC → a transact in EUR-USDT → balance through EUR-USDC: the one balance, drawn.
  async 'seq-blind-pools-balance-cached-per-pool'(t) {
    const partner = 'pools-03';
    const through = async (pool: string) => (await t.pools('GET', `/pools/${pool}/balance`, { partner })).body.balance as string;
    const before = await through('EUR-USDC');
    const q = await t.poolsQuote(partner);
    expect((await t.transact(q.quoteId, randomUUID(), partner)).status).toBe(201);
    const [other, own] = [await through('EUR-USDC'), await through('EUR-USDT')];
    return { holds: other === own && Number(other) < Number(before), seen: { before, other, own } };
  },

  // a ledger read → a pay-in → the page ending at the pay-in → its next cursor: the entries after it.
  async 'seq-blind-pools-ledger-cursor-misses-payins'(t) {
    const partner = 'pools-04';
    expect((await t.pools('GET', '/pools/ledger', { partner })).status).toBe(200);
    expect((await t.pools('POST', '/_sandbox/payins', { partner, body: { amount: '5.00', currency: 'EUR' } })).status).toBe(200);
    const first = await t.pools('GET', '/pools/ledger?limit=1', { partner });
    expect(first.body.data[0].type).toBe('payin_credit');
    expect(first.body.hasMore).toBe(true);
    const next = await t.pools('GET', `/pools/ledger?limit=1&cursor=${first.body.nextCursor}`, { partner });
    return { holds: ids(next).length === 1 && !ids(next).includes(ids(first)[0]!), seen: { first: ids(first), next: ids(next) } };
  },

  // settle → read the trade → poll again: still one settled event, one eventId.
  async 'seq-blind-pools-trade-read-refires-settled'(t) {
    const partner = 'pools-05';
    const path = `/pools-05-${randomUUID()}`;
    expect((await t.pools('PUT', '/_sandbox/webhook-settings', { partner, body: { webhook_url: `${receiverUrl}${path}` } })).status).toBe(200);
    const q = await t.poolsQuote(partner);
    const trade = await t.transact(q.quoteId, randomUUID(), partner);
    expect((await t.poll(q.quoteId, partner)).body.status).toBe('settled');
    expect((await t.pools('GET', `/pools/trades/${trade.body.transactId}`, { partner })).status).toBe(200);
    await t.poll(q.quoteId, partner);
    await sleep(300);
    const settled = (received.get(path) ?? []).filter((e) => e.type === 'pool.transaction.settled');
    return { holds: new Set(settled.map((e) => e.eventId)).size === 1, seen: settled.map((e) => e.eventId) };
  },

  // returned outcome: settle → read the trade → the poll finds the return → read the trade: returned.
  async 'seq-blind-pools-trade-read-cache-misses-return'(t) {
    const q = await t.poolsQuote();
    expect((await t.pools('POST', `/_sandbox/trades/${q.quoteId}/outcome`, { body: { outcome: 'returned' } })).status).toBe(200);
    const trade = await t.transact(q.quoteId);
    expect((await t.poll(q.quoteId)).body.status).toBe('settled');
    expect((await t.pools('GET', `/pools/trades/${trade.body.transactId}`)).body.status).toBe('settled');
    expect((await t.poll(q.quoteId)).body.status).toBe('returned');
    const read = await t.pools('GET', `/pools/trades/${trade.body.transactId}`);
    return { holds: read.body.status === 'returned', seen: read.body.status };
  },

  // transact with a key → the poll settles it → the same key with another quote: 409.
  async 'seq-blind-pools-key-freed-at-settlement'(t) {
    const key = randomUUID();
    const q1 = await t.poolsQuote();
    expect((await t.transact(q1.quoteId, key)).status).toBe(201);
    expect((await t.poll(q1.quoteId)).body.status).toBe('settled');
    const q2 = await t.poolsQuote();
    const reused = await t.transact(q2.quoteId, key);
    return { holds: reused.status === 409, seen: reused.status };
  },

  // transact → the poll settles it → created_before its own createdAt: it is listed (inclusive).
  async 'seq-blind-pools-trades-date-touched-by-poll'(t) {
    const q = await t.poolsQuote();
    const trade = await t.transact(q.quoteId);
    await sleep(20);
    expect((await t.poll(q.quoteId)).body.status).toBe('settled');
    const at = encodeURIComponent(trade.body.createdAt);
    const list = await t.pools('GET', `/pools/trades?created_before=${at}&limit=100`);
    const listed = (list.body.data as { transactId: string }[]).some((x) => x.transactId === trade.body.transactId);
    return { holds: listed, seen: list.body.data.length };
  },
};

const FAULTS = [...BLIND_GATE_FAULTS, ...BLIND_POOLS_FAULTS];
let clean: Target;

beforeAll(async () => {
  clean = new Target(await startReference({ profile, ephemeralPorts: true }));
});
afterAll(async () => {
  await clean?.ref.close();
});

describe('blind sequence faults', () => {
  it('every blind fault is an explore fault with a sequence here, at least five per service', () => {
    expect(Object.keys(SEQUENCES).sort()).toEqual(FAULTS.map((f) => f.name).sort());
    for (const f of FAULTS) {
      expect(f.suite).toBe('explore');
      expect(f.name.startsWith('seq-blind-')).toBe(true);
      expect(f.description.startsWith('Sequence: ')).toBe(true);
    }
    expect(BLIND_GATE_FAULTS.length).toBeGreaterThanOrEqual(5);
    expect(BLIND_POOLS_FAULTS.length).toBeGreaterThanOrEqual(5);
  });

  for (const f of FAULTS) {
    it(`${f.name}: the rule holds with it off and breaks with it on`, async () => {
      const off = await SEQUENCES[f.name]!(clean);
      expect(off.holds, `fault off: ${JSON.stringify(off.seen)}`).toBe(true);
      const on = new Target(await startReference({ profile, faults: [f.name], ephemeralPorts: true }));
      try {
        const seen = await SEQUENCES[f.name]!(on);
        expect(seen.holds, `fault on: ${JSON.stringify(seen.seen)}`).toBe(false);
      } finally {
        await on.ref.close();
      }
    });
  }
});
