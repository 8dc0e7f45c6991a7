// Sandbox-only helpers for what only a bank, a chain or the operator could
// cause: the outcome the next settlement poll discovers, where the partner's
// pools webhooks go, a pool's state as the partner sees it, a pay-in to the
// pre-funded balance, and a day passing for the velocity window. Reached by the harness only through the profile's
// triggers; they exist on the sandbox base only (404 on production) and need
// the partner's secret key.
import { choiceOf } from '../kit/dialect.js';
import { HttpError, jsonObject, type Req } from '../kit/http.js';
import { isDecimal, parse } from './money.js';
import { POOL_STATES, setPoolState, type PoolState } from './poolStates.js';
import { advanceVelocity } from './transact.js';
import type { Caller, Outcome, PoolsArea, PoolsWorld } from './world.js';

const OUTCOMES: readonly Outcome[] = ['settled', 'failed', 'released', 'returned'];

function sandboxCaller(world: PoolsWorld, req: Req): Caller {
  const caller = world.auth(req);
  if (caller.mode !== 'test') throw new HttpError(404, 'Sandbox helpers exist only on the sandbox base.', 'route_not_found');
  return caller;
}

/** The second world's pool-state words (reference.controlDialect 'own', pools.controls.words 'own-words'): its control's language, not the spec's. */
export const OWN_STATE_WORDS: Record<string, PoolState> = {
  open: 'available',
  dry: 'pool_dry',
  engine_down: 'engine_unavailable',
  no_rate: 'rate_unavailable',
};

/** The incoming bank fee of the second world's pay-ins (reference.poolsBalanceFees). */
const PAYIN_FEE = '0.25';

export const area: PoolsArea = {
  name: 'sandboxHelpers',
  faults: [],
  register(router, world) {
    const prefix = world.profile.reference?.helperPrefix ?? '/_sandbox';

    router.on('POST', `${prefix}/trades/:quoteId/outcome`, (req) => {
      const caller = sandboxCaller(world, req);
      const q = world.quote(caller, req.params.quoteId!);
      const b = jsonObject(req);
      if (typeof b.outcome !== 'string' || !OUTCOMES.includes(b.outcome as Outcome))
        throw new HttpError(400, `outcome must be one of ${OUTCOMES.join(', ')}`, 'parameter_invalid');
      world.outcomes.set(q.quoteId, b.outcome as Outcome);
      return { status: 200, body: { quoteId: q.quoteId, outcome: b.outcome } };
    });

    router.on('PUT', `${prefix}/webhook-settings`, (req) => {
      const caller = sandboxCaller(world, req);
      const b = jsonObject(req);
      const url = b.webhook_url;
      if (url !== null && (typeof url !== 'string' || !/^https?:\/\/\S+$/.test(url)))
        throw new HttpError(400, 'webhook_url must be an http(s) URL or null', 'parameter_invalid');
      world.state(caller).webhookUrl = url as string | null;
      return { status: 200, body: { webhook_url: url } };
    });

    // The pool's state for the calling partner only: other partners keep seeing the catalogue's.
    // Reading (reference.controlDialect 'own', the second world, or pools.controls.words): the control takes its own words (dry, not pool_dry).
    const own = world.profile.reference?.controlDialect === 'own' || choiceOf(world.profile, 'pools.controls.words') === 'own-words';
    const words: Record<string, PoolState> = own ? OWN_STATE_WORDS : Object.fromEntries(POOL_STATES.map((x) => [x, x]));
    router.on('POST', `${prefix}/pools/:poolId/state`, (req) => {
      const caller = sandboxCaller(world, req);
      const pool = world.pool(req.params.poolId!);
      if (!pool) throw new HttpError(404, `No such pool: ${req.params.poolId}`, 'pool_not_found');
      const b = jsonObject(req);
      const state = typeof b.state === 'string' && Object.hasOwn(words, b.state) ? words[b.state]! : undefined;
      if (!state) throw new HttpError(400, `state must be one of ${Object.keys(words).join(', ')}`, 'parameter_invalid');
      setPoolState(world, caller, pool, state);
      return { status: 200, body: { poolId: pool.id, state: b.state } };
    });

    // The partner's rolling 24 h velocity window, moved forward: its trades age as if the time had passed.
    router.on('POST', `${prefix}/velocity/advance`, (req) => {
      const caller = sandboxCaller(world, req);
      const seconds = Number(jsonObject(req).seconds);
      if (!Number.isFinite(seconds) || seconds <= 0) throw new HttpError(400, 'seconds must be a positive number', 'parameter_invalid');
      advanceVelocity(world, caller, seconds * 1000);
      return { status: 200, body: { advancedSeconds: seconds } };
    });

    // A bank pay-in to the partner's pre-funded EUR balance (a payin_credit ledger entry).
    router.on('POST', `${prefix}/payins`, (req) => {
      const caller = sandboxCaller(world, req);
      const b = jsonObject(req);
      if (!isDecimal(b.amount) || parse(b.amount) <= 0n) throw new HttpError(400, 'amount must be a positive decimal string', 'parameter_invalid');
      const currency = b.currency ?? 'EUR';
      if (currency !== 'EUR') throw new HttpError(400, 'Pay-ins are EUR only.', 'unsupported_currency');
      // Reading (reference.poolsBalanceFees): the bank pay-in is credited net of a 0.25 EUR incoming fee (the spec states no amount).
      const amount = parse(b.amount);
      const fee = parse(PAYIN_FEE);
      const e = world.post(world.state(caller), 'payin_credit', world.profile.reference?.poolsBalanceFees && amount > fee ? amount - fee : amount, null);
      return { status: 200, body: { id: e.id, amount: e.amount, currency, balanceAfter: e.balanceAfter } };
    });
  },
};
