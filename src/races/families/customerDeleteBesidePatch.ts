// Customers: DELETE beside PATCH of one customer. In a serial order either the PATCH lands first (both 200, the
// customer then deleted) or the DELETE does (its marker, the PATCH 404); either way the customer reads 404 after.
// A PATCH that reads the record and writes it whole a round trip later brings a customer deleted in between back.
import { GATE_CUSTOMER_RELATIONS, GATE_DELETED_CUSTOMER_RELATIONS } from '../../model/schemas/gate/customers.js';
import { expectOk } from '../expectStep.js';
import { defineFamily, familyFile, type AnswerRule, type RaceObjects } from '../family.js';
import { customerBody, customerIdOf } from './gateSteps.js';

const path = (id: string) => `/customers/${encodeURIComponent(id)}`;

const RULES: AnswerRule[] = [
  { outcome: { requirement: { '2xx': 'GATE-CUST-PATCH-SET', 404: 'GATE-CUST-DELETED-404' } }, relations: GATE_CUSTOMER_RELATIONS },
  { outcome: { requirement: { '2xx': 'GATE-CUST-DELETE-MARKER' } }, relations: GATE_DELETED_CUSTOMER_RELATIONS },
];

export default defineFamily<RaceObjects & { id: string }>({
  id: 'customer-delete-beside-patch',
  file: familyFile(import.meta.url),
  name: 'races, customers: a DELETE beside a PATCH of one customer leaves it deleted, whichever lands first',
  service: 'gate',
  requirements: ['GATE-CUST-DELETED-404'],
  partner: { gate: 'gatePartner' },
  cost: { write30: 3, read60: 1 },
  async setup(side, round) {
    const body = customerBody(side.profile, round, 1);
    const ex = await side.send('create the customer', 'gate', { method: 'POST', path: '/customers', body, idempotencyKey: round.keys.at(-1)! });
    expectOk(side, ex, 'GATE-CUST-CREATE', 'POST /customers');
    const id = await customerIdOf(side, ex, String(body.email));
    return { refs: { customer: id }, id };
  },
  burst(o) {
    return [
      { service: 'gate', label: 'PATCH /customers/{id} (first_name)', request: { method: 'PATCH', path: path(o.id), body: { first_name: 'Grace' } } },
      { service: 'gate', label: 'DELETE /customers/{id}', request: { method: 'DELETE', path: path(o.id) } },
    ];
  },
  rule: (i) => RULES[i]!,
  async after(side, o) {
    const exchange = await side.send('read the customer after the burst', 'gate', { method: 'GET', path: path(o.id) });
    return [
      { label: 'the customer read after the burst', exchange, rule: { outcome: { requirement: { '2xx': 'GATE-CUST-GET', 404: 'GATE-CUST-DELETED-404' } } } },
    ];
  },
});
