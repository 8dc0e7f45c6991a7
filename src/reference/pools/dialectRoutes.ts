// What every pools route answers the same way in a world that reads the spec its own way: the 400 and 409 code
// values (pools.errors.codes) and a request-rate throttle (pools.limits.rate). The router is wrapped before the
// areas register (index.ts), like the envelope fault of authErrors.ts; the sandbox controls are left alone.
import { choiceOf } from '../kit/dialect.js';
import { HttpError, type Req, type Router } from '../kit/http.js';
import { bearerToken, type PoolsWorld } from './world.js';

/** The throttle of pools.limits.rate 'throttle-20s': requests one key may send in any one second. */
export const THROTTLE_PER_SECOND = 20;

/** Codes the spec fixes: kept in every world. */
const DOCUMENTED_CODES = new Set(['invalid_limit', 'idempotency-conflict']);

/** A 400 or 409 whose code the spec leaves open carries its type instead (pools.errors.codes 'type'). */
function codeAsType(e: HttpError): HttpError {
  if ((e.status !== 400 && e.status !== 409) || (e.code && DOCUMENTED_CODES.has(e.code))) return e;
  const out = new HttpError(e.status, e.message, e.type, e.type, e.headers);
  out.stack = e.stack;
  return out;
}

/** Per key, the instants of its requests in the last second. */
function throttle(world: PoolsWorld): (req: Req) => void {
  const seen = new Map<string, number[]>();
  return (req) => {
    const key = bearerToken(req);
    if (!key) return;
    const now = world.clock.now();
    const recent = (seen.get(key) ?? []).filter((at) => now - at < 1000);
    if (recent.length >= THROTTLE_PER_SECOND) {
      seen.set(key, recent);
      throw new HttpError(429, `Too many requests: at most ${THROTTLE_PER_SECOND} a second per key.`, 'rate_limited', 'rate_limited', { 'retry-after': '1' });
    }
    recent.push(now);
    seen.set(key, recent);
  };
}

export function withDialectRoutes(router: Router, world: PoolsWorld): Router {
  const asType = choiceOf(world.profile, 'pools.errors.codes') === 'type';
  const limit = choiceOf(world.profile, 'pools.limits.rate') === 'throttle-20s' ? throttle(world) : undefined;
  if (!asType && !limit) return router;
  const helpers = `${world.profile.reference?.helperPrefix ?? '/_sandbox'}/`;
  const on = router.on.bind(router);
  router.on = (method, pattern, handler) =>
    on(method, pattern, async (req) => {
      if (limit && !pattern.startsWith(helpers)) limit(req);
      try {
        return await handler(req);
      } catch (e) {
        if (asType && e instanceof HttpError) throw codeAsType(e);
        throw e;
      }
    });
  return router;
}
