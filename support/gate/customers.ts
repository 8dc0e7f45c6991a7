// Customers for checks of every area: a creation body (its accepted fields are
// not shown in the spec: the profile's gate.customerTemplate when given, else
// the Customer fields a partner owns), POST /customers judged through a read
// (its status and response are not shown) and a bounded search of the list.
import { randomInt, randomUUID } from 'node:crypto';
import type { GateActor } from '../../src/needs/define.js';
import type { CheckTools, RequirementId } from '../../src/runner/check.js';
import type { Exchange } from '../../src/client/types.js';
import { Customer, CustomerList } from '../../src/model/schemas/gate/customers.js';
import { fillDeep } from '../../src/needs/support/triggers.js';
import { expect2xx } from '../expect.js';
import { stampCreated } from '../targetTime.js';

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

/** Pages of GET /customers searched for a customer (its paging is not shown; starting_after is this API's cursor convention). */
export const MAX_CUSTOMER_PAGES = 5;
/** Pages walked when the point is the whole list (a partner's sandbox may hold a long history). */
export const MAX_CUSTOMER_LIST_PAGES = 25;

export const customerPath = (id: string) => `/customers/${encodeURIComponent(id)}`;

/**
 * POST /customers with a fresh Idempotency-Key. Its status and response body are
 * not shown: any 2xx passes, and the customer is judged through a read (GET
 * /customers/{id} of an id the response offers, else a search of GET /customers).
 */
export async function createCustomer(t: CheckTools, actor: GateActor, requirement: RequirementId, input = newCustomerInput(t)) {
  const ex = await actor.client.post('/customers', input, { idempotencyKey: true });
  expect2xx(t, ex, requirement);
  const { customer, read } = await readBack(t, actor, ex, input, requirement);
  // Its created_at is the target's own clock while the creating request was in flight.
  stampCreated(actor.client, ex, customer.created_at);
  return { ex, input, customer, read };
}

/**
 * The customer checks that only read it, or are refused changing it, share (a fixture of the run): one per
 * partner, created once by whichever of them asks first. Its creation is judged as GATE-CUST-CREATE whoever
 * makes it, so a broken creation fails on its own rule.
 */
export function sharedCustomer(t: CheckTools, actor: GateActor): Promise<Awaited<ReturnType<typeof createCustomer>>> {
  return t.shared(`customer of gate partner ${actor.partner.name}`, () => createCustomer(t, actor, 'GATE-CUST-CREATE'));
}

/** Where the DELETE check leaves the customer it deleted (its delete judged there), for the checks that need one. */
export const deletedCustomerLeft = (actor: GateActor) => `soft-deleted customer left by the DELETE check, of gate partner ${actor.partner.name}`;

/**
 * A soft-deleted customer of the partner, shared by the checks that only need one (its reserved keys, its 404):
 * the one the DELETE check left, else created and deleted once by whichever asks first. The delete's own rules
 * are the DELETE check's.
 */
export function sharedDeletedCustomer(t: CheckTools, actor: GateActor): Promise<Awaited<ReturnType<typeof createCustomer>>> {
  return t.shared(`soft-deleted customer of gate partner ${actor.partner.name}`, async () => {
    await t.earlierChecksDone();
    const left = t.take<Awaited<ReturnType<typeof createCustomer>>>(deletedCustomerLeft(actor));
    if (left) return left;
    const made = await createCustomer(t, actor, 'GATE-CUST-CREATE');
    // The delete's success status is documented: 200 with the deleted marker.
    t.expect.status(await actor.client.delete(customerPath(made.customer.id), { retry: false }), 200, 'GATE-CUST-DELETE-MARKER');
    return made;
  });
}

/** The customer a 2xx POST /customers created, as GET /customers/{id} reads it. */
export async function readCreated(t: CheckTools, actor: GateActor, ex: Exchange, input: CustomerInput, requirement: RequirementId): Promise<Customer> {
  return (await readBack(t, actor, ex, input, requirement)).customer;
}

/** The read (GET /customers/{id}) that answered the created customer, with the customer it answered. */
async function readBack(
  t: CheckTools,
  actor: GateActor,
  ex: Exchange,
  input: CustomerInput,
  requirement: RequirementId,
): Promise<{ customer: Customer; read: { ex: Exchange; id: string } }> {
  const offered = (ex.json as { id?: unknown } | undefined)?.id;
  if (typeof offered === 'string' && offered.length > 0) {
    const read = await actor.client.get(customerPath(offered));
    // Another answer means the response's id is not the customer's (its fields are not shown): search the list instead.
    if (read.status >= 200 && read.status < 300) {
      // The read's shape is GET /customers/{id}'s rule, whoever creates the customer.
      const c = t.expect.schema(read, Customer, 'GATE-CUST-GET');
      if (c.external_id === input.external_id) return { customer: c, read: { ex: read, id: offered } };
    }
  }
  const found = await findListed(t, actor, (c) => c.external_id === input.external_id, 'GATE-CUST-LIST');
  if (found.customer) {
    // The read's success status is not shown: any 2xx.
    const read = expect2xx(t, await actor.client.get(customerPath(found.customer.id)), 'GATE-CUST-GET');
    return { customer: t.expect.schema(read, Customer, 'GATE-CUST-GET'), read: { ex: read, id: found.customer.id } };
  }
  if (found.complete)
    t.expect.that(false, `the customer a ${ex.status} POST /customers created (external_id ${input.external_id}) is readable`, {
      requirement,
      expected: 'the customer by the id its response offers, or in GET /customers',
      actual: `not in the whole of GET /customers (${found.seen} customers)`,
      exchange: ex,
    });
  return t.unverified(
    `POST /customers answered ${ex.status}, but its response offers no id that reads as the customer and the customer is not on the first ${MAX_CUSTOMER_PAGES} pages of GET /customers (order and paging not shown): the created customer could not be read back`,
  );
}

/** Search GET /customers (bounded) for a customer; `complete` when the whole list was seen. */
export async function findListed(
  t: CheckTools,
  actor: GateActor,
  match: (c: Customer) => boolean,
  requirement: RequirementId,
  maxPages = MAX_CUSTOMER_PAGES,
  /** The first page, when the caller read it already (no page is fetched twice). */
  firstPage?: Exchange,
): Promise<{ customer?: Customer; complete: boolean; seen: number }> {
  let startingAfter: string | undefined;
  let seen = 0;
  for (let page = 0; page < maxPages; page++) {
    const ex =
      page === 0 && firstPage
        ? firstPage
        : expect2xx(t, await actor.client.get('/customers', startingAfter ? { starting_after: startingAfter } : undefined), requirement);
    const list = t.expect.schema(ex, CustomerList, requirement);
    seen += list.data.length;
    const customer = list.data.find(match);
    if (customer) return { customer, complete: false, seen };
    if (!list.has_more || list.data.length === 0) return { complete: !list.has_more, seen };
    startingAfter = list.data[list.data.length - 1]!.id;
  }
  return { complete: false, seen };
}
