// Pools stored quotes: reads that neither consume nor extend, reject, the
// terminal 409s and the status precedence rejected > consumed > expired > active.
import { check, defineSuite, type CheckTools, type RequirementId } from '../../src/runner/check.js';
import type { PoolsActor } from '../../src/needs/define.js';
import { StoredQuote } from '../../src/model/schemas/pools/index.js';
import { expect2xx } from '../../support/expect.js';
import { expectPoolsError } from '../../support/pools/errors.js';
import { createFirmQuote, expectBalanceMove, mainPool, poolPath, quotePath, transact, waitPastExpiry } from '../../support/pools/pools.js';

async function readQuote(t: CheckTools, actor: PoolsActor, quoteId: string, requirement: RequirementId) {
  const ex = expect2xx(t, await actor.client.get(quotePath(quoteId)), requirement);
  return { ex, q: t.expect.schema(ex, StoredQuote, requirement) };
}

/** Reject (no body, no idempotency key); the success status is not shown: any 2xx. */
async function reject(t: CheckTools, actor: PoolsActor, quoteId: string, requirement: RequirementId) {
  return expect2xx(t, await actor.client.post(quotePath(quoteId, '/reject'), undefined, { retry: false }), requirement, 'reject of an active quote');
}

export default defineSuite({
  service: 'pools',
  section: 'Resources and their fields > Stored quote',
  checks: [
    check({
      name: 'reading a stored quote neither consumes nor extends it; transact then reads consumed',
      requirements: ['POOLS-SQ-SHAPE', 'POOLS-SQ-READ-NO-CONSUME', 'POOLS-SQ-READ-NO-EXTEND', 'POOLS-TX-QUOTE-CONSUMED'],
      needs: ['poolsPartner'],
      async run({ poolsPartner: actor }, t: CheckTools) {
        const fq = await createFirmQuote(t, actor, 'POOLS-SQ-SHAPE');
        const { ex: first, q } = await readQuote(t, actor, fq.quote.quoteId, 'POOLS-SQ-SHAPE');
        t.expect.equal(q.quoteId, fq.quote.quoteId, 'stored quoteId', { requirement: 'POOLS-SQ-SHAPE', exchange: first });
        t.expect.equal(q.poolId, mainPool(t), 'stored poolId is the quoted pool', { requirement: 'POOLS-SQ-SHAPE', exchange: first });
        t.expect.equal(q.side, 'on_ramp', 'stored side is the quoted side', { requirement: 'POOLS-SQ-SHAPE', exchange: first });
        // Nothing but the read touched it: a first read that shows it consumed consumed it.
        t.expect.equal(q.status, 'active', 'a fresh quote reads active', { requirement: 'POOLS-SQ-READ-NO-CONSUME', exchange: first });
        t.expect.equal(q.consumedAt, null, 'consumedAt is null while active', { requirement: 'POOLS-SQ-READ-NO-CONSUME', exchange: first });
        t.expect.equal(q.rejectedAt, null, 'rejectedAt is null while active', { requirement: 'POOLS-SQ-SHAPE', exchange: first });
        t.expect.equal(Date.parse(q.expiresAt), Date.parse(fq.quote.expiresAt), 'stored expiresAt equals the creation expiresAt', {
          requirement: 'POOLS-SQ-READ-NO-EXTEND',
          exchange: first,
        });
        await t.sleep(1100, 'a second apart, so an extending read would show', 'target');
        const { ex: second, q: again } = await readQuote(t, actor, fq.quote.quoteId, 'POOLS-SQ-READ-NO-EXTEND');
        t.expect.equal(Date.parse(again.expiresAt), Date.parse(fq.quote.expiresAt), 'a later read leaves expiresAt unchanged', {
          requirement: 'POOLS-SQ-READ-NO-EXTEND',
          exchange: second,
        });
        t.expect.equal(again.status, 'active', 'two reads leave the quote active', { requirement: 'POOLS-SQ-READ-NO-CONSUME', exchange: second });
        t.expect.equal(again.consumedAt, null, 'two reads leave consumedAt null', { requirement: 'POOLS-SQ-READ-NO-CONSUME', exchange: second });
        await transact(t, actor, fq.quote.quoteId, 'POOLS-SQ-READ-NO-CONSUME');
        const { ex: after, q: consumed } = await readQuote(t, actor, fq.quote.quoteId, 'POOLS-TX-QUOTE-CONSUMED');
        t.expect.equal(consumed.status, 'consumed', 'a transacted quote reads consumed', { requirement: 'POOLS-TX-QUOTE-CONSUMED', exchange: after });
        t.expect.that(consumed.consumedAt !== null, 'consumedAt is set once consumed', { requirement: 'POOLS-TX-QUOTE-CONSUMED', exchange: after });
        t.expect.equal(consumed.rejectedAt, null, 'rejectedAt stays null', { requirement: 'POOLS-SQ-SHAPE', exchange: after });
      },
    }),
    check({
      name: 'reject turns an active quote rejected without moving money; reject and transact again give 409',
      requirements: ['POOLS-SQ-REJECT', 'POOLS-SQ-REJECT-TERMINAL-409', 'POOLS-SQ-TRANSACT-REJECTED-409', 'POOLS-BAL-REJECT-NO-MONEY', 'POOLS-ERR-ENVELOPE'],
      // Held alone: the balance must move only by what this check does.
      needs: ['poolsExclusive'],
      async run({ poolsExclusive: actor }, t: CheckTools) {
        let quoteId = '';
        await expectBalanceMove(t, actor, 'POOLS-BAL-REJECT-NO-MONEY', 'reject of an active quote', 1, async () => {
          const fq = await createFirmQuote(t, actor, 'POOLS-SQ-REJECT');
          quoteId = fq.quote.quoteId;
          const ex = await reject(t, actor, quoteId, 'POOLS-SQ-REJECT');
          const q = t.expect.schema(ex, StoredQuote, 'POOLS-SQ-REJECT');
          t.expect.equal(q.status, 'rejected', 'reject answers the stored quote with status rejected', { requirement: 'POOLS-SQ-REJECT', exchange: ex });
          t.expect.that(q.rejectedAt !== null, 'rejectedAt is set', { requirement: 'POOLS-SQ-REJECT', exchange: ex });
          t.expect.equal(q.consumedAt, null, 'a rejected quote was never consumed', { requirement: 'POOLS-SQ-REJECT', exchange: ex });
          return { direction: 'none', result: undefined };
        });
        expectPoolsError(t, await actor.client.post(quotePath(quoteId, '/reject'), undefined, { retry: false }), 409, {
          requirement: 'POOLS-SQ-REJECT-TERMINAL-409',
        });
        const tx = await actor.client.post(poolPath(mainPool(t), '/transact'), { quoteId }, { idempotencyKey: true, retry: false });
        expectPoolsError(t, tx, 409, { requirement: 'POOLS-SQ-TRANSACT-REJECTED-409' });
        const { ex, q } = await readQuote(t, actor, quoteId, 'POOLS-SQ-REJECT');
        t.expect.equal(q.status, 'rejected', 'the quote still reads rejected', { requirement: 'POOLS-SQ-REJECT', exchange: ex });
      },
    }),
    check({
      name: 'reject of a consumed quote gives 409 and leaves it consumed',
      requirements: ['POOLS-SQ-REJECT-TERMINAL-409', 'POOLS-ERR-ENVELOPE'],
      needs: ['poolsPartner'],
      async run({ poolsPartner: actor }, t: CheckTools) {
        const R = 'POOLS-SQ-REJECT-TERMINAL-409';
        const fq = await createFirmQuote(t, actor, R);
        await transact(t, actor, fq.quote.quoteId, R);
        expectPoolsError(t, await actor.client.post(quotePath(fq.quote.quoteId, '/reject'), undefined, { retry: false }), 409, { requirement: R });
        const { ex, q } = await readQuote(t, actor, fq.quote.quoteId, R);
        t.expect.equal(q.status, 'consumed', 'a refused reject leaves the quote consumed', { requirement: R, exchange: ex });
      },
    }),
    check({
      name: 'past the spec TTL: rejected and consumed quotes keep their status, an untouched one reads expired and refuses reject',
      requirements: ['POOLS-SQ-PRECEDENCE', 'POOLS-TTL-STATUS-EXPIRED', 'POOLS-SQ-REJECT-TERMINAL-409', 'POOLS-ERR-ENVELOPE'],
      needs: ['poolsPartner'],
      async run({ poolsPartner: actor }, t: CheckTools) {
        const R = 'POOLS-SQ-PRECEDENCE';
        const rejected = await createFirmQuote(t, actor, R);
        await reject(t, actor, rejected.quote.quoteId, R);
        const consumed = await createFirmQuote(t, actor, R);
        await transact(t, actor, consumed.quote.quoteId, R);
        const untouched = await createFirmQuote(t, actor, R);
        // The spec's TTL (about 15 s) plus the profile's tolerance, whatever expiresAt the target gave.
        await waitPastExpiry(t, untouched);
        const a = await readQuote(t, actor, rejected.quote.quoteId, R);
        t.expect.equal(a.q.status, 'rejected', 'rejected outranks expired', { requirement: R, exchange: a.ex });
        const b = await readQuote(t, actor, consumed.quote.quoteId, R);
        t.expect.equal(b.q.status, 'consumed', 'consumed outranks expired', { requirement: R, exchange: b.ex });
        const c = await readQuote(t, actor, untouched.quote.quoteId, 'POOLS-TTL-STATUS-EXPIRED');
        t.expect.equal(c.q.status, 'expired', 'a quote past the spec TTL (about 15 s) reads expired', {
          requirement: 'POOLS-TTL-STATUS-EXPIRED',
          exchange: c.ex,
        });
        expectPoolsError(t, await actor.client.post(quotePath(untouched.quote.quoteId, '/reject'), undefined, { retry: false }), 409, {
          requirement: 'POOLS-SQ-REJECT-TERMINAL-409',
        });
        const d = await readQuote(t, actor, untouched.quote.quoteId, R);
        t.expect.equal(d.q.status, 'expired', 'a refused reject leaves the quote expired', { requirement: R, exchange: d.ex });
      },
    }),
  ],
});
