// Customers: two creates at once under two Idempotency-Keys, one email (or one external_id) between them. A serial
// order makes one and refuses the other 409 — the identity is unique, a soft-deleted customer's included; a create
// that checks the identity and writes the customer a round trip later lets both through. After the burst the list
// holds the shared identity once.
import type { RequirementId } from '../../model/catalogue/index.js';
import { defineFamily, familyFile, type AnswerRule, type RaceFamily, type RaceObjects } from '../family.js';
import { countCustomers, CUSTOMER_CREATED_RELATIONS, customerBody } from './gateSteps.js';

type Objects = RaceObjects & { bodies: Record<string, unknown>[] };

function oneIdentity(field: 'email' | 'external_id', requirement: RequirementId): RaceFamily {
  const rule: AnswerRule = { outcome: { requirement: { '2xx': 'GATE-CUST-CREATE', 409: requirement } }, relations: CUSTOMER_CREATED_RELATIONS };
  const same = field === 'email' ? { email: true } : { externalId: true };
  return defineFamily<Objects>({
    id: field === 'email' ? 'customers-one-email' : 'customers-one-external-id',
    file: familyFile(import.meta.url),
    name: `races, customers: two creates at once with one ${field} (two keys) make one customer, the other refused 409`,
    service: 'gate',
    requirements: [requirement],
    partner: { gate: 'gatePartner' },
    cost: { write30: 2, read60: 1 },
    async setup(side, round) {
      return { refs: {}, bodies: [1, 2].map((n) => customerBody(side.profile, round, n, same)) };
    },
    burst(o, round) {
      return o.bodies.map((body, i) => ({
        service: 'gate' as const,
        label: `POST /customers (key ${i + 1}, the one ${field})`,
        request: { method: 'POST' as const, path: '/customers', body, idempotencyKey: round.keys[i]! },
      }));
    },
    rule: () => rule,
    async after(side, o) {
      const { exchange, count } = await countCustomers(side, field, String(o.bodies[0]![field]));
      return [
        { label: `customers holding the round's ${field} in the list`, exchange, rule: { outcome: { requirement: {} } }, value: count, valueRule: requirement },
      ];
    },
  });
}

export const customersOneEmail = oneIdentity('email', 'GATE-CUST-DUP-EMAIL-409');
export const customersOneExternalId = oneIdentity('external_id', 'GATE-CUST-DUP-EXTERNAL-ID-409');
