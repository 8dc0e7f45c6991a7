// Tenant isolation of the Gate lists: another partner's list must never show an
// object. A list's order is not shown (sessions, customers), so "never shows" is
// judged on the whole list, walked page by page with starting_after (the
// documented cursor of GET /gate_sessions, and this API's convention), within a
// bound; a list longer than the bound leaves the rule unverified, never passed.
import type { GateActor } from '../../src/needs/define.js';
import type { CheckTools, RequirementId } from '../../src/runner/check.js';
import { expect2xx } from '../expect.js';

/** Pages walked before giving up on seeing the whole list. */
export const MAX_TENANT_PAGES = 10;

/**
 * Walk `actor`'s list at `path` (bounded) and fail when an item has id `id`;
 * unverified when the list did not end within the bound.
 */
export async function expectNeverListed(t: CheckTools, actor: GateActor, path: string, id: string, requirement: RequirementId, what: string): Promise<void> {
  let startingAfter: string | undefined;
  let seen = 0;
  for (let page = 0; page < MAX_TENANT_PAGES; page++) {
    const ex = expect2xx(
      t,
      await actor.client.get(path, startingAfter ? { starting_after: startingAfter } : undefined),
      requirement,
      `GET ${path} of another partner`,
    );
    const data: unknown = ex.json?.data;
    t.expect.that(Array.isArray(data), `GET ${path} answers a list with a data array`, { requirement, exchange: ex });
    const items = data as { id?: unknown }[];
    seen += items.length;
    t.expect.that(!items.some((x) => x?.id === id), `another partner's GET ${path} never shows ${what}`, {
      requirement,
      actual: `${id} is listed on page ${page + 1}`,
      exchange: ex,
    });
    const last = items[items.length - 1]?.id;
    if (ex.json?.has_more !== true || typeof last !== 'string') return;
    startingAfter = last;
  }
  t.unverified(
    `another partner's GET ${path} goes on past ${MAX_TENANT_PAGES} pages (${seen} items, order not shown): ${what} was not among them, but the whole list was not seen`,
  );
}
