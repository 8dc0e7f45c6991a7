// Assertions shared by checks of both services beyond the basic expectations.
import type { Exchange } from '../src/client/types.js';
import type { CheckTools, RequirementId } from '../src/runner/check.js';

/** A success whose status code the spec leaves "not shown": any 2xx passes (judge the effect through a read). */
export function expect2xx(t: CheckTools, ex: Exchange, requirement: RequirementId, what?: string): Exchange {
  t.expect.that(
    ex.status >= 200 && ex.status < 300,
    `${what ?? `${ex.request.method} ${new URL(ex.request.url).pathname}`} succeeds (any 2xx: the success status is not shown)`,
    {
      requirement,
      expected: '2xx',
      actual: `${ex.status} ${ex.bodyText.slice(0, 200)}`,
      exchange: ex,
    },
  );
  return ex;
}
