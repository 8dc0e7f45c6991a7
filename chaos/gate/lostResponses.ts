// Gate "Errors > Retry": a create whose response was lost is retried with the
// same Idempotency-Key and body, and exactly one object exists afterwards —
// sessions and customers counted by a unique marker in their lists, pay-outs
// by the single-use quote they redeem.
import { randomUUID } from 'node:crypto';
import type { ApiClient } from '../../src/client/types.js';
import { defineSuite, type CheckContext, type CheckDef } from '../../src/runner/check.js';
import { CreatedGateSession, GateSessionList } from '../../src/model/schemas/gate/sessions.js';
import { Customer, CustomerList } from '../../src/model/schemas/gate/customers.js';
import { RailPayOut } from '../../src/model/schemas/gate/rails.js';
import { newCustomerInput } from '../../conformance/gate/customers.js';
import { lockQuote } from '../../conformance/gate/rails.js';
import { sessionBody } from '../../conformance/gate/support/sessions.js';
import { sendAndLoseResponse } from '../support/lostResponse.js';

/** List pages walked (starting_after) when counting objects that carry a marker. */
const MAX_PAGES = 25;

/** How many listed objects satisfy `mine`, walking the cursor list; `complete` is false when the page bound stopped the walk. */
async function countListed<T extends { id: string }>(
  ctx: CheckContext,
  client: ApiClient,
  path: string,
  schema: { parse(v: unknown): { data: T[]; has_more: boolean } } & Parameters<CheckContext['expect']['schema']>[1],
  mine: (o: T) => boolean,
  requirement: string,
): Promise<{ count: number; complete: boolean }> {
  let count = 0;
  let after: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const ex = ctx.expect.status(await client.get(path, after ? { starting_after: after } : undefined), 200, requirement);
    const list = ctx.expect.schema(ex, schema, requirement) as { data: T[]; has_more: boolean };
    count += list.data.filter(mine).length;
    if (!list.has_more || list.data.length === 0) return { count, complete: true };
    after = list.data[list.data.length - 1]!.id;
  }
  return { count, complete: false };
}

const LIST_PATH = { session: '/gate_sessions', customer: '/customers' } as const;

/** Exactly one listed object satisfies `mine` ("carries `by`"); a walk cut short by the page bound is observed. */
async function expectOneListed<T extends { id: string }>(
  ctx: CheckContext,
  client: ApiClient,
  noun: keyof typeof LIST_PATH,
  schema: Parameters<typeof countListed<T>>[3],
  mine: (o: T) => boolean,
  by: string,
  requirement: string,
): Promise<void> {
  const { count, complete } = await countListed(ctx, client, LIST_PATH[noun], schema, mine, requirement);
  if (!complete) ctx.observe(`gate.retry.${noun}sListBound`, MAX_PAGES, `the ${noun} list was longer than the pages walked; ${noun}s beyond them were not counted`);
  ctx.expect.equal(count, 1, `exactly one ${noun} carries ${by} after the lost response and its retry`, { requirement });
}

export default defineSuite({
  service: 'gate',
  section: 'Errors > Retry',
  checks: [
    {
      name: 'POST /gate_sessions whose response was lost, retried with the same Idempotency-Key: one session',
      requirements: ['GATE-ERR-RETRY-SESSION-ONE-OBJECT'],
      needs: ['gate.partner'],
      timeoutMs: 120_000,
      async run(ctx: CheckContext) {
        const R = 'GATE-ERR-RETRY-SESSION-ONE-OBJECT';
        const actor = ctx.gate.partner();
        const marker = `rampart-chaos-${randomUUID()}`;
        const body = sessionBody(ctx, { user_reference: marker });
        const key = randomUUID();
        const lost = await sendAndLoseResponse(ctx, actor, 'gate', (c) => c.post('/gate_sessions', body, { idempotencyKey: key, retry: false, timeoutMs: 15_000 }));
        const retry = ctx.expect.status(await lost.client.post('/gate_sessions', body, { idempotencyKey: key, retry: false }), [200, 201], R);
        const session = ctx.expect.schema(retry, CreatedGateSession, R);
        ctx.expect.equal(session.user_reference, marker, 'the retry answers the session created with this body', { requirement: R, exchange: retry });
        await expectOneListed(ctx, actor.client, 'session', GateSessionList, (s) => s.user_reference === marker, 'the marker', R);
      },
    },
    {
      name: 'POST /customers whose response was lost, retried with the same Idempotency-Key: one customer',
      requirements: ['GATE-ERR-RETRY-CUSTOMER-ONE-OBJECT'],
      needs: ['gate.partner'],
      timeoutMs: 120_000,
      async run(ctx: CheckContext) {
        const R = 'GATE-ERR-RETRY-CUSTOMER-ONE-OBJECT';
        const actor = ctx.gate.partner();
        const input = newCustomerInput();
        const key = randomUUID();
        const lost = await sendAndLoseResponse(ctx, actor, 'gate', (c) => c.post('/customers', input, { idempotencyKey: key, retry: false, timeoutMs: 15_000 }));
        // A second customer would collide on email/external_id (409): the retry must answer the first one.
        const retry = await lost.client.post('/customers', input, { idempotencyKey: key, retry: false });
        ctx.expect.that(retry.status >= 200 && retry.status < 300, 'the retry answers the customer created by the lost request', {
          requirement: R,
          expected: '2xx',
          actual: `${retry.status} ${retry.bodyText.slice(0, 200)}`,
          exchange: retry,
        });
        const customer = ctx.expect.schema(retry, Customer, R);
        ctx.expect.equal([customer.email, customer.external_id], [input.email, input.external_id], 'the retry answers the customer of this body', { requirement: R, exchange: retry });
        await expectOneListed(ctx, actor.client, 'customer', CustomerList, (c) => c.external_id === input.external_id, 'the external_id', R);
      },
    },
    {
      name: 'POST /rails/pay_outs whose response was lost, retried with the same Idempotency-Key: the one pay-out of the quote',
      requirements: ['GATE-ERR-RETRY-PAY-OUT-ONE-OBJECT'],
      needs: ['gate.rails'],
      timeoutMs: 120_000,
      async run(ctx: CheckContext) {
        const R = 'GATE-ERR-RETRY-PAY-OUT-ONE-OBJECT';
        const actor = ctx.gate.rails();
        const q = await lockQuote(ctx, actor, 'off_ramp', R);
        const body = { gate_session_id: q.sessionId, quote_id: q.quoteId };
        const key = randomUUID();
        const lost = await sendAndLoseResponse(ctx, actor, 'gate', (c) => c.post('/rails/pay_outs', body, { idempotencyKey: key, retry: false, timeoutMs: 15_000 }));
        const retry = await lost.client.post('/rails/pay_outs', body, { idempotencyKey: key, retry: false });
        // The quote redeems once: a second pay-out could only be a refusal here, so a 2xx is the first pay-out.
        ctx.expect.status(retry, [200, 201], R);
        const p = ctx.expect.schema(retry, RailPayOut, R);
        ctx.expect.equal([p.gate_session_id, p.quote_id], [q.sessionId, q.quoteId], 'the retry answers the pay-out of this quote', { requirement: R, exchange: retry });
        const again = ctx.expect.status(await actor.client.post('/rails/pay_outs', body, { idempotencyKey: key, retry: false }), [200, 201], R);
        ctx.expect.equal(ctx.expect.schema(again, RailPayOut, R).id, p.id, 'a further retry with the key answers the same pay-out', { requirement: R, exchange: again });
        const read = ctx.expect.status(await actor.client.get(`/rails/pay_outs/${encodeURIComponent(p.id)}`), 200, R);
        ctx.expect.equal(ctx.expect.schema(read, RailPayOut, R).quote_id, q.quoteId, 'GET /rails/pay_outs/{id} answers the pay-out', { requirement: R, exchange: read });
      },
    },
  ] satisfies CheckDef[],
});
