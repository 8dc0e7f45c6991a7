// Gate "Endpoints > Customers": creation (judged through reads: its status and
// response are not shown), every PATCH rule, reserved email and external_id
// (soft-deleted included), idempotent soft delete, and the customer events.
// Emails and external ids are unique per run.
import { randomUUID } from 'node:crypto';
import type { Exchange } from '../../src/client/types.js';
import type { GateActor } from '../../src/needs/define.js';
import { check, defineSuite, type CheckTools, type RequirementId } from '../../src/runner/check.js';
import { GATE_LIMITS } from '../../src/model/limits.js';
import { Customer, CustomerList, DeletedCustomer } from '../../src/model/schemas/gate/customers.js';
import { expect2xx } from '../../support/expect.js';
import {
  createCustomer,
  customerPath,
  deletedCustomerLeft,
  findListed,
  MAX_CUSTOMER_LIST_PAGES,
  MAX_CUSTOMER_PAGES,
  newCustomerInput,
  readCreated,
  sharedCustomer,
  sharedDeletedCustomer,
} from '../../support/gate/customers.js';
import { expectListUrl, expectNeverListed } from '../../support/gate/lists.js';
import { refusedTogether } from '../../support/gate/validation.js';

const { nameMax } = GATE_LIMITS.customers;

function sameCountry(t: CheckTools, ex: Exchange | undefined, actual: string | null, expected: string | null, requirement: RequirementId, what: string) {
  t.expect.equal(actual?.toUpperCase() ?? null, expected?.toUpperCase() ?? null, what, { requirement, exchange: ex });
}

async function patchCustomer(t: CheckTools, actor: GateActor, id: string, body: Record<string, unknown>, requirement: RequirementId) {
  const ex = t.expect.status(await actor.client.patch(customerPath(id), body), 200, requirement);
  return { ex, c: t.expect.schema(ex, Customer, requirement) };
}

/** GET /customers/{id}: its success status is not shown, so any 2xx. */
async function readCustomer(t: CheckTools, actor: GateActor, id: string, requirement: RequirementId) {
  const ex = expect2xx(t, await actor.client.get(customerPath(id)), requirement);
  return { ex, c: t.expect.schema(ex, Customer, requirement) };
}

/** A create that must be refused as a duplicate: 409 conflict. */
async function expectDuplicate(t: CheckTools, actor: GateActor, body: Record<string, unknown>, requirement: RequirementId) {
  t.expect.error(await actor.client.post('/customers', body, { idempotencyKey: true, retry: false }), 409, 'conflict', { requirement });
}

export default defineSuite({
  service: 'gate',
  section: 'Endpoints > Customers',
  checks: [
    check({
      name: 'a customer created with an Idempotency-Key reads back with what was sent',
      requirements: ['GATE-CUST-CREATE', 'GATE-CUST-GET'],
      needs: ['gatePartner'],
      async run({ gatePartner: actor }, t: CheckTools) {
        const R = 'GATE-CUST-CREATE';
        // The partner's shared customer: its creation is this rule whichever check made it.
        const { ex, input, customer, read } = await sharedCustomer(t, actor);
        t.observe(
          'gate-customer-create-response',
          { status: ex.status, customerInBody: Customer.safeParse(ex.json).success },
          'status and body of POST /customers are not shown',
        );
        // The creation is judged through the read (GET /customers/{id}) that found the customer.
        for (const k of ['external_id', 'email', 'phone', 'first_name', 'last_name', 'metadata'] as const) {
          t.expect.equal(customer[k], input[k], `the created customer's ${k} is what was sent`, { requirement: R });
        }
        sameCountry(t, undefined, customer.country_code, input.country_code, R, "the created customer's country_code is what was sent");
        t.expect.equal([customer.mode, customer.livemode], ['test', false], 'a customer made with a test key is in mode test', { requirement: R });
        t.observe('gate-customer-initial-kyc-status', customer.kyc_status, 'kyc_status values are not shown');
        // That read is GET /customers/{id} answering the customer asked for (no second fetch); judged after the
        // creation, so a creation that dropped a field fails on its own rule.
        t.expect.equal(
          [customer.id, customer.email, customer.external_id, customer.metadata],
          [read.id, input.email, input.external_id, input.metadata],
          'GET /customers/{id} answers the created customer',
          { requirement: 'GATE-CUST-GET', exchange: read.ex },
        );
      },
    }),
    check({
      name: 'GET /customers lists a created customer (the list walked to its end, page by page)',
      requirements: ['GATE-CUST-LIST'],
      needs: ['gatePartner'],
      async run({ gatePartner: actor }, t: CheckTools) {
        const L = 'GATE-CUST-LIST';
        const { customer } = await sharedCustomer(t, actor);
        const first = expect2xx(t, await actor.client.get('/customers'), L);
        t.expect.schema(first, CustomerList, L);
        expectListUrl(t, first, '/customers', L);
        // List order and paging are not shown: the customer may be anywhere, so only the whole list can show it missing.
        const listed = await findListed(t, actor, (c) => c.id === customer.id, L, MAX_CUSTOMER_LIST_PAGES, first);
        if (!listed.customer) {
          t.expect.that(!listed.complete, 'GET /customers lists the new customer', {
            requirement: L,
            actual: `absent from all ${listed.seen} listed customers`,
          });
          t.unverified(
            `the new customer is not on the first ${MAX_CUSTOMER_LIST_PAGES} pages of GET /customers (${listed.seen} customers; order and paging not shown) and the list goes on: the whole list was not seen`,
          );
        }
      },
    }),
    check({
      name: 'GET of a missing customer gives 404',
      requirements: ['GATE-CUST-GET-404'],
      needs: ['gatePartner'],
      async run({ gatePartner: actor }, t: CheckTools) {
        const ex = await actor.client.get(customerPath(`cus_rampart_missing_${randomUUID().replace(/-/g, '')}`));
        t.expect.error(ex, 404, 'not_found', { requirement: 'GATE-CUST-GET-404' });
      },
    }),
    check({
      name: "another partner's customer reads as 404; its owner still reads it",
      requirements: ['GATE-CUST-FOREIGN-404'],
      needs: ['gatePartner', 'gateOtherTenant'],
      async run({ gatePartner: owner, gateOtherTenant: other }, t: CheckTools) {
        const R = 'GATE-CUST-FOREIGN-404';
        const { customer } = await createCustomer(t, owner, R);
        t.expect.error(await other.client.get(customerPath(customer.id)), 404, 'not_found', { requirement: R });
        // The owner still reads it: the 404 was about tenancy, not a wrong id.
        await readCustomer(t, owner, customer.id, R);
      },
    }),
    check({
      name: "another partner's customer list never shows the partner's customer",
      requirements: ['GATE-CUST-LIST-TENANT'],
      needs: ['gatePartner', 'gateOtherTenant'],
      async run({ gatePartner: owner, gateOtherTenant: other }, t: CheckTools) {
        const R = 'GATE-CUST-LIST-TENANT';
        const { customer } = await createCustomer(t, owner, R);
        await expectNeverListed(t, other, '/customers', customer.id, R, `the customer ${customer.id} of another partner`);
      },
    }),
    check({
      name: "kyc_status cannot be set by the partner: a creation carrying it is refused or keeps the server's own value",
      requirements: ['GATE-CUST-KYC-STATUS-NOT-SETTABLE'],
      needs: ['gatePartner'],
      async run({ gatePartner: actor }, t: CheckTools) {
        const R = 'GATE-CUST-KYC-STATUS-NOT-SETTABLE';
        // A value no server would pick by itself, so reading it back can only mean the partner set it.
        const chosen = `rampart_set_by_partner_${randomUUID().slice(0, 8)}`;
        const input = newCustomerInput(t);
        const ex = await actor.client.post('/customers', { ...input, kyc_status: chosen }, { idempotencyKey: true, retry: false });
        if (ex.status >= 200 && ex.status < 300) {
          const customer = await readCreated(t, actor, ex, input, R);
          t.expect.that(customer.kyc_status !== chosen, "the customer's kyc_status is not the value the partner sent", {
            requirement: R,
            actual: customer.kyc_status,
            exchange: ex,
          });
          t.observe(
            'gate-customer-kyc-status-on-create',
            'created; kyc_status ignored',
            'refusing the field and ignoring it are both ways of not letting the partner set it',
          );
        } else {
          t.expect.that(ex.status >= 400 && ex.status < 500, 'a creation carrying kyc_status is refused with a 4xx (or created without it)', {
            requirement: R,
            actual: ex.status,
            exchange: ex,
          });
          t.observe('gate-customer-kyc-status-on-create', `refused with ${ex.status}`);
        }
      },
    }),
    check({
      name: 'POST /customers: a replay with the same Idempotency-Key and body answers the original customer; the same key with another body gives 409 and creates nothing',
      requirements: ['GATE-CUST-IDEMPOTENT-REPLAY', 'GATE-CUST-IDEMPOTENCY-CONFLICT-409'],
      needs: ['gatePartner'],
      async run({ gatePartner: actor }, t: CheckTools) {
        const P = 'GATE-CUST-IDEMPOTENT-REPLAY';
        const key = randomUUID();
        const input = newCustomerInput(t);
        const first = expect2xx(t, await actor.client.post('/customers', input, { idempotencyKey: key, retry: false }), P);
        // Processed again, the replay would be a duplicate email (409): the original answer is the only right one.
        const replay = await actor.client.post('/customers', input, { idempotencyKey: key, retry: false });
        t.expect.status(replay, first.status, P);
        await readCreated(t, actor, first, input, P);
        const offered = (x: typeof first) => (x.json as { id?: unknown } | undefined)?.id;
        if (offered(first) !== undefined)
          t.expect.equal(offered(replay), offered(first), 'the replay answers the original customer', { requirement: P, exchange: replay });
        else t.expect.equal(replay.json, first.json, 'the replay answers the original response', { requirement: P, exchange: replay });
        t.observe('gate-customer-replay-header', replay.headers['idempotent-replayed'] ?? null, 'a replay marker header is not shown');

        const C = 'GATE-CUST-IDEMPOTENCY-CONFLICT-409';
        const other = newCustomerInput(t);
        t.expect.error(await actor.client.post('/customers', other, { idempotencyKey: key, retry: false }), 409, 'conflict', { requirement: C });
        // Nothing was created by the refused request: the same body under a fresh key creates it (no duplicate email).
        const fresh = await actor.client.post('/customers', other, { idempotencyKey: true, retry: false });
        t.expect.that(
          fresh.status >= 200 && fresh.status < 300,
          'the conflicting body, sent again with a fresh key, creates its customer: the refused request created nothing',
          {
            requirement: C,
            actual: `${fresh.status} ${fresh.bodyText.slice(0, 160)}`,
            exchange: fresh,
          },
        );
      },
    }),
    check({
      name: 'PATCH sets, keeps omitted fields, replaces metadata and clears with null',
      requirements: [
        'GATE-CUST-PATCH-SET',
        'GATE-CUST-PATCH-OMITTED-UNCHANGED',
        'GATE-CUST-PATCH-METADATA-REPLACE',
        'GATE-CUST-PATCH-NULL-CLEARS',
        'GATE-CUST-PATCH-NAME-MAX',
        'GATE-CUST-COUNTRY-PATTERN',
      ],
      needs: ['gatePartner'],
      async run({ gatePartner: actor }, t: CheckTools) {
        const { customer } = await createCustomer(t, actor, 'GATE-CUST-PATCH-SET', newCustomerInput(t, { metadata: { a: '1', b: '2' } }));
        const id = customer.id;

        const S = 'GATE-CUST-PATCH-SET';
        const U = 'GATE-CUST-PATCH-OMITTED-UNCHANGED';
        const p1 = await patchCustomer(t, actor, id, { first_name: 'Grace' }, S);
        t.expect.equal(p1.c.first_name, 'Grace', 'first_name is set', { requirement: S, exchange: p1.ex });
        t.expect.equal(
          [p1.c.last_name, p1.c.metadata, p1.c.email, p1.c.external_id, p1.c.phone],
          [customer.last_name, customer.metadata, customer.email, customer.external_id, customer.phone],
          'omitted fields are unchanged',
          { requirement: U, exchange: p1.ex },
        );
        sameCountry(t, p1.ex, p1.c.country_code, customer.country_code, U, 'omitted country_code is unchanged');

        const longName = 'N'.repeat(nameMax);
        const p2 = await patchCustomer(t, actor, id, { first_name: longName, last_name: longName, country_code: 'fr' }, 'GATE-CUST-PATCH-NAME-MAX');
        t.expect.equal([p2.c.first_name, p2.c.last_name], [longName, longName], `${nameMax}-char names are stored`, {
          requirement: 'GATE-CUST-PATCH-NAME-MAX',
          exchange: p2.ex,
        });
        sameCountry(t, p2.ex, p2.c.country_code, 'FR', 'GATE-CUST-COUNTRY-PATTERN', 'a lowercase two-letter country_code is accepted');
        t.expect.equal(p2.c.metadata, customer.metadata, 'omitted metadata is unchanged', { requirement: U, exchange: p2.ex });

        const M = 'GATE-CUST-PATCH-METADATA-REPLACE';
        const p3 = await patchCustomer(t, actor, id, { metadata: { c: '3' } }, M);
        t.expect.equal(p3.c.metadata, { c: '3' }, 'metadata replaces the stored object (no merge)', { requirement: M, exchange: p3.ex });

        const N = 'GATE-CUST-PATCH-NULL-CLEARS';
        const p4 = await patchCustomer(t, actor, id, { first_name: null, last_name: null, country_code: null }, N);
        t.expect.equal([p4.c.first_name, p4.c.last_name, p4.c.country_code], [null, null, null], 'null clears first_name, last_name, country_code', {
          requirement: N,
          exchange: p4.ex,
        });
        t.expect.equal(p4.c.metadata, { c: '3' }, 'omitted metadata is unchanged', { requirement: U, exchange: p4.ex });

        const stored = await readCustomer(t, actor, id, N);
        t.expect.equal(
          [stored.c.first_name, stored.c.last_name, stored.c.country_code, stored.c.metadata],
          [null, null, null, { c: '3' }],
          'GET reads what the PATCHes stored',
          { requirement: N, exchange: stored.ex },
        );
      },
    }),
    check({
      name: 'PATCH of email, phone, external_id, kyc_status or mode gives 400 and changes nothing',
      requirements: ['GATE-CUST-PATCH-IMMUTABLE-400'],
      needs: ['gatePartner'],
      async run({ gatePartner: actor }, t: CheckTools) {
        const R = 'GATE-CUST-PATCH-IMMUTABLE-400';
        // The partner's shared customer: refused PATCHes leave it as it was made.
        const { customer } = await sharedCustomer(t, actor);
        const fresh = newCustomerInput(t);
        // kyc_status is server-managed and informational: it may move on its own between the customer's creation and
        // this read. A value no server would pick by itself shows whether the refused PATCH set it, whenever it is read.
        const kyc = `rampart_set_by_partner_${randomUUID().slice(0, 8)}`;
        // Every immutable field in one PATCH first; those its 400 does not name each in a part of its own are sent alone.
        await refusedTogether(
          t,
          (body) => actor.client.patch(customerPath(customer.id), body, { retry: false }),
          {},
          (
            [
              ['email', fresh.email],
              ['phone', fresh.phone],
              ['external_id', fresh.external_id],
              ['kyc_status', kyc],
              ['mode', 'live'],
            ] as const
          ).map(([field, value]) => ({ field, body: { [field]: value }, requirement: R })),
        );
        const stored = await readCustomer(t, actor, customer.id, R);
        t.expect.equal(
          [stored.c.email, stored.c.phone, stored.c.external_id, stored.c.mode],
          [customer.email, customer.phone, customer.external_id, customer.mode],
          'refused PATCHes change nothing',
          { requirement: R, exchange: stored.ex },
        );
        t.expect.that(stored.c.kyc_status !== kyc, 'the refused PATCH did not set kyc_status', {
          requirement: R,
          actual: stored.c.kyc_status,
          exchange: stored.ex,
        });
        t.observe(
          'gate-customer-kyc-status-between-reads',
          stored.c.kyc_status === customer.kyc_status ? 'unchanged' : `changed on its own: ${customer.kyc_status} → ${stored.c.kyc_status}`,
          'kyc_status is server-managed and informational: it may change between reads',
        );
      },
    }),
    check({
      name: 'PATCH with an unknown key gives 400 and changes nothing',
      requirements: ['GATE-CUST-PATCH-UNKNOWN-400'],
      needs: ['gatePartner'],
      async run({ gatePartner: actor }, t: CheckTools) {
        const R = 'GATE-CUST-PATCH-UNKNOWN-400';
        const { customer } = await sharedCustomer(t, actor);
        const ex = await actor.client.patch(customerPath(customer.id), { first_name: 'Grace', nickname: 'g' }, { retry: false });
        t.expect.error(ex, 400, 'invalid_request', { requirement: R });
        const stored = await readCustomer(t, actor, customer.id, R);
        t.expect.equal(stored.c.first_name, customer.first_name, 'the refused PATCH set nothing', { requirement: R, exchange: stored.ex });
      },
    }),
    check({
      name: 'PATCH: 129-char names and malformed country_code give 400',
      requirements: ['GATE-CUST-PATCH-NAME-MAX', 'GATE-CUST-COUNTRY-PATTERN'],
      needs: ['gatePartner'],
      async run({ gatePartner: actor }, t: CheckTools) {
        const { customer } = await sharedCustomer(t, actor);
        const tooLong = 'N'.repeat(nameMax + 1);
        const send = (body: Record<string, unknown>) => actor.client.patch(customerPath(customer.id), body, { retry: false });
        // Three fields in one PATCH first; those its 400 does not name each in a part of its own are sent alone.
        await refusedTogether(t, send, {}, [
          { field: 'first_name', body: { first_name: tooLong }, requirement: 'GATE-CUST-PATCH-NAME-MAX' },
          { field: 'last_name', body: { last_name: tooLong }, requirement: 'GATE-CUST-PATCH-NAME-MAX' },
          { field: 'country_code', body: { country_code: 'DEU' }, requirement: 'GATE-CUST-COUNTRY-PATTERN' },
        ]);
        t.expect.error(await send({ country_code: 'D1' }), 400, 'invalid_request', { requirement: 'GATE-CUST-COUNTRY-PATTERN' });
      },
    }),
    check({
      name: 'a duplicate email or external_id gives 409',
      requirements: ['GATE-CUST-DUP-EMAIL-409', 'GATE-CUST-DUP-EXTERNAL-ID-409'],
      needs: ['gatePartner'],
      async run({ gatePartner: actor }, t: CheckTools) {
        const { input } = await sharedCustomer(t, actor);
        await expectDuplicate(t, actor, { ...newCustomerInput(t, { email: input.email }) }, 'GATE-CUST-DUP-EMAIL-409');
        await expectDuplicate(t, actor, { ...newCustomerInput(t, { external_id: input.external_id }) }, 'GATE-CUST-DUP-EXTERNAL-ID-409');
      },
    }),
    check({
      name: 'DELETE answers the marker, a repeat the same marker; the customer then reads as 404',
      requirements: ['GATE-CUST-DELETE-MARKER', 'GATE-CUST-DELETE-IDEMPOTENT', 'GATE-CUST-DELETED-404'],
      needs: ['gatePartner'],
      async run({ gatePartner: actor }, t: CheckTools) {
        const made = await createCustomer(t, actor, 'GATE-CUST-DELETE-MARKER');
        const { customer } = made;
        const D = 'GATE-CUST-DELETE-MARKER';
        const del = t.expect.status(await actor.client.delete(customerPath(customer.id)), 200, D);
        const marker = t.expect.schema(del, DeletedCustomer, D);
        t.expect.equal(marker.id, customer.id, 'the marker names the deleted customer', { requirement: D, exchange: del });

        const I = 'GATE-CUST-DELETE-IDEMPOTENT';
        const again = t.expect.status(await actor.client.delete(customerPath(customer.id)), 200, I);
        const marker2 = t.expect.schema(again, DeletedCustomer, I);
        t.expect.equal(
          [marker2.id, marker2.object, marker2.deleted, marker2.deleted_at],
          [marker.id, marker.object, marker.deleted, marker.deleted_at],
          'a repeated DELETE returns the same marker',
          { requirement: I, exchange: again },
        );
        t.expect.error(await actor.client.get(customerPath(customer.id)), 404, 'not_found', { requirement: 'GATE-CUST-DELETED-404' });
        t.offer(deletedCustomerLeft(actor), made);
      },
    }),
    check({
      name: 'a soft-deleted customer is excluded from GET /customers',
      requirements: ['GATE-CUST-LIST-EXCLUDES-DELETED'],
      needs: ['gatePartner'],
      async run({ gatePartner: actor }, t: CheckTools) {
        const L = 'GATE-CUST-LIST-EXCLUDES-DELETED';
        const { customer } = await createCustomer(t, actor, L);
        // Seen before the delete, so its absence afterwards means something.
        const before = await findListed(t, actor, (c) => c.id === customer.id, L);
        t.expect.status(await actor.client.delete(customerPath(customer.id)), 200, L);
        const after = await findListed(t, actor, (c) => c.id === customer.id, L);
        t.expect.that(!after.customer, 'the soft-deleted customer is not listed', { requirement: L, actual: after.customer });
        if (!before.customer)
          t.unverified(
            `the new customer was not on the first ${MAX_CUSTOMER_PAGES} pages of GET /customers before the delete (list order and paging are not shown), so its absence afterwards proves nothing`,
          );
      },
    }),
    check({
      name: "a soft-deleted customer's email and external_id stay reserved (409)",
      requirements: ['GATE-CUST-DUP-SOFT-DELETED-409'],
      needs: ['gatePartner'],
      // Runs late: the customer the DELETE check deleted serves.
      late: true,
      async run({ gatePartner: actor }, t: CheckTools) {
        const R = 'GATE-CUST-DUP-SOFT-DELETED-409';
        const { input } = await sharedDeletedCustomer(t, actor);
        await expectDuplicate(t, actor, { ...newCustomerInput(t, { email: input.email }) }, R);
        await expectDuplicate(t, actor, { ...newCustomerInput(t, { external_id: input.external_id }) }, R);
      },
    }),
    check({
      name: 'customer.created, customer.updated and customer.deleted are delivered with the customer',
      requirements: ['GATE-EVT-CUSTOMER-CREATED', 'GATE-EVT-CUSTOMER-UPDATED', 'GATE-EVT-CUSTOMER-DELETED'],
      needs: ['gateWebhooks'],
      budgetMs: 90_000,
      async run({ gateWebhooks: actor }, t: CheckTools) {
        const { customer } = await createCustomer(t, actor, 'GATE-EVT-CUSTOMER-CREATED');
        await patchCustomer(t, actor, customer.id, { first_name: 'Grace' }, 'GATE-EVT-CUSTOMER-UPDATED');
        t.expect.status(await actor.client.delete(customerPath(customer.id)), 200, 'GATE-EVT-CUSTOMER-DELETED');

        // deleted: the customer object or its id.
        const about = (data: unknown) => data === customer.id || (!!data && typeof data === 'object' && (data as { id?: unknown }).id === customer.id);
        for (const [type, R] of [
          ['customer.created', 'GATE-EVT-CUSTOMER-CREATED'],
          ['customer.updated', 'GATE-EVT-CUSTOMER-UPDATED'],
          ['customer.deleted', 'GATE-EVT-CUSTOMER-DELETED'],
        ] as const) {
          const e = await actor.hooks.waitFor((ev) => ev.eventType === type && about(ev.json?.data), 30_000, `${type} for ${customer.id}`, R);
          t.expect.that(e.verification.ok, `${type} carries a valid signature`, { requirement: R, actual: e.verification.reason });
          if (type === 'customer.created')
            t.expect.equal(e.json?.data?.email, customer.email, 'customer.created carries the customer object', { requirement: R });
          if (type === 'customer.updated')
            t.expect.equal(e.json?.data?.first_name, 'Grace', 'customer.updated carries the changed customer', { requirement: R });
        }
      },
    }),
  ],
});
