// Property: whatever mix of concurrent transacts (new keys and replays),
// rejects and polls hits a set of quotes, each quote has at most one trade and
// the balance always equals the sum of the partner's ledger entries. The same
// property run against the double-trade seeded fault must find a counterexample.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadProfile } from '../src/profile/load.js';
import { startReference, type RunningReference } from '../src/reference/server.js';

const base = loadProfile('fixtures/profiles/embedded.json');
const partner = base.pools!.partners.find((p) => p.name === 'pools-07')!;
let ref: RunningReference;
let faulty: RunningReference;

beforeAll(async () => {
  ref = await startReference({ profile: base, ephemeralPorts: true });
  faulty = await startReference({ profile: base, ephemeralPorts: true, faults: ['pools-transact-race-double-trade'] });
});
afterAll(async () => {
  await ref?.close();
  await faulty?.close();
});

type Call = (method: string, path: string, body?: unknown, idem?: string) => Promise<{ status: number; body: any }>;

const caller =
  (target: RunningReference): Call =>
  async (method, path, body, idem) => {
    const headers: Record<string, string> = { authorization: `Bearer ${partner.secretKey}` };
    if (idem) headers['idempotency-key'] = idem;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const r = await fetch(`${target.urls.poolsSandbox}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await r.text();
    return { status: r.status, body: text ? JSON.parse(text) : undefined };
  };

const Op = fc.oneof(
  fc.record({ kind: fc.constant('transact' as const), quote: fc.nat(3), key: fc.nat(5) }),
  fc.record({ kind: fc.constant('reject' as const), quote: fc.nat(3) }),
  fc.record({ kind: fc.constant('poll' as const), quote: fc.nat(3) }),
);

function property(call: Call) {
  return fc.asyncProperty(fc.array(Op, { minLength: 4, maxLength: 24 }), fc.constantFrom('settled', 'failed', 'released', 'returned'), async (ops, outcome) => {
    const quotes: string[] = [];
    for (let i = 0; i < 4; i++) {
      const q = await call('POST', '/pools/EUR-USDT/quote', {
        side: 'on_ramp',
        fiatCurrency: 'EUR',
        cryptoCurrency: 'USDT',
        amount: '10.00',
        destAddress: '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed',
      });
      quotes.push(q.body.quoteId);
      await call('POST', `/_sandbox/trades/${q.body.quoteId}/outcome`, { outcome });
    }
    const keys = Array.from({ length: 6 }, () => crypto.randomUUID());
    const results = await Promise.all(
      ops.map((op) => {
        const quoteId = quotes[op.quote]!;
        if (op.kind === 'transact') return call('POST', '/pools/EUR-USDT/transact', { quoteId }, `${keys[op.key]}-${op.quote}`);
        if (op.kind === 'reject') return call('POST', `/pools/quotes/${quoteId}/reject`);
        return call('GET', `/pools/transactions/${quoteId}`);
      }),
    );
    for (const r of results) expect(r.status).toBeLessThan(500);
    for (const quoteId of quotes) {
      const ids = new Set(results.filter((r) => r.body?.quoteId === quoteId && r.body?.transactId).map((r) => r.body.transactId));
      expect(ids.size).toBeLessThanOrEqual(1);
    }
    const all = await call('GET', '/pools/trades?limit=100');
    for (const quoteId of quotes) expect(all.body.data.filter((t: any) => t.quoteId === quoteId).length).toBeLessThanOrEqual(1);
    // Walk the whole ledger and compare with the balance, exactly, in cents.
    let cents = 0n;
    let cursor: string | null = null;
    for (let page = 0; page < 200; page++) {
      const l = await call('GET', `/pools/ledger?limit=100${cursor ? `&cursor=${cursor}` : ''}`);
      for (const e of l.body.data) cents += BigInt(e.amount.replace('.', ''));
      cursor = l.body.nextCursor;
      if (!l.body.hasMore) break;
    }
    const bal = await call('GET', '/pools/EUR-USDT/balance');
    expect(cents).toBe(BigInt(bal.body.balance.replace('.', '')));
  });
}

describe('pools reference: one trade per quote, balance = ledger', () => {
  it('holds under concurrent random operations', async () => {
    await fc.assert(property(caller(ref)), { numRuns: 25 });
  }, 120_000);

  it('finds a counterexample when check and create are not atomic (seeded fault)', async () => {
    const out = await fc.check(property(caller(faulty)), { numRuns: 50 });
    expect(out.failed).toBe(true);
  }, 120_000);
});
