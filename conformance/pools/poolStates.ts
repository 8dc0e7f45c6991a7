// Pools availability as it changes: a sandbox control (pools.triggers.poolState)
// puts the main pool, as one partner held alone sees it, into each documented
// unavailable state and back. Every reason must answer 200 with available
// false and that reason (never a lock), and discovery must show the pool's
// current state, then available again: a dry pool reads available false; what a
// pool whose engine or rate is unavailable reads is observed ("available (boolean,
// current state only)" does not say an outage of either makes the pool unavailable).
import { check, defineSuite, type CheckTools } from '../../src/runner/check.js';
import type { PoolsActor } from '../../src/needs/define.js';
import { FirmQuote, PoolsList, UNAVAILABLE_REASONS, UnavailableQuote } from '../../src/model/schemas/pools/index.js';
import { expect2xx } from '../../support/expect.js';
import { mainPool, poolPath, quoteBody, readBalance } from '../../support/pools/pools.js';

/** The main pool as GET /pools lists it now. */
async function listed(t: CheckTools, actor: PoolsActor) {
  const R = 'POOLS-DISC-AVAILABLE-CURRENT';
  const ex = expect2xx(t, await actor.client.get('/pools'), R, 'GET /pools');
  const pool = t.expect.schema(ex, PoolsList, R).pools.find((p) => p.id === mainPool(t));
  t.expect.that(pool !== undefined, `GET /pools lists the main pool ${mainPool(t)}`, { requirement: R, exchange: ex });
  return { ex, pool };
}

export default defineSuite({
  service: 'pools',
  section: 'Resources and their fields > Quote creation response',
  checks: [
    check({
      name: 'every unavailable reason answers 200 with available false, that reason and no quoteId; GET /pools shows the pool unavailable, then available again',
      requirements: ['POOLS-QUOTE-UNAVAILABLE', 'POOLS-DISC-AVAILABLE-CURRENT'],
      // Held alone: the pool changes for this partner while the check runs.
      needs: ['poolsExclusive', 'poolsPoolState'],
      async run({ poolsExclusive: actor, poolsPoolState: setState }, t: CheckTools) {
        const pool = mainPool(t);
        const R = 'POOLS-QUOTE-UNAVAILABLE';
        const A = 'POOLS-DISC-AVAILABLE-CURRENT';
        try {
          for (const reason of UNAVAILABLE_REASONS) {
            await setState(pool, reason, actor);
            const { ex: listEx, pool: now } = await listed(t, actor);
            if (reason === 'pool_dry')
              t.expect.equal(now.available, false, `GET /pools shows ${pool} available false while it is ${reason}`, { requirement: A, exchange: listEx });
            else
              t.observe(`pools-discovery-available-${reason}`, now.available, 'whether an engine or rate outage makes the pool itself unavailable is not said');
            for (const type of ['firm', 'indicative']) {
              const ex = await actor.client.post(poolPath(pool, '/quote'), quoteBody(t, { type }), { retry: false });
              t.expect.status(ex, 200, R);
              const q = t.expect.schema(ex, UnavailableQuote, R);
              t.expect.equal(q.unavailableReason, reason, `a ${type} quote on a pool that is ${reason} names that reason`, { requirement: R, exchange: ex });
            }
            t.observe(`pools-balance-available-${reason}`, (await readBalance(t, actor, R)).available);
          }
          await setState(pool, 'available', actor);
          const { ex: backEx, pool: back } = await listed(t, actor);
          t.expect.equal(back.available, true, `GET /pools shows ${pool} available again once it is back`, { requirement: A, exchange: backEx });
          const firm = expect2xx(
            t,
            await actor.client.post(poolPath(pool, '/quote'), quoteBody(t, { type: 'firm' }), { retry: false }),
            A,
            'a firm quote once the pool is back',
          );
          t.expect.schema(firm, FirmQuote, A);
        } finally {
          // Whatever happened, the partner leaves with the pool available (a broken trigger has already made the check unverified).
          await setState(pool, 'available', actor).catch(() => undefined);
        }
      },
    }),
  ],
});
