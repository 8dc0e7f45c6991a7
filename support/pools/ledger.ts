// The pools ledger as a list: its query parameters and response shape are not
// shown. Where the profile declares how the sandbox pages it (pools.ledgerPaging)
// those words are used and judged; else its entries are the page's `data` array
// (else the first array of objects in the body) and its next cursor is
// `nextCursor` or `next_cursor`, followed as `?cursor=` (the trades list's
// convention). A check that finds neither observes the shape and ends
// unverified, never passed.
import type { Exchange } from '../../src/client/types.js';
import type { PoolsActor } from '../../src/needs/define.js';
import { pick } from '../../src/needs/support/triggers.js';
import type { Profile } from '../../src/profile/schema.js';
import type { CheckTools, RequirementId } from '../../src/runner/check.js';
import { expect2xx } from '../expect.js';

export type LedgerEntry = Record<string, unknown>;

const isEntry = (v: unknown): v is LedgerEntry => !!v && typeof v === 'object' && !Array.isArray(v);

/** The entries of one ledger page, or undefined when the body holds no list of objects. */
export function pageEntries(json: unknown): LedgerEntry[] | undefined {
  if (!isEntry(json)) return Array.isArray(json) && json.every(isEntry) ? json : undefined;
  if (Array.isArray(json.data) && json.data.every(isEntry)) return json.data;
  const first = Object.values(json).find((v) => Array.isArray(v) && v.length > 0 && v.every(isEntry));
  return first as LedgerEntry[] | undefined;
}

/** The page's next cursor, in the trades list's naming (or snake case). */
export function nextCursorOf(json: unknown): string | undefined {
  if (!isEntry(json)) return undefined;
  const c = json.nextCursor ?? json.next_cursor;
  return typeof c === 'string' && c.length > 0 ? c : undefined;
}

/** How a ledger is paged: the profile's declared words, or the trades list's convention (guessed). */
export interface LedgerPaging {
  /** The profile declares the words (pools.ledgerPaging): a cursor they do not reach is the target's failure, not a guess gone wrong. */
  declared: boolean;
  cursorParam: string;
  limitParam: string;
  entries(json: unknown): LedgerEntry[] | undefined;
  next(json: unknown): string | undefined;
}

export function ledgerPaging(profile: Profile): LedgerPaging {
  const d = profile.pools?.ledgerPaging;
  if (!d) return { declared: false, cursorParam: 'cursor', limitParam: 'limit', entries: pageEntries, next: nextCursorOf };
  return {
    declared: true,
    cursorParam: d.cursorParam,
    limitParam: d.limitParam,
    entries: (json) => {
      if (!d.entries) return pageEntries(json);
      const list = pick(json, d.entries);
      return Array.isArray(list) && list.every(isEntry) ? list : undefined;
    },
    next: (json) => {
      const c = pick(json, d.nextCursor);
      return typeof c === 'string' && c.length > 0 ? c : undefined;
    },
  };
}

/** An entry's identity: its id when it has one, else the whole entry. */
export const entryKey = (e: LedgerEntry) => (typeof e.id === 'string' ? `id:${e.id}` : JSON.stringify(e));

/** Whether an entry names a documented entry type among its string values. */
export const entryIs = (e: LedgerEntry, type: string) => Object.values(e).some((v) => v === type);

/** How many pages a full read follows. */
const MAX_PAGES = 5;

/**
 * The partner's ledger entries over at most MAX_PAGES pages, following the
 * next cursor while the target honours it. `shapeKnown` is false when page
 * one holds no list of entries.
 */
export async function readLedger(
  t: CheckTools,
  actor: PoolsActor,
  requirement: RequirementId,
): Promise<{ exchange: Exchange; entries: LedgerEntry[]; shapeKnown: boolean }> {
  const paging = ledgerPaging(t.profile);
  const exchange = expect2xx(t, await actor.client.get('/pools/ledger'), requirement, 'GET /pools/ledger');
  const first = paging.entries(exchange.json);
  if (!first) return { exchange, entries: [], shapeKnown: Array.isArray((exchange.json as { data?: unknown } | undefined)?.data) };
  const entries = [...first];
  const seen = new Set(first.map(entryKey));
  let next = paging.next(exchange.json);
  for (let i = 1; i < MAX_PAGES && next; i++) {
    const ex = await actor.client.get('/pools/ledger', { [paging.cursorParam]: next });
    const page = ex.status >= 200 && ex.status < 300 ? paging.entries(ex.json) : undefined;
    if (!page || page.every((e) => seen.has(entryKey(e)))) break;
    for (const e of page) if (!seen.has(entryKey(e))) (seen.add(entryKey(e)), entries.push(e));
    next = paging.next(ex.json);
  }
  return { exchange, entries, shapeKnown: true };
}
