// Property: however concurrent create/replay operations interleave, each
// Idempotency-Key yields exactly one session, every replay with the same body
// returns that session, and a different body under a used key is 409.
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadProfile } from '../src/profile/load.js';
import type { Profile } from '../src/profile/schema.js';
import { startReference, type RunningReference } from '../src/reference/server.js';

const base = loadProfile('fixtures/profiles/embedded.json');
const profile: Profile = { ...base, reference: { ...base.reference!, rateLimits: false } };
// Partners without a webhook_url configured: no outbox traffic during the property.
const partners = base.gate.partners.slice(20, 24);

let ref: RunningReference;
beforeAll(async () => {
  ref = await startReference({ profile, ephemeralPorts: true });
});
afterAll(async () => {
  await ref?.close();
});

interface Op {
  partner: number;
  key: number;
  /** Which of two bodies the operation sends. */
  variant: 0 | 1;
}

const opArb: fc.Arbitrary<Op> = fc.record({
  partner: fc.integer({ min: 0, max: partners.length - 1 }),
  key: fc.integer({ min: 0, max: 3 }),
  variant: fc.constantFrom(0 as const, 1 as const),
});

async function create(partner: number, key: string, variant: 0 | 1): Promise<{ status: number; id?: string }> {
  const r = await fetch(`${ref.urls.gateSandbox}/gate_sessions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${partners[partner]!.secretKey}`, 'idempotency-key': key, 'content-type': 'application/json' },
    body: JSON.stringify({ amount: variant === 0 ? '10.00' : '20.00', currency: 'EUR', return_url: 'https://shop.example.test/r' }),
  });
  const body = (await r.json()) as { id?: string };
  return { status: r.status, id: body.id };
}

async function listIds(partner: number): Promise<Set<string>> {
  const ids = new Set<string>();
  let after = '';
  for (let page = 0; page < 1000; page++) {
    const r = await fetch(`${ref.urls.gateSandbox}/gate_sessions?limit=100${after ? `&starting_after=${after}` : ''}`, {
      headers: { authorization: `Bearer ${partners[partner]!.secretKey}` },
    });
    const body = (await r.json()) as { data: Array<{ id: string }>; has_more: boolean };
    for (const s of body.data) ids.add(s.id);
    if (!body.has_more || body.data.length === 0) break;
    after = body.data[body.data.length - 1]!.id;
  }
  return ids;
}

it('one object per (partner, Idempotency-Key) under concurrent random create/replay', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 40 }), async (ops) => {
      // Fresh keys per run so runs do not see each other's objects.
      const keys = Array.from({ length: 4 }, () => crypto.randomUUID());
      const before = await Promise.all(partners.map((_, i) => listIds(i)));
      const results = await Promise.all(ops.map((op) => create(op.partner, keys[op.key]!, op.variant)));

      const winners = new Map<string, { id: string; variant: 0 | 1 }>();
      ops.forEach((op, i) => {
        const r = results[i]!;
        const slot = `${op.partner}/${op.key}`;
        if (r.status === 201) {
          const w = winners.get(slot);
          if (w) {
            expect(r.id).toBe(w.id);
            expect(op.variant).toBe(w.variant);
          } else winners.set(slot, { id: r.id!, variant: op.variant });
        }
      });
      ops.forEach((op, i) => {
        const r = results[i]!;
        const w = winners.get(`${op.partner}/${op.key}`);
        // Every slot used has exactly one winner; losers are the other body's 409s.
        expect(w).toBeDefined();
        if (r.status !== 201) {
          expect(r.status).toBe(409);
          expect(op.variant).not.toBe(w!.variant);
        }
      });
      const after = await Promise.all(partners.map((_, i) => listIds(i)));
      after.forEach((ids, i) => {
        const created = [...ids].filter((id) => !before[i]!.has(id));
        const expected = [...winners.entries()].filter(([slot]) => slot.startsWith(`${i}/`)).map(([, w]) => w.id);
        expect(created.sort()).toEqual(expected.sort());
      });
    }),
    { numRuns: 30 },
  );
});
