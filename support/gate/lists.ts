// Tenant isolation of the Gate lists: another partner's list must never show an
// object. A list's order is not shown (sessions, customers, transactions), so
// "never shows" is judged on the whole list, walked page by page with
// starting_after (the documented cursor of GET /gate_sessions, and this API's
// convention), within a bound wide enough for a lived-in sandbox (partners hold
// hundreds of objects from earlier runs); a list longer than the bound, or one
// whose cursor does not move it, leaves the rule unverified, never passed.
import type { Exchange } from '../../src/client/types.js';
import type { GateActor } from '../../src/needs/define.js';
import type { CheckTools, RequirementId } from '../../src/runner/check.js';
import { UnshapedList } from '../../src/model/schemas/gate/capabilities.js';
import { expect2xx } from '../expect.js';
import { stringsIn } from './sessions.js';

/** Pages walked before giving up on seeing the whole list (thousands of objects at any page size a target is likely to use). */
export const MAX_TENANT_PAGES = 100;

export interface ListWalk {
  /** The id an item is matched by and the cursor taken from the page's last item (default: its `id`). */
  idOf?: (item: unknown) => string | undefined;
  /** The list's cursor is not shown in the spec (transactions): starting_after is tried as the API's convention. */
  cursorNotShown?: boolean;
}

/**
 * Walk `actor`'s list at `path` (bounded) and fail when an item has id `id`;
 * unverified when the list did not end within the bound or its cursor did not move it.
 */
export async function expectNeverListed(
  t: CheckTools,
  actor: GateActor,
  path: string,
  id: string,
  requirement: RequirementId,
  what: string,
  walk: ListWalk = {},
): Promise<void> {
  const idOf = walk.idOf ?? ((x: unknown) => (typeof (x as { id?: unknown })?.id === 'string' ? (x as { id: string }).id : undefined));
  let startingAfter: string | undefined;
  const seen = new Set<string>();
  for (let page = 0; page < MAX_TENANT_PAGES; page++) {
    const ex = expect2xx(
      t,
      await actor.client.get(path, startingAfter ? { starting_after: startingAfter } : undefined),
      requirement,
      `GET ${path} of another partner`,
    );
    const data: unknown = ex.json?.data;
    t.expect.that(Array.isArray(data), `GET ${path} answers a list with a data array`, { requirement, exchange: ex });
    const items = data as unknown[];
    t.expect.that(
      !items.some((x) => idOf(x) === id || (walk.idOf === undefined ? false : stringsIn(x).includes(id))),
      `another partner's GET ${path} never shows ${what}`,
      {
        requirement,
        actual: `${id} is listed on page ${page + 1}`,
        exchange: ex,
      },
    );
    const ids = items.map(idOf);
    if (page > 0 && ids.some((i) => i !== undefined && seen.has(i)))
      t.unverified(
        `another partner's GET ${path} answered items of an earlier page for starting_after=${startingAfter}${walk.cursorNotShown ? ' (its cursor is not shown in the spec)' : ''}: the rest of the list cannot be walked, and ${what} was not among the ${seen.size} items seen`,
      );
    for (const i of ids) if (i !== undefined) seen.add(i);
    const last = ids[ids.length - 1];
    if (ex.json?.has_more !== true) return;
    if (last === undefined)
      t.unverified(
        `another partner's GET ${path} says has_more but its last item carries no id to continue from: ${what} was not among the ${seen.size} items seen`,
      );
    startingAfter = last;
  }
  t.unverified(
    `another partner's GET ${path} goes on past ${MAX_TENANT_PAGES} pages (${seen.size} items, order not shown): ${what} was not among them, but the whole list was not seen`,
  );
}

export interface Walked {
  items: unknown[];
  /** The whole list was seen (has_more false on the last page read). */
  complete: boolean;
  /** Why the walk stopped short, when it did. */
  stopped?: string;
  /** Which of the cursor values (cursorsOf, by position) the target took, once one moved the list. */
  cursorTaken?: number;
}

/**
 * Walk a Gate list whose query parameters are not shown (GET /transactions): page one, then starting_after with a
 * value the page's last item offers (`cursorsOf`, in order: its refid, then an id of its own — which the cursor
 * takes is not shown), this API's cursor convention, within `maxPages`. A value the target refuses or ignores (a page
 * repeats items) is followed by the next one; when none moves the list, or none can be taken from the items, the walk
 * ends as incomplete, never as a failure: the cursor is not documented for this list.
 */
export async function walkList(
  t: CheckTools,
  actor: GateActor,
  path: string,
  opts: {
    requirement: RequirementId;
    maxPages: number;
    idOf: (item: Record<string, unknown>) => unknown;
    cursorsOf?: (item: Record<string, unknown>) => unknown[];
  },
): Promise<Walked> {
  const items: unknown[] = [];
  const seen = new Set<string>();
  const cursorsOf = opts.cursorsOf ?? ((x: Record<string, unknown>) => [opts.idOf(x)]);
  const page1 = await actor.client.get(path);
  let list = t.expect.schema(expect2xx(t, page1, opts.requirement, `GET ${path}`), UnshapedList, opts.requirement);
  /** Which of the cursor values the target took (once one moved the list, the walk keeps to it). */
  let taken = 0;
  for (let page = 0; page < opts.maxPages; page++) {
    for (const id of list.data.map((x) => opts.idOf((x ?? {}) as Record<string, unknown>))) if (typeof id === 'string') seen.add(id);
    items.push(...list.data);
    if (!list.has_more) return { items, complete: true, ...(page > 0 ? { cursorTaken: taken } : {}) };
    if (page === opts.maxPages - 1) break;
    const last = (list.data[list.data.length - 1] ?? {}) as Record<string, unknown>;
    const values = cursorsOf(last).filter((v): v is string => typeof v === 'string' && v.length > 0);
    if (values.length === 0) return { items, complete: false, stopped: `the last item of a ${path} page carries no id to continue from` };
    const tried: string[] = [];
    let next: typeof list | undefined;
    for (let i = Math.min(taken, values.length - 1); i < values.length && !next; i++) {
      const ex = await actor.client.get(path, { starting_after: values[i]! });
      if (ex.status < 200 || ex.status >= 300) {
        tried.push(`starting_after=${values[i]} answered ${ex.status}`);
        continue;
      }
      const got = t.expect.schema(ex, UnshapedList, opts.requirement);
      const ids = got.data.map((x) => opts.idOf((x ?? {}) as Record<string, unknown>));
      if (ids.some((id) => typeof id === 'string' && seen.has(id))) {
        tried.push(`starting_after=${values[i]} repeated items`);
        continue;
      }
      next = got;
      taken = i;
    }
    if (!next) return { items, complete: false, stopped: `${path}: ${tried.join('; ')} (its query parameters are not shown): the cursor was not honoured` };
    list = next;
  }
  return { items, complete: false, stopped: `${path} goes on past ${opts.maxPages} pages (${items.length} items)` };
}

/**
 * The list envelope's `url` is "the path of the list": a relative or absolute URL whose path ends with the
 * list's path (under the base address's /v1, or without it); a query string is tolerated.
 */
export function expectListUrl(t: CheckTools, ex: Exchange, listPath: string, requirement: RequirementId): void {
  const url: unknown = (ex.json as { url?: unknown } | undefined)?.url;
  let path: string | undefined;
  if (typeof url === 'string') {
    try {
      path = new URL(url, 'http://list.invalid').pathname.replace(/\/+$/, '');
    } catch {
      path = undefined;
    }
  }
  t.expect.that(path !== undefined && (path === listPath || path.endsWith(listPath)), `the list url is the path of the list (${listPath})`, {
    requirement,
    expected: `…${listPath}`,
    actual: url,
    exchange: ex,
  });
}
