// A list walked on each side for the sequence's own objects: a lived-in target holds many more, so the walk goes
// only as far as it must — until every object the sequence made is seen, or the list ends — and the target's
// pages are bounded by the step's share of the budget. Only a walk that reached the end, every page of it read, says
// an object is absent. A list whose order the specs leave open (gate.lists.order: oldest first puts what a sequence
// makes last) keeps where the exploration walked it deepest: a walk whose first page misses the sequence's objects
// goes on from there, past what earlier walks read.
import type { Exchange } from '../../client/types.js';
import type { RequirementId } from '../../model/catalogue/index.js';
import { sameOutcome } from '../divergence.js';
import type { Side } from '../model.js';
import { MAX_STEP_REQUESTS, type Real } from '../real.js';

export interface ListWalk {
  page(side: Side, cursor: string | undefined): Promise<Exchange>;
  items(json: unknown): Record<string, unknown>[];
  more(json: unknown): boolean;
  /** The cursor for the page after this item (the last item of a page). */
  cursor(item: Record<string, unknown>, json: unknown): string | undefined;
  /** The ids to find on each side. */
  wanted(side: Side): Set<string>;
  /** The rule the first page's outcome follows. */
  requirement: RequirementId;
  /** The id of an item (default its `id`). */
  idOf?(item: Record<string, unknown>): string;
  /**
   * The list's name in the exploration's memory of where it was walked deepest (a starting_after cursor, which only
   * a list ordered by creation keeps meaning), and which ids are the sequence's own (never a place to start after).
   */
  frontier?: { list: string; ours(side: Side, id: string): boolean };
}

export interface Listed {
  item: Record<string, unknown>;
  /** Position in the walk (0 first): the list's order among the sequence's objects. */
  at: number;
}

export interface WalkResult {
  target: Map<string, Listed>;
  oracle: Map<string, Listed>;
  /** The walk reached the end of the list: an object not seen is not in it. */
  complete: Record<Side, boolean>;
  /** Each item seen more than once (a page boundary repeating it), by side. */
  repeated: Record<Side, string[]>;
}

/** Pages a step may read on the target (the oracle's are free). */
const TARGET_PAGES = MAX_STEP_REQUESTS;
const ORACLE_PAGES = 50;

export async function walkList(r: Real, w: ListWalk): Promise<WalkResult> {
  const idOf = w.idOf ?? ((i: Record<string, unknown>) => String(i.id));
  const first = await r.both((side) => w.page(side, undefined));
  sameOutcome(r, first, { requirement: { '2xx': w.requirement } });
  const out: WalkResult = { target: new Map(), oracle: new Map(), complete: { target: false, oracle: false }, repeated: { target: [], oracle: [] } };
  for (const side of ['target', 'oracle'] as Side[]) await walkSide(r, w, side, first[side], out, idOf);
  return out;
}

/** One side's walk from its first page, as far as the sequence's objects need (or its pages allow). */
async function walkSide(r: Real, w: ListWalk, side: Side, first: Exchange, out: WalkResult, idOf: (item: Record<string, unknown>) => string): Promise<void> {
  const wanted = w.wanted(side);
  const deepest = w.frontier ? r.context.frontiers : undefined;
  let ex = first;
  let at = 0;
  let skipped = false;
  for (let page = 1; ; page++) {
    if (ex.status >= 300) break;
    const items = w.items(ex.json);
    for (const item of items) {
      const id = idOf(item);
      if (out[side].has(id)) out.repeated[side].push(id);
      else out[side].set(id, { item, at });
      at++;
    }
    if (page > 1 && deepest && w.frontier) remember(deepest, w.frontier, side, items.map(idOf));
    if (!w.more(ex.json)) {
      out.complete[side] = !skipped;
      break;
    }
    const seenAll = [...wanted].every((id) => out[side].has(id));
    const last = items.at(-1);
    let cursor = last ? w.cursor(last, ex.json) : undefined;
    // The first page misses the sequence's objects: go on past the last object an earlier sequence made (a list ordered by
    // creation holds this sequence's after it), else past where the exploration walked deepest before.
    const from = page === 1 && !seenAll && w.frontier ? startOf(r, w.frontier, side) : undefined;
    if (from && from !== cursor && !out[side].has(from)) {
      cursor = from;
      skipped = true;
    }
    if (seenAll || !cursor || page >= (side === 'target' ? TARGET_PAGES : ORACLE_PAGES)) break;
    const next = cursor;
    ex = await r.one(side, () => w.page(side, next));
  }
}

/** Where a walk whose first page misses the sequence's objects goes on from: after an earlier sequence's last object, or the deepest page. */
function startOf(r: Real, f: NonNullable<ListWalk['frontier']>, side: Side): string | undefined {
  const earlier = (r.context.made.get(f.list) ?? []).map((x) => x[side]).filter((id) => !f.ours(side, id));
  return earlier.at(-1) ?? r.context.frontiers.get(f.list)?.[side];
}

/** An object the exploration made, still listed (a list ordered by creation shows later ones after it). */
export function listedFrom(r: Real, list: string, id: Record<Side, string>): void {
  r.context.made.set(list, [...(r.context.made.get(list) ?? []), id]);
}

/** An object the exploration made that its list no longer shows (a deleted customer). */
export function unlisted(r: Real, list: string, id: Record<Side, string>): void {
  r.context.made.set(
    list,
    (r.context.made.get(list) ?? []).filter((x) => x.target !== id.target),
  );
}

/** The deepest page read so far: its last item that is not the sequence's own. */
function remember(deepest: Map<string, Partial<Record<Side, string>>>, f: NonNullable<ListWalk['frontier']>, side: Side, ids: string[]): void {
  const id = ids.filter((x) => !f.ours(side, x)).at(-1);
  if (id) deepest.set(f.list, { ...deepest.get(f.list), [side]: id });
}
