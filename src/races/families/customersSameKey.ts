// Customers: one Idempotency-Key and body, three creates at once. A serial order makes one customer and replays it
// (the same id); a create that checks the key and the identity and writes them a round trip later makes three, all
// of one email. After the burst the list holds the round's email once.
import { defineFamily, familyFile, type AnswerRule, type RaceObjects } from '../family.js';
import { countCustomers, CUSTOMER_CREATED_RELATIONS, customerBody } from './gateSteps.js';

const REPLAY: AnswerRule = {
  outcome: { requirement: { '2xx': 'GATE-CUST-IDEMPOTENT-REPLAY', 409: 'GATE-CUST-IDEMPOTENT-REPLAY' } },
  relations: CUSTOMER_CREATED_RELATIONS,
  requirementOf: { id: 'GATE-CUST-IDEMPOTENT-REPLAY' },
};

export default defineFamily<RaceObjects & { body: Record<string, unknown> }>({
  id: 'customers-same-key',
  file: familyFile(import.meta.url),
  name: 'races, customers: one Idempotency-Key and body sent three times at once makes one customer, each answer the original',
  service: 'gate',
  requirements: ['GATE-CUST-IDEMPOTENT-REPLAY'],
  partner: { gate: 'gatePartner' },
  cost: { write30: 3, read60: 1 },
  async setup(side, round) {
    return { refs: {}, body: customerBody(side.profile, round, 1) };
  },
  burst(o, round) {
    return [1, 2, 3].map((n) => ({
      service: 'gate' as const,
      label: `POST /customers (the one key, send ${n})`,
      request: { method: 'POST' as const, path: '/customers', body: o.body, idempotencyKey: round.keys[0]! },
    }));
  },
  rule: () => REPLAY,
  async after(side, o) {
    const { exchange, count } = await countCustomers(side, 'email', String(o.body.email));
    return [
      {
        label: "customers holding the round's email in the list",
        exchange,
        rule: { outcome: { requirement: {} } },
        value: count,
        valueRule: 'GATE-CUST-IDEMPOTENT-REPLAY',
      },
    ];
  },
});
