// Error cases one request proves together (support/gate/validation.ts): a 400 whose "; "-joined message names
// each invalid field in a part of its own proves each so named; every other field is sent alone, so a target
// that reports less, or words it otherwise, is judged field by field as before and never failed for it.
import { describe, expect, it } from 'vitest';
import type { Exchange } from '../src/client/types.js';
import type { CheckTools } from '../src/runner/check.js';
import { CheckFailed, expectations } from '../src/runner/expect.js';
import { refusedTogether, type InvalidField } from '../support/gate/validation.js';

const observed: unknown[] = [];
const t = { expect: expectations, observe: (_topic: string, value: unknown) => observed.push(value) } as unknown as CheckTools;

/** A 400 invalid_request answer with the documented envelope (X-Request-Id equal to request_id). */
function answer(status: number, message: string): Exchange {
  const json =
    status === 400 ? { type: 'invalid_request', code: 'parameter_invalid', message, request_id: 'req_1', doc_url: null, statusCode: 400 } : { id: 'x' };
  return {
    status,
    json,
    bodyText: JSON.stringify(json),
    requestId: 'req_1',
    headers: { 'x-request-id': 'req_1' },
    request: { method: 'POST', url: 'http://t/v1/x', headers: {} },
  } as unknown as Exchange;
}

const cases: InvalidField[] = [
  { field: 'amount', body: { amount: '1.00' }, requirement: 'GATE-RAIL-PAYOUT-MONEY-FIELD-400' },
  { field: 'name', body: { name: 'Ada' }, requirement: 'GATE-RAIL-PAYOUT-IDENTITY-FIELD-400' },
  { field: 'quote_id', body: { quote_id: undefined }, requirement: 'GATE-RAIL-PAYOUT-REQUIRED-400' },
];

/** Send with a target that answers every body by `respond`, recording the bodies sent. */
async function run(respond: (body: Record<string, unknown>) => Exchange) {
  const sent: Record<string, unknown>[] = [];
  await refusedTogether(
    t,
    async (body) => {
      sent.push(body);
      return respond(body);
    },
    { gate_session_id: 's_1', quote_id: 'q_1' },
    cases,
  );
  return sent;
}

describe('invalid fields in one body', () => {
  it('one request when the 400 names every field in a part of its own', async () => {
    const sent = await run(() => answer(400, 'amount comes from the quote; name comes from the user record; quote_id is required'));
    expect(sent).toEqual([{ gate_session_id: 's_1', amount: '1.00', name: 'Ada' }]);
  });

  it('a field the answer does not name, or names in a part with another, is sent alone', async () => {
    // "fiat_amount" is another word than "amount"; "first_name" than "name"; one part names two fields.
    const sent = await run(() => answer(400, 'fiat_amount comes from the quote; first_name is unknown; amount and name are not accepted; quoteId is required'));
    expect(sent.slice(1)).toEqual([
      { gate_session_id: 's_1', quote_id: 'q_1', amount: '1.00' },
      { gate_session_id: 's_1', quote_id: 'q_1', name: 'Ada' },
    ]);
  });

  it('several parts for one field prove it; a part naming two fields proves neither, and is never failed', async () => {
    // One field adds two parts; a part names two fields (amount and name), which are then proven only by parts of their own.
    const sent = await run(() => answer(400, 'amount and name are not accepted; amount comes from the quote; amount must not be sent; quote_id is required'));
    expect(sent.slice(1)).toEqual([{ gate_session_id: 's_1', quote_id: 'q_1', name: 'Ada' }]);
  });

  it('a part naming a field of the body besides a case field cannot prove it: it may mean the other', async () => {
    // "first name" is the spaced spelling of first_name, a field of the base body: the part proves neither it nor name.
    const sent: Record<string, unknown>[] = [];
    await refusedTogether(
      t,
      async (body) => {
        sent.push(body);
        return answer(400, 'first name must be at most 128 characters; amount comes from the quote; quote_id is required');
      },
      { gate_session_id: 's_1', quote_id: 'q_1', first_name: 'Ada' },
      cases,
    );
    expect(sent.slice(1)).toEqual([{ gate_session_id: 's_1', quote_id: 'q_1', first_name: 'Ada', name: 'Ada' }]);
  });

  it('a field refused by no 400 of its own fails under its own rule', async () => {
    const sent: Record<string, unknown>[] = [];
    const err = await refusedTogether(
      t,
      async (body) => {
        sent.push(body);
        // Only the missing quote_id is refused: amount and name are taken.
        return body.quote_id === undefined ? answer(400, 'quote_id is required') : answer(201, '');
      },
      { gate_session_id: 's_1', quote_id: 'q_1' },
      cases,
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CheckFailed);
    expect((err as CheckFailed).details.requirement).toBe('GATE-RAIL-PAYOUT-MONEY-FIELD-400');
    expect(sent).toHaveLength(2);
  });

  it('a combined body answered with no 400 fails at once', async () => {
    const err = await run(() => answer(201, '')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CheckFailed);
  });
});
