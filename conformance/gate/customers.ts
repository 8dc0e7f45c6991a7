// Gate "Endpoints > Customers": creation, every PATCH rule, reserved email and
// external_id (soft-deleted included), idempotent soft delete, and the
// customer events. Emails and external ids are unique per run.
import { randomInt, randomUUID } from 'node:crypto';
import type { ApiClient, Exchange } from '../../src/client/types.js';
import { defineSuite, type CheckContext, type GateActor } from '../../src/runner/check.js';
import { GATE_LIMITS } from '../../src/model/limits.js';
import { Customer, CustomerList, DeletedCustomer } from '../../src/model/schemas/gate/customers.js';

const { nameMax } = GATE_LIMITS.customers;
/** Bounded walk of the customer list (its pagination is not shown; starting_after is the convention of this API's lists). */
const MAX_LIST_PAGES = 5;

export interface CustomerInput {
  external_id: string;
  email: string;
  phone: string;
  first_name: string | null;
  last_name: string | null;
  country_code: string | null;
  metadata: Record<string, unknown>;
}

/** A creation body (its shape is not shown: the Customer fields a partner owns). */
export function newCustomerInput(overrides: Partial<CustomerInput> = {}): CustomerInput {
  const tag = randomUUID();
  return {
    external_id: `rampart-${tag}`,
    email: `rampart+${tag}@example.test`,
    phone: `+4915${String(randomInt(10_000_000, 99_999_999))}`,
    first_name: 'Ada',
    last_name: 'Lovelace',
    country_code: 'DE',
    metadata: { rampart: 'conformance', tag },
    ...overrides,
  };
}

/** POST /customers with a fresh Idempotency-Key; the success status is not shown, so any 2xx. */
export async function createCustomer(ctx: CheckContext, actor: GateActor, requirement: string, input = newCustomerInput()) {
  const ex = await actor.client.post('/customers', input, { idempotencyKey: true });
  ctx.expect.status(ex, [200, 201], requirement);
  return { ex, input, customer: ctx.expect.schema(ex, Customer, requirement) };
}

const customerPath = (id: string) => `/customers/${encodeURIComponent(id)}`;

/** Is the customer on one of the first pages of GET /customers? */
async function listed(ctx: CheckContext, client: ApiClient, id: string, requirement: string): Promise<boolean> {
  let startingAfter: string | undefined;
  for (let page = 0; page < MAX_LIST_PAGES; page++) {
    const ex = ctx.expect.status(await client.get('/customers', startingAfter ? { starting_after: startingAfter } : undefined), 200, requirement);
    const list = ctx.expect.schema(ex, CustomerList, requirement);
    if (list.data.some((c) => c.id === id)) return true;
    if (!list.has_more || list.data.length === 0) return false;
    startingAfter = list.data[list.data.length - 1]!.id;
  }
  return false;
}

function sameCountry(ctx: CheckContext, ex: Exchange, actual: string | null, expected: string | null, requirement: string, what: string) {
  ctx.expect.equal(actual?.toUpperCase() ?? null, expected?.toUpperCase() ?? null, what, { requirement, exchange: ex });
}

async function patchCustomer(ctx: CheckContext, client: ApiClient, id: string, body: Record<string, unknown>, requirement: string) {
  const ex = ctx.expect.status(await client.patch(customerPath(id), body), 200, requirement);
  return { ex, c: ctx.expect.schema(ex, Customer, requirement) };
}

export default defineSuite({
  service: 'gate',
  section: 'Endpoints > Customers',
  checks: [
    {
      name: 'create a customer with an Idempotency-Key, read it back, list customers',
      requirements: ['GATE-CUST-CREATE', 'GATE-CUST-GET', 'GATE-CUST-LIST'],
      needs: ['gate.partner'],
      async run(ctx: CheckContext) {
        const R = 'GATE-CUST-CREATE';
        const actor = ctx.gate.partner();
        const { ex, input, customer } = await createCustomer(ctx, actor, R);
        ctx.observe('gate-customer-create-status', ex.status, 'success status of POST /customers is not shown');
        for (const k of ['external_id', 'email', 'phone', 'first_name', 'last_name', 'metadata'] as const) {
          ctx.expect.equal(customer[k], input[k], `created customer.${k} is what was sent`, { requirement: R, exchange: ex });
        }
        sameCountry(ctx, ex, customer.country_code, input.country_code, R, 'created customer.country_code is what was sent');
        ctx.expect.equal(customer.mode, 'test', 'a customer made with a test key is in mode test', { requirement: R, exchange: ex });
        ctx.observe('gate-customer-initial-kyc-status', customer.kyc_status);

        const read = ctx.expect.status(await actor.client.get(customerPath(customer.id)), 200, 'GATE-CUST-GET');
        const again = ctx.expect.schema(read, Customer, 'GATE-CUST-GET');
        ctx.expect.equal(
          [again.id, again.email, again.external_id, again.metadata],
          [customer.id, customer.email, customer.external_id, customer.metadata],
          'GET /customers/{id} answers the created customer',
          { requirement: 'GATE-CUST-GET', exchange: read },
        );

        const list = ctx.expect.status(await actor.client.get('/customers'), 200, 'GATE-CUST-LIST');
        ctx.expect.schema(list, CustomerList, 'GATE-CUST-LIST');
      },
    },
    {
      name: 'GET of a missing customer gives 404',
      requirements: ['GATE-CUST-GET-404'],
      needs: ['gate.partner'],
      async run(ctx: CheckContext) {
        const ex = await ctx.gate.partner().client.get(customerPath(`cus_rampart_missing_${randomUUID().replace(/-/g, '')}`));
        ctx.expect.error(ex, 404, 'not_found', { requirement: 'GATE-CUST-GET-404' });
      },
    },
    {
      name: "another partner's customer reads as 404",
      requirements: ['GATE-CUST-FOREIGN-404'],
      needs: ['gate.partner', 'gate.secondPartner'],
      async run(ctx: CheckContext) {
        const R = 'GATE-CUST-FOREIGN-404';
        const { customer } = await createCustomer(ctx, ctx.gate.partner(), R);
        ctx.expect.error(await ctx.gate.other().client.get(customerPath(customer.id)), 404, 'not_found', { requirement: R });
      },
    },
    {
      name: 'PATCH sets, keeps omitted fields, replaces metadata and clears with null',
      requirements: [
        'GATE-CUST-PATCH-SET',
        'GATE-CUST-PATCH-OMITTED-UNCHANGED',
        'GATE-CUST-PATCH-METADATA-REPLACE',
        'GATE-CUST-PATCH-NULL-CLEARS',
        'GATE-CUST-PATCH-NAME-MAX',
        'GATE-CUST-COUNTRY-PATTERN',
      ],
      needs: ['gate.partner'],
      async run(ctx: CheckContext) {
        const actor = ctx.gate.partner();
        const { customer } = await createCustomer(ctx, actor, 'GATE-CUST-PATCH-SET', newCustomerInput({ metadata: { a: '1', b: '2' } }));
        const id = customer.id;

        const S = 'GATE-CUST-PATCH-SET';
        const U = 'GATE-CUST-PATCH-OMITTED-UNCHANGED';
        const p1 = await patchCustomer(ctx, actor.client, id, { first_name: 'Grace' }, S);
        ctx.expect.equal(p1.c.first_name, 'Grace', 'first_name is set', { requirement: S, exchange: p1.ex });
        ctx.expect.equal(
          [p1.c.last_name, p1.c.metadata, p1.c.email, p1.c.external_id, p1.c.phone],
          [customer.last_name, customer.metadata, customer.email, customer.external_id, customer.phone],
          'omitted fields are unchanged',
          { requirement: U, exchange: p1.ex },
        );
        sameCountry(ctx, p1.ex, p1.c.country_code, customer.country_code, U, 'omitted country_code is unchanged');

        const longName = 'N'.repeat(nameMax);
        const p2 = await patchCustomer(ctx, actor.client, id, { first_name: longName, last_name: longName, country_code: 'fr' }, 'GATE-CUST-PATCH-NAME-MAX');
        ctx.expect.equal([p2.c.first_name, p2.c.last_name], [longName, longName], `${nameMax}-char names are stored`, { requirement: 'GATE-CUST-PATCH-NAME-MAX', exchange: p2.ex });
        sameCountry(ctx, p2.ex, p2.c.country_code, 'FR', 'GATE-CUST-COUNTRY-PATTERN', 'a lowercase two-letter country_code is accepted');
        ctx.expect.equal(p2.c.metadata, customer.metadata, 'omitted metadata is unchanged', { requirement: U, exchange: p2.ex });

        const M = 'GATE-CUST-PATCH-METADATA-REPLACE';
        const p3 = await patchCustomer(ctx, actor.client, id, { metadata: { c: '3' } }, M);
        ctx.expect.equal(p3.c.metadata, { c: '3' }, 'metadata replaces the stored object (no merge)', { requirement: M, exchange: p3.ex });

        const N = 'GATE-CUST-PATCH-NULL-CLEARS';
        const p4 = await patchCustomer(ctx, actor.client, id, { first_name: null, last_name: null, country_code: null }, N);
        ctx.expect.equal([p4.c.first_name, p4.c.last_name, p4.c.country_code], [null, null, null], 'null clears first_name, last_name, country_code', { requirement: N, exchange: p4.ex });
        ctx.expect.equal(p4.c.metadata, { c: '3' }, 'omitted metadata is unchanged', { requirement: U, exchange: p4.ex });

        const read = ctx.expect.status(await actor.client.get(customerPath(id)), 200, N);
        const stored = ctx.expect.schema(read, Customer, N);
        ctx.expect.equal(
          [stored.first_name, stored.last_name, stored.country_code, stored.metadata],
          [null, null, null, { c: '3' }],
          'GET reads what the PATCHes stored',
          { requirement: N, exchange: read },
        );
      },
    },
    {
      name: 'PATCH of email, phone, external_id, kyc_status or mode gives 400 and changes nothing',
      requirements: ['GATE-CUST-PATCH-IMMUTABLE-400'],
      needs: ['gate.partner'],
      async run(ctx: CheckContext) {
        const R = 'GATE-CUST-PATCH-IMMUTABLE-400';
        const actor = ctx.gate.partner();
        const { customer } = await createCustomer(ctx, actor, R);
        const fresh = newCustomerInput();
        const bodies: Record<string, unknown>[] = [
          { email: fresh.email },
          { phone: fresh.phone },
          { external_id: fresh.external_id },
          { kyc_status: 'verified' },
          { mode: 'live' },
        ];
        for (const body of bodies) {
          ctx.expect.error(await actor.client.patch(customerPath(customer.id), body, { retry: false }), 400, 'invalid_request', { requirement: R });
        }
        const read = ctx.expect.status(await actor.client.get(customerPath(customer.id)), 200, R);
        const stored = ctx.expect.schema(read, Customer, R);
        ctx.expect.equal(
          [stored.email, stored.phone, stored.external_id, stored.kyc_status, stored.mode],
          [customer.email, customer.phone, customer.external_id, customer.kyc_status, customer.mode],
          'refused PATCHes change nothing',
          { requirement: R, exchange: read },
        );
      },
    },
    {
      name: 'PATCH with an unknown key gives 400',
      requirements: ['GATE-CUST-PATCH-UNKNOWN-400'],
      needs: ['gate.partner'],
      async run(ctx: CheckContext) {
        const R = 'GATE-CUST-PATCH-UNKNOWN-400';
        const actor = ctx.gate.partner();
        const { customer } = await createCustomer(ctx, actor, R);
        const ex = await actor.client.patch(customerPath(customer.id), { first_name: 'Grace', nickname: 'g' }, { retry: false });
        ctx.expect.error(ex, 400, 'invalid_request', { requirement: R });
      },
    },
    {
      name: 'PATCH: 129-char names and malformed country_code give 400',
      requirements: ['GATE-CUST-PATCH-NAME-MAX', 'GATE-CUST-COUNTRY-PATTERN'],
      needs: ['gate.partner'],
      async run(ctx: CheckContext) {
        const actor = ctx.gate.partner();
        const { customer } = await createCustomer(ctx, actor, 'GATE-CUST-PATCH-NAME-MAX');
        const tooLong = 'N'.repeat(nameMax + 1);
        const cases: Array<[string, Record<string, unknown>]> = [
          ['GATE-CUST-PATCH-NAME-MAX', { first_name: tooLong }],
          ['GATE-CUST-PATCH-NAME-MAX', { last_name: tooLong }],
          ['GATE-CUST-COUNTRY-PATTERN', { country_code: 'DEU' }],
          ['GATE-CUST-COUNTRY-PATTERN', { country_code: 'D1' }],
        ];
        for (const [R, body] of cases) {
          ctx.expect.error(await actor.client.patch(customerPath(customer.id), body, { retry: false }), 400, 'invalid_request', { requirement: R });
        }
      },
    },
    {
      name: 'duplicate email or external_id gives 409',
      requirements: ['GATE-CUST-DUP-EMAIL-409', 'GATE-CUST-DUP-EXTERNAL-ID-409'],
      needs: ['gate.partner'],
      async run(ctx: CheckContext) {
        const actor = ctx.gate.partner();
        const { input } = await createCustomer(ctx, actor, 'GATE-CUST-DUP-EMAIL-409');
        const sameEmail = await actor.client.post('/customers', newCustomerInput({ email: input.email }), { idempotencyKey: true, retry: false });
        ctx.expect.error(sameEmail, 409, 'conflict', { requirement: 'GATE-CUST-DUP-EMAIL-409' });
        const sameExternal = await actor.client.post('/customers', newCustomerInput({ external_id: input.external_id }), { idempotencyKey: true, retry: false });
        ctx.expect.error(sameExternal, 409, 'conflict', { requirement: 'GATE-CUST-DUP-EXTERNAL-ID-409' });
      },
    },
    {
      name: 'DELETE answers the marker, a repeat the same marker; then 404 and gone from the list',
      requirements: ['GATE-CUST-DELETE-MARKER', 'GATE-CUST-DELETE-IDEMPOTENT', 'GATE-CUST-DELETED-404', 'GATE-CUST-LIST-EXCLUDES-DELETED'],
      needs: ['gate.partner'],
      async run(ctx: CheckContext) {
        const actor = ctx.gate.partner();
        const { customer } = await createCustomer(ctx, actor, 'GATE-CUST-DELETE-MARKER');
        const L = 'GATE-CUST-LIST-EXCLUDES-DELETED';
        // Seen before the delete, so its absence afterwards means something.
        const wasListed = await listed(ctx, actor.client, customer.id, L);

        const D = 'GATE-CUST-DELETE-MARKER';
        const del = ctx.expect.status(await actor.client.delete(customerPath(customer.id)), 200, D);
        const marker = ctx.expect.schema(del, DeletedCustomer, D);
        ctx.expect.equal(marker.id, customer.id, 'the marker names the deleted customer', { requirement: D, exchange: del });

        const I = 'GATE-CUST-DELETE-IDEMPOTENT';
        const again = ctx.expect.status(await actor.client.delete(customerPath(customer.id)), 200, I);
        const marker2 = ctx.expect.schema(again, DeletedCustomer, I);
        ctx.expect.equal(
          [marker2.id, marker2.object, marker2.deleted, marker2.deleted_at],
          [marker.id, marker.object, marker.deleted, marker.deleted_at],
          'a repeated DELETE returns the same marker',
          { requirement: I, exchange: again },
        );

        ctx.expect.error(await actor.client.get(customerPath(customer.id)), 404, 'not_found', { requirement: 'GATE-CUST-DELETED-404' });

        if (!wasListed) ctx.skip(`the new customer was not on the first ${MAX_LIST_PAGES} pages of GET /customers before the delete (list order and paging are not shown)`);
        ctx.expect.that(!(await listed(ctx, actor.client, customer.id, L)), 'the soft-deleted customer is excluded from GET /customers', { requirement: L });
      },
    },
    {
      name: "a soft-deleted customer's email and external_id stay reserved (409)",
      requirements: ['GATE-CUST-DUP-SOFT-DELETED-409'],
      needs: ['gate.partner'],
      async run(ctx: CheckContext) {
        const R = 'GATE-CUST-DUP-SOFT-DELETED-409';
        const actor = ctx.gate.partner();
        const { customer, input } = await createCustomer(ctx, actor, R);
        ctx.expect.status(await actor.client.delete(customerPath(customer.id)), 200, R);
        const sameEmail = await actor.client.post('/customers', newCustomerInput({ email: input.email }), { idempotencyKey: true, retry: false });
        ctx.expect.error(sameEmail, 409, 'conflict', { requirement: R });
        const sameExternal = await actor.client.post('/customers', newCustomerInput({ external_id: input.external_id }), { idempotencyKey: true, retry: false });
        ctx.expect.error(sameExternal, 409, 'conflict', { requirement: R });
      },
    },
    {
      name: 'customer.created, customer.updated and customer.deleted are delivered',
      requirements: ['GATE-EVT-CUSTOMER-CREATED', 'GATE-EVT-CUSTOMER-UPDATED', 'GATE-EVT-CUSTOMER-DELETED'],
      needs: ['gate.webhooks'],
      timeoutMs: 90_000,
      async run(ctx: CheckContext) {
        const actor = await ctx.gate.webhooks();
        const { customer } = await createCustomer(ctx, actor, 'GATE-EVT-CUSTOMER-CREATED');
        await patchCustomer(ctx, actor.client, customer.id, { first_name: 'Grace' }, 'GATE-EVT-CUSTOMER-UPDATED');
        ctx.expect.status(await actor.client.delete(customerPath(customer.id)), 200, 'GATE-EVT-CUSTOMER-DELETED');

        const about = (data: any) => data === customer.id || (data && typeof data === 'object' && data.id === customer.id);
        for (const [type, R] of [
          ['customer.created', 'GATE-EVT-CUSTOMER-CREATED'],
          ['customer.updated', 'GATE-EVT-CUSTOMER-UPDATED'],
          ['customer.deleted', 'GATE-EVT-CUSTOMER-DELETED'],
        ] as const) {
          const e = await ctx.waitForEvent(actor.partner.name, (ev) => ev.eventType === type && about(ev.json?.data), 30_000, `${type} for ${customer.id}`);
          ctx.expect.that(e.verification.ok, `${type} carries a valid signature`, { requirement: R, actual: e.verification.reason });
          if (type === 'customer.updated') {
            ctx.expect.equal(e.json.data.first_name, 'Grace', 'customer.updated carries the changed customer', { requirement: R });
          }
          if (type === 'customer.created') {
            ctx.expect.equal(e.json.data.email, customer.email, 'customer.created carries the customer object', { requirement: R });
          }
        }
      },
    },
  ],
});
