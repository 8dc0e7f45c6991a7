// Customers for checks of every area: a creation body (its accepted fields are
// not shown in the spec: the profile's gate.customerTemplate when given, else
// the Customer fields a partner owns) and POST /customers.
import { randomInt, randomUUID } from 'node:crypto';
import type { GateActor } from '../../src/needs/define.js';
import type { CheckTools, RequirementId } from '../../src/runner/check.js';
import { Customer } from '../../src/model/schemas/gate/customers.js';
import { fillDeep } from '../../src/needs/support/triggers.js';
import { expect2xx } from '../expect.js';

export interface CustomerInput {
  external_id: string;
  email: string;
  phone: string;
  first_name: string | null;
  last_name: string | null;
  country_code: string | null;
  metadata: Record<string, unknown>;
}

/**
 * A creation body with a unique email, external_id and phone, merged over the
 * profile's gate.customerTemplate (fields the target requires beyond these;
 * {{tag}}, {{email}}, {{externalId}}, {{phone}} are filled in).
 */
export function newCustomerInput(t: Pick<CheckTools, 'profile'>, overrides: Partial<CustomerInput> = {}): CustomerInput {
  const tag = randomUUID();
  const own = {
    external_id: `rampart-${tag}`,
    email: `rampart+${tag}@example.test`,
    phone: `+4915${String(randomInt(10_000_000, 99_999_999))}`,
  };
  const template = t.profile.gate.customerTemplate;
  const extra = template ? (fillDeep(template, { tag, email: own.email, externalId: own.external_id, phone: own.phone }) as Record<string, unknown>) : {};
  return {
    first_name: 'Ada',
    last_name: 'Lovelace',
    country_code: 'DE',
    metadata: { rampart: 'conformance', tag },
    ...extra,
    ...own,
    ...overrides,
  } as CustomerInput;
}

/** POST /customers with a fresh Idempotency-Key; the success status is not shown, so any 2xx. */
export async function createCustomer(t: CheckTools, actor: GateActor, requirement: RequirementId, input = newCustomerInput(t)) {
  const ex = await actor.client.post('/customers', input, { idempotencyKey: true });
  expect2xx(t, ex, requirement);
  return { ex, input, customer: t.expect.schema(ex, Customer, requirement) };
}

export const customerPath = (id: string) => `/customers/${encodeURIComponent(id)}`;
