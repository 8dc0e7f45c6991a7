// Gate "Errors > Retry": a create whose response was lost is retried with the
// same Idempotency-Key and body, and exactly one object exists afterwards —
// sessions and customers counted by a unique marker in their lists, pay-outs
// by the single-use quote they redeem. Before the retry, a read shows the lost
// request took effect (else the case was not staged: unverified).
import { randomUUID } from 'node:crypto';
import type { ZodType } from 'zod';
import type { ApiClient } from '../../src/client/types.js';
import { check, defineSuite, type CheckTools, type RequirementId } from '../../src/runner/check.js';
import { CreatedGateSession, GateSessionList } from '../../src/model/schemas/gate/sessions.js';
import { CustomerList } from '../../src/model/schemas/gate/customers.js';
import { RailPayOut } from '../../src/model/schemas/gate/rails.js';
import { expect2xx } from '../../support/expect.js';
import { newCustomerInput } from '../../support/gate/customers.js';
import { inChain, lockQuote, payOut } from '../../support/gate/rails.js';
import { sessionBody } from '../../support/gate/sessions.js';
import { LOST_REQUEST_TIMEOUT_MS, sendAndLoseResponse } from '../../support/lostResponse.js';

/** List pages walked (starting_after) when counting objects that carry a marker. */
const MAX_PAGES = 25;

interface Listed {
  /** Ids of the listed objects that carry the marker. */
  ids: string[];
  /** False when the walk stopped before the end of the list (page bound, a cursor not honoured). */
  complete: boolean;
}

/**
 * The listed objects satisfying `mine`, walking the list with starting_after.
 * `cursorDocumented` false (GET /customers: its query parameters are not shown):
 * a page after the first that is refused or repeats ids ends the walk as incomplete instead of failing.
 */
async function listed<T extends { id: string }>(
  t: CheckTools,
  client: ApiClient,
  path: string,
  schema: ZodType<{ data: T[]; has_more: boolean }>,
  mine: (o: T) => boolean,
  requirement: RequirementId,
  cursorDocumented: boolean,
  /** Stop at the first page holding a match (whether the lost request got through): no whole walk. */
  firstMatch = false,
): Promise<Listed> {
  const ids: string[] = [];
  const seen = new Set<string>();
  let after: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const ex = await client.get(path, after ? { starting_after: after } : undefined);
    if (after && !cursorDocumented && (ex.status < 200 || ex.status >= 300)) {
      t.observe(
        `gate.retry.listCursor`,
        { path, status: ex.status },
        `${path} refused starting_after (its query parameters are not shown): the walk stopped at page ${page}`,
      );
      return { ids, complete: false };
    }
    // The list's success status is not shown: any 2xx.
    const list = t.expect.schema(expect2xx(t, ex, requirement, `GET ${path}`), schema, requirement);
    if (list.data.some((o) => seen.has(o.id))) {
      if (cursorDocumented) t.expect.that(false, `${path} pages do not repeat objects when walked with starting_after`, { requirement, exchange: ex });
      t.observe(`gate.retry.listCursor`, { path, page }, `${path} did not honour starting_after (its query parameters are not shown): the walk stopped`);
      return { ids, complete: false };
    }
    for (const o of list.data) seen.add(o.id);
    ids.push(...list.data.filter(mine).map((o) => o.id));
    if (!list.has_more || list.data.length === 0) return { ids, complete: true };
    if (firstMatch && ids.length) return { ids, complete: false };
    after = list.data[list.data.length - 1]!.id;
  }
  return { ids, complete: false };
}

/** Exactly one listed object carries the marker after the lost response and its retry. */
function expectOne(t: CheckTools, found: Listed, noun: string, by: string, requirement: RequirementId): string {
  t.expect.that(found.ids.length <= 1, `exactly one ${noun} carries ${by} after the lost response and its retry`, {
    requirement,
    expected: 1,
    actual: found.ids.length,
  });
  if (found.ids.length === 0) t.unverified(`the ${noun} carrying ${by} was not found in the ${MAX_PAGES} list pages walked, so the count could not be made`);
  // One found in part of the list proves nothing: a second may lie beyond the pages walked (the list order is not shown).
  if (!found.complete)
    t.unverified(
      `one ${noun} carries ${by} in the ${MAX_PAGES} list pages walked, but the list goes on (or its cursor stopped working): a second one beyond them could not be ruled out`,
    );
  return found.ids[0]!;
}

export default defineSuite({
  service: 'gate',
  section: 'Errors > Retry',
  checks: [
    check({
      name: 'POST /gate_sessions whose response was lost, retried with the same Idempotency-Key: one session',
      requirements: ['GATE-ERR-RETRY-SESSION-ONE-OBJECT'],
      needs: ['gatePartner', 'toxiproxy'],
      async run({ gatePartner: actor, toxiproxy: kit }, t: CheckTools) {
        const R = 'GATE-ERR-RETRY-SESSION-ONE-OBJECT';
        const marker = `rampart-chaos-${randomUUID()}`;
        const body = sessionBody(t, { user_reference: marker });
        const key = randomUUID();
        const count = (firstMatch = false) =>
          listed(t, actor.client, '/gate_sessions', GateSessionList, (s) => s.user_reference === marker, R, true, firstMatch);
        let created: string | undefined;
        const lost = await sendAndLoseResponse(
          t,
          kit,
          actor,
          'gate',
          (c) => c.post('/gate_sessions', body, { idempotencyKey: key, retry: false, timeoutMs: LOST_REQUEST_TIMEOUT_MS }),
          {
            reached: async () => {
              created = (await count(true)).ids[0];
              return created !== undefined;
            },
          },
        );
        // The success status is not shown: any 2xx, answering the session the lost request created.
        const retry = expect2xx(t, await lost.client.post('/gate_sessions', body, { idempotencyKey: key, retry: false }), R, 'the retry with the same key');
        const session = t.expect.schema(retry, CreatedGateSession, R);
        t.expect.equal(session.id, created, 'the retry answers the session the lost request created', { requirement: R, exchange: retry });
        expectOne(t, await count(), 'session', 'the marker', R);
      },
    }),
    check({
      name: 'POST /customers whose response was lost, retried with the same Idempotency-Key: one customer',
      requirements: ['GATE-ERR-RETRY-CUSTOMER-ONE-OBJECT'],
      needs: ['gatePartner', 'toxiproxy'],
      async run({ gatePartner: actor, toxiproxy: kit }, t: CheckTools) {
        const R = 'GATE-ERR-RETRY-CUSTOMER-ONE-OBJECT';
        const input = newCustomerInput(t);
        const key = randomUUID();
        const count = (firstMatch = false) =>
          listed(t, actor.client, '/customers', CustomerList, (c) => c.external_id === input.external_id, R, false, firstMatch);
        const lost = await sendAndLoseResponse(
          t,
          kit,
          actor,
          'gate',
          (c) => c.post('/customers', input, { idempotencyKey: key, retry: false, timeoutMs: LOST_REQUEST_TIMEOUT_MS }),
          {
            reached: async () => (await count(true)).ids.length > 0,
          },
        );
        // A second customer would collide on email/external_id (409): the retry must answer the first one. Its status and body are not shown: any 2xx.
        const retry = expect2xx(t, await lost.client.post('/customers', input, { idempotencyKey: key, retry: false }), R, 'the retry with the same key');
        const id = expectOne(t, await count(), 'customer', 'the external_id', R);
        t.observe(
          'gate.retry.customerAnswer',
          { status: retry.status, namesTheCustomer: retry.bodyText.includes(id) },
          'what the retried POST /customers answered (response not shown)',
        );
      },
    }),
    check({
      name: 'POST /rails/pay_outs whose response was lost, retried with the same Idempotency-Key: the one pay-out of the quote',
      requirements: ['GATE-ERR-RETRY-PAY-OUT-ONE-OBJECT'],
      needs: ['gateRails', 'gateSignedQuote', 'toxiproxy'],
      async run({ gateRails: actor, gateSignedQuote: lock, toxiproxy: kit }, t: CheckTools) {
        const R = 'GATE-ERR-RETRY-PAY-OUT-ONE-OBJECT';
        const q = await lockQuote(t, actor, lock, 'off_ramp', R, { payOuts: 3 });
        const body = { gate_session_id: q.sessionId, quote_id: q.quoteId };
        const key = randomUUID();
        // No documented read shows a quote consumed before its pay-out id is known: the toxic's design (request forwarded, answer dropped) stages the case.
        const lost = await inChain(q.quoteId, () =>
          sendAndLoseResponse(t, kit, actor, 'gate', (c) =>
            c.post('/rails/pay_outs', body, { idempotencyKey: key, retry: false, timeoutMs: LOST_REQUEST_TIMEOUT_MS }),
          ),
        );
        // The quote redeems once: a second pay-out could only be a refusal here, so the original 201 is the first pay-out.
        const retry = t.expect.status(await inChain(q.quoteId, () => lost.client.post('/rails/pay_outs', body, { idempotencyKey: key, retry: false })), 201, R);
        const p = t.expect.schema(retry, RailPayOut, R);
        t.expect.equal([p.gate_session_id, p.quote_id], [q.sessionId, q.quoteId], 'the retry answers the pay-out of this quote', {
          requirement: R,
          exchange: retry,
        });
        // "A repeat with the same key and body returns the original response": the status the retry answered, again.
        const again = t.expect.status(await payOut(actor, body, key), retry.status, R);
        t.expect.equal(t.expect.schema(again, RailPayOut, R).id, p.id, 'a further retry with the key answers the same pay-out', {
          requirement: R,
          exchange: again,
        });
        // GET /rails/pay_outs/{id}: its success status is not shown, any 2xx.
        const read = expect2xx(t, await actor.client.get(`/rails/pay_outs/${encodeURIComponent(p.id)}`), R, 'GET /rails/pay_outs/{id}');
        t.expect.equal(t.expect.schema(read, RailPayOut, R).quote_id, q.quoteId, 'GET /rails/pay_outs/{id} answers the pay-out', {
          requirement: R,
          exchange: read,
        });
      },
    }),
  ],
});
