// The Gate lists whose order and page size the specs leave open (sessions, customers, transactions: "Page-size bounds
// of session, customer and transaction lists: not shown", and no order is stated): the world's choices, read here.
import { choiceOf } from '../kit/dialect.js';
import type { GateWorld } from './world.js';

/** The default page and the largest limit of the session, customer and transaction lists (gate.lists.pageSize). */
export function listBounds(world: GateWorld): { max: number; def: number } {
  return choiceOf(world.profile, 'gate.lists.pageSize') === '5-of-25' ? { max: 25, def: 5 } : { max: 100, def: 10 };
}

/** Items in newest-first order, as the world lists them (gate.lists.order: newest first, or oldest first). */
export function listOrdered<T>(world: GateWorld, newestFirst: T[]): T[] {
  return choiceOf(world.profile, 'gate.lists.order') === 'oldest-first' ? [...newestFirst].reverse() : newestFirst;
}
