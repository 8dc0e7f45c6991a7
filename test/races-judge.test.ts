// The race judge (src/races): a burst passes when some serial order that keeps real time reproduces every answer
// and the state after, replayed on the oracle. Here the oracle is a small in-memory model of one signed quote that
// one redemption consumes (and of a customer email that one create reserves), so the search itself is what is tested.
import { describe, expect, it } from 'vitest';
import { judgeBurst, type JudgeInput } from '../src/races/judge.js';
import { candidateOrders, countOrders, type TimedRequest } from '../src/races/orders.js';

type Answer = { status: number; trade?: string };
type Req = TimedRequest & { answer?: Answer; op: 'redeem' | 'read'; key: string };

/** One quote: the first redemption under any key takes it (201, trade t1); a replay of that key answers the same; another key gets 409, or — the second documented reading — the existing trade. */
function model(reading: 'conflict' | 'existing') {
  return async (reqs: readonly Req[], order: readonly number[]) => {
    let takenBy: string | undefined;
    const answers = new Map<number, Answer>();
    for (const i of order) {
      const r = reqs[i]!;
      if (r.op === 'read') answers.set(i, { status: 200, ...(takenBy ? { trade: 't1' } : {}) });
      else if (!takenBy) {
        takenBy = r.key;
        answers.set(i, { status: 201, trade: 't1' });
      } else if (takenBy === r.key || reading === 'existing') answers.set(i, { status: 200, trade: 't1' });
      else answers.set(i, { status: 409 });
    }
    return { answers, after: takenBy ? 'consumed' : 'active' };
  };
}

const is2xx = (s: number) => s >= 200 && s < 300;

function input(reqs: Req[], after: string, reading: 'conflict' | 'existing' = 'conflict', maxOrders = 1000): JudgeInput<Answer, string> {
  const m = model(reading);
  return {
    requests: reqs,
    after,
    replay: (order) => m(reqs, order),
    // A success is any 2xx carrying the same trade; an error its status.
    compareAnswer: (_i, t, o) =>
      (is2xx(t.status) && is2xx(o.status) && t.trade === o.trade) || t.status === o.status ? undefined : { what: 'the outcome', target: t, oracle: o },
    compareAfter: (t, o) => (t === o ? undefined : { what: 'the quote after', target: t, oracle: o }),
    maxOrders,
  };
}

const at = (sentAt: number, answeredAt: number | undefined, answer: Answer | undefined, extra: Partial<Req> = {}): Req => ({
  sentAt,
  ...(answeredAt !== undefined ? { answeredAt } : {}),
  ...(answer ? { answer } : {}),
  effect: 'applied',
  op: 'redeem',
  key: 'k1',
  ...extra,
});

describe('candidate orders', () => {
  it('keep real time: one answered before another was sent stays before it', () => {
    const reqs: TimedRequest[] = [
      { sentAt: 0, answeredAt: 5, effect: 'applied' },
      { sentAt: 10, answeredAt: 15, effect: 'applied' },
      { sentAt: 11, answeredAt: 14, effect: 'applied' },
    ];
    expect([...candidateOrders(reqs)]).toEqual([
      [0, 1, 2],
      [0, 2, 1],
    ]);
  });
  it('a request without an answer may land anywhere after it was sent, or not at all; a 429 never', () => {
    const reqs: TimedRequest[] = [
      { sentAt: 0, effect: 'maybe' },
      { sentAt: 1, answeredAt: 3, effect: 'applied' },
      { sentAt: 2, answeredAt: 4, effect: 'refused' },
    ];
    expect([...candidateOrders(reqs)]).toEqual([[0, 1], [1, 0], [1]]);
    expect(countOrders(reqs)).toBe(3);
  });
  it('five requests sent at once have 120 orders', () => {
    const reqs = Array.from({ length: 5 }, (_, i): TimedRequest => ({ sentAt: i, answeredAt: 100 + i, effect: 'applied' }));
    expect(countOrders(reqs)).toBe(120);
  });
});

describe('the judge', () => {
  it('two redemptions of one quote under two keys, both answered 201: no serial order explains them', async () => {
    const j = await judgeBurst(
      input([at(0, 20, { status: 201, trade: 't1' }, { key: 'a' }), at(1, 21, { status: 201, trade: 't1' }, { key: 'b' })], 'consumed'),
    );
    expect(j.verdict).toBe('unexplained');
    if (j.verdict !== 'unexplained') return;
    expect(j.closest.matched).toBe(1);
    expect(j.closest.parting).toMatchObject({ what: 'the outcome', target: { status: 201 }, oracle: { status: 409 } });
  });

  it('a burst only an order against real time explains fails: a 409 answered before the 201 was even sent', async () => {
    // The second key's redemption was refused (409: consumed) and answered at 10; the first key's, sent at 20, got the quote.
    const reqs = [at(0, 10, { status: 409 }, { key: 'b' }), at(20, 30, { status: 201, trade: 't1' }, { key: 'a' })];
    expect((await judgeBurst(input(reqs, 'consumed'))).verdict).toBe('unexplained');
    // Sent at once, the same answers are explained (a's redemption first).
    const together = [at(0, 30, { status: 409 }, { key: 'b' }), at(1, 31, { status: 201, trade: 't1' }, { key: 'a' })];
    expect(await judgeBurst(input(together, 'consumed'))).toMatchObject({ verdict: 'explained', order: [1, 0] });
  });

  it('a 429 the client retries counts as not applied: the other redemption explains the consumed quote', async () => {
    const reqs = [at(0, 5, { status: 429 }, { key: 'a', effect: 'refused' }), at(1, 9, { status: 201, trade: 't1' }, { key: 'b' })];
    expect(await judgeBurst(input(reqs, 'consumed'))).toMatchObject({ verdict: 'explained', order: [1] });
  });

  it('both documented readings of a consumed quote under another key pass: 409, or the existing trade', async () => {
    const conflict = [at(0, 10, { status: 201, trade: 't1' }, { key: 'a' }), at(1, 11, { status: 409 }, { key: 'b' })];
    expect((await judgeBurst(input(conflict, 'consumed', 'conflict'))).verdict).toBe('explained');
    const existing = [at(0, 10, { status: 201, trade: 't1' }, { key: 'a' }), at(1, 11, { status: 200, trade: 't1' }, { key: 'b' })];
    expect((await judgeBurst(input(existing, 'consumed', 'existing'))).verdict).toBe('explained');
  });

  it('a request without an answer may have taken effect: a later 409 and the consumed quote are explained by it', async () => {
    const reqs = [at(0, undefined, undefined, { key: 'a', effect: 'maybe' }), at(1, 8, { status: 409 }, { key: 'b' })];
    expect(await judgeBurst(input(reqs, 'consumed'))).toMatchObject({ verdict: 'explained', order: [0, 1] });
    // Without it, the quote could not be consumed while the other key was refused.
    const refused = [at(0, 5, { status: 429 }, { key: 'a', effect: 'refused' }), at(1, 8, { status: 409 }, { key: 'b' })];
    expect((await judgeBurst(input(refused, 'consumed'))).verdict).toBe('unexplained');
  });

  it('the state read after must be explained too: answers a serial order gives, but the quote read active after', async () => {
    const reqs = [at(0, 10, { status: 201, trade: 't1' }, { key: 'a' }), at(1, 11, { status: 409 }, { key: 'b' })];
    const j = await judgeBurst(input(reqs, 'active'));
    expect(j.verdict).toBe('unexplained');
    if (j.verdict === 'unexplained')
      expect(j.closest).toMatchObject({ matched: 2, parting: { what: 'the quote after', target: 'active', oracle: 'consumed' } });
  });

  it('a search past its bound ends unverified with the reason, never passed', async () => {
    const reqs = [0, 1, 2].map((k) => at(k, 50 + k, { status: 201, trade: 't1' }, { key: `k${k}` }));
    const j = await judgeBurst(input(reqs, 'consumed', 'conflict', 2));
    expect(j).toMatchObject({ verdict: 'unverified', tried: 2 });
    if (j.verdict === 'unverified') expect(j.why).toMatch(/bound \(2 orders\)/);
  });
});
