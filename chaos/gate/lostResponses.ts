// Gate "Errors > Retry": a create whose response was lost is retried with the
// same Idempotency-Key and body, and exactly one object exists afterwards —
// sessions and customers counted by a unique marker in their lists, pay-outs
// by the single-use quote they redeem. Before the retry, a read shows the lost
// request took effect (else the case was not staged: unverified); for a
// pay-out, another key's pay-out of the quote refused as consumed, and the
// retry must answer that pay-out, made before the refusal, not a new one.
import { CLOCK_BOUNDS } from '../../src/model/limits.js';
import { randomUUID } from 'node:crypto';
import type { ZodType } from 'zod';
import type { ApiClient, Exchange } from '../../src/client/types.js';
import type { GateActor } from '../../src/needs/define.js';
import { check, defineSuite, type CheckTools, type RequirementId } from '../../src/runner/check.js';
import { CreatedGateSession, GateSessionList } from '../../src/model/schemas/gate/sessions.js';
import { CustomerList } from '../../src/model/schemas/gate/customers.js';
import { RailPayOut } from '../../src/model/schemas/gate/rails.js';
import { expect2xx } from '../../support/expect.js';
import { newCustomerInput } from '../../support/gate/customers.js';
import { inChain, lockQuote, payOut, type LockedQuote } from '../../support/gate/rails.js';
import { sessionBody } from '../../support/gate/sessions.js';
import { LOST_REQUEST_TIMEOUT_MS, sendAndLoseResponse } from '../../support/lostResponse.js';
import { clockNote, sleepUntilTargetPast, spanOf } from '../../support/targetTime.js';

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

/**
 * Whether the lost pay-out took effect, from another key's pay-out of the same quote: refused as redeeming a
 * consumed quote (409), it did; redeemed (2xx), it never did (the case was not staged). Any other answer is neither.
 */
function tookEffect(t: CheckTools, other: Exchange): boolean {
  if (other.status === 409) return true;
  if (other.status >= 200 && other.status < 300) return false;
  return t.unverified(
    `another key's pay-out of the quote answered ${other.status}: neither a redemption nor the 409 of a consumed quote, so whether the lost request took effect could not be told`,
  );
}

/**
 * The retry of a pay-out whose answer was lost answers the pay-out the lost request made. That request took effect:
 * a pay-out of the same quote under another key (`other`, sent right after) was refused as redeeming a consumed quote
 * (409), so the quote's one pay-out existed by then. The retry is sent once the target's clock is surely two seconds
 * past that refusal, so a pay-out it made anew would be stamped later than any made before the refusal (a second of
 * that for a `created_at` rounded to the second): its `created_at` tells the lost request's pay-out from a new one.
 */
async function retryAnswersLostPayOut(
  t: CheckTools,
  actor: GateActor,
  client: ApiClient,
  body: { gate_session_id: string; quote_id: string },
  key: string,
  q: LockedQuote,
  other: Exchange,
  requirement: RequirementId,
): Promise<Exchange> {
  // A 409 after the quote's declared lifetime could have run out may be its expiry, not the lost request's redemption.
  const lifetimeS = t.profile.timing.signedQuoteLifetimeSeconds;
  if (lifetimeS !== undefined && other.startedAt + other.durationMs - q.lockSentAt >= lifetimeS * 1000)
    t.unverified(
      `the pay-out under another key came past the quote's declared ${lifetimeS} s lifetime: its 409 may be the expiry, so the lost request's effect could not be told`,
    );
  const order = { requirement, bound: CLOCK_BOUNDS.objectOrder };
  const refusedBy = spanOf(t, actor.client, other, order).high;
  await sleepUntilTargetPast(t, actor.client, refusedBy, 'the target clock past the refusal of the second key', order, 2_000);
  // The quote redeems once: a second pay-out could only be a refusal here, so the original 201 is the first pay-out.
  const retry = t.expect.status(await inChain(q.quoteId, () => client.post('/rails/pay_outs', body, { idempotencyKey: key, retry: false })), 201, requirement);
  const p = t.expect.schema(retry, RailPayOut, requirement);
  t.expect.equal([p.gate_session_id, p.quote_id], [q.sessionId, q.quoteId], 'the retry answers the pay-out of this quote', { requirement, exchange: retry });
  t.expect.that(
    Date.parse(p.created_at) <= refusedBy + 1_000,
    `the retry answers the pay-out the lost request made (created before another key's pay-out of the quote was refused as consumed), not a new one (${clockNote(actor.client)})`,
    { requirement, expected: `created_at ≤ ${new Date(refusedBy + 1_000).toISOString()} (target clock)`, actual: p.created_at, exchange: retry },
  );
  return retry;
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
        const q = await lockQuote(t, actor, lock, 'off_ramp', R, { payOuts: 4 });
        const body = { gate_session_id: q.sessionId, quote_id: q.quoteId };
        const key = randomUUID();
        let other: Exchange | undefined;
        const lost = await inChain(q.quoteId, () =>
          sendAndLoseResponse(
            t,
            kit,
            actor,
            'gate',
            (c) => c.post('/rails/pay_outs', body, { idempotencyKey: key, retry: false, timeoutMs: LOST_REQUEST_TIMEOUT_MS }),
            { reached: async () => tookEffect(t, (other = await payOut(actor, body, randomUUID()))) },
          ),
        );
        const paid = await retryAnswersLostPayOut(t, actor, lost.client, body, key, q, other!, R);
        const p = t.expect.schema(paid, RailPayOut, R);
        // "A repeat with the same key and body returns the original response": the status the retry answered, again.
        const again = t.expect.status(await payOut(actor, body, key), paid.status, R);
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
