// "Most recent first" (GET /webhooks/deliveries) names no field to order by. A delivery is recent by when it was
// created, or by when it last changed (an attempt, a replay): both readings pass where the documented timestamps
// (created_at, updated_at) show the page ordered so, and which one held is observed.

/** The documented timestamps "most recent" may be read on. */
export const RECENCY_KEYS = ['created_at', 'updated_at'] as const;
export type RecencyKey = (typeof RECENCY_KEYS)[number];

type Listed = { id: string; created_at: string | null; updated_at: string | null };

export interface RecencyReadings {
  /** The readings the page holds to (empty: it is ordered by neither: a violation). */
  held: RecencyKey[];
  /** Why each reading that did not hold fails, with the answers that show it. */
  broken: Partial<Record<RecencyKey, string>>;
}

/** Where `key` increases down the page (null values are left out): the pair that shows it, or undefined. */
function firstRise(page: readonly Listed[], key: RecencyKey): string | undefined {
  let prev: Listed | undefined;
  for (const d of page) {
    const v = d[key];
    if (v === null || Number.isNaN(Date.parse(v))) continue;
    if (prev && Date.parse(v) > Date.parse(prev[key]!)) return `${key} ${prev[key]} (${prev.id}) then ${v} (${d.id})`;
    prev = d;
  }
  return undefined;
}

/**
 * Which readings of "most recent first" a page holds to. `later` was created after `earlier` (rampart made them in
 * that order): read on creation, it is listed first and created_at never increases down the page; read on the last
 * change, updated_at never increases down the page (both deliveries carrying one), whatever their creation order.
 */
export function recencyReadings(page: readonly Listed[], later: string, earlier: string): RecencyReadings {
  const at = (id: string) => page.findIndex((d) => d.id === id);
  const pair = [page[at(later)], page[at(earlier)]];
  const broken: RecencyReadings['broken'] = {};
  const created = firstRise(page, 'created_at');
  if (at(later) > at(earlier)) broken.created_at = `the delivery created later (${later}) is listed after the earlier one (${earlier})`;
  else if (created) broken.created_at = created;
  const updated = firstRise(page, 'updated_at');
  if (pair.some((d) => !d || d.updated_at === null)) broken.updated_at = 'the deliveries carry no updated_at to order by';
  else if (updated) broken.updated_at = updated;
  return { held: RECENCY_KEYS.filter((k) => broken[k] === undefined), broken };
}
