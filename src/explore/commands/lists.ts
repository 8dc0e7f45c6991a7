// A list walked on each side for the sequence's own objects: a lived-in target holds many more, so the walk goes
// only as far as it must — until every object the sequence made is seen, or the list ends — and the target's
// pages are bounded by the step's share of the budget. Only a walk that reached the end says an object is absent.
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
  for (const side of ['target', 'oracle'] as Side[]) {
    const wanted = w.wanted(side);
    let ex = first[side];
    let at = 0;
    for (let page = 1; ; page++) {
      if (ex.status >= 300) break;
      const items = w.items(ex.json);
      for (const item of items) {
        const id = idOf(item);
        if (out[side].has(id)) out.repeated[side].push(id);
        else out[side].set(id, { item, at });
        at++;
      }
      if (!w.more(ex.json)) {
        out.complete[side] = true;
        break;
      }
      const seenAll = [...wanted].every((id) => out[side].has(id));
      const last = items.at(-1);
      const cursor = last ? w.cursor(last, ex.json) : undefined;
      if (seenAll || !cursor || page >= (side === 'target' ? TARGET_PAGES : ORACLE_PAGES)) break;
      ex = await r.one(side, () => w.page(side, cursor));
    }
  }
  return out;
}
