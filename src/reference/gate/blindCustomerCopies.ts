// The second copies of a customer that two blind sequence faults keep (gate/blindFaults.ts): a write-through cache of
// GET /customers/{id}, and the external_id lookup index POST /customers checks duplicates against. Each is written by
// the paths its fault names, so it parts from the customer record only after a sequence.
import type { Reply } from '../kit/http.js';
import type { GateWorld } from './world.js';

const REPLAY_REPRIMES = 'seq-blind-cust-replay-reprimes-cache';
const EXTERNAL_ID_INDEX = 'seq-blind-cust-external-id-freed-by-patch';

interface CachedRead {
  scope: string;
  view: Record<string, unknown>;
}

/** Per world: customer id → the view the cache holds for it, and the caller scope it belongs to. */
const readCaches = new WeakMap<GateWorld, Map<string, CachedRead>>();

function readCache(world: GateWorld): Map<string, CachedRead> {
  let m = readCaches.get(world);
  if (!m) readCaches.set(world, (m = new Map()));
  return m;
}

/** The cached answer of GET /customers/{id} for this caller scope, or null (no fault, nothing cached, another tenant's). */
export function cachedCustomerRead(world: GateWorld, scope: string, id: string): Record<string, unknown> | null {
  if (!world.faults.has(REPLAY_REPRIMES)) return null;
  const hit = readCache(world).get(id);
  return hit && hit.scope === scope ? structuredClone(hit.view) : null;
}

/** A read missed the cache and answered `view`: the cache keeps it. */
export function rememberCustomerRead(world: GateWorld, scope: string, id: string, view: Record<string, unknown>): Record<string, unknown> {
  if (world.faults.has(REPLAY_REPRIMES)) readCache(world).set(id, { scope, view: structuredClone(view) });
  return view;
}

/**
 * POST /customers writes its answer through the cache — and an Idempotency-Key replay is that route answering its
 * stored response, so it writes the customer as it was created back over what a PATCH or DELETE did since.
 */
export function createThroughCustomerCache(world: GateWorld, scope: string, reply: Reply): Reply {
  const body = reply.body as Record<string, unknown> | undefined;
  if (world.faults.has(REPLAY_REPRIMES) && reply.status === 201 && typeof body?.id === 'string')
    readCache(world).set(body.id, { scope, view: structuredClone(body) });
  return reply;
}

/** PATCH writes through the cache (a customer cached reads the patched record). */
export function patchThroughCustomerCache(world: GateWorld, reply: Reply): Reply {
  const body = reply.body as Record<string, unknown> | undefined;
  const hit = typeof body?.id === 'string' ? readCache(world).get(body.id) : undefined;
  if (hit && world.faults.has(REPLAY_REPRIMES)) hit.view = structuredClone(body!);
  return reply;
}

/** DELETE evicts the customer from the cache (it reads 404 from then on, until something writes it back). */
export function evictCustomerRead(world: GateWorld, id: string): void {
  readCache(world).delete(id);
}

/** Customers whose external_id index row a PATCH re-saved without it. */
const unindexed = new WeakSet<object>();

/** PATCH re-saved the customer's lookup row from the patch's fields: under the fault its external_id is gone from it. */
export function noteCustomerPatched(world: GateWorld, customer: object): void {
  if (world.faults.has(EXTERNAL_ID_INDEX)) unindexed.add(customer);
}

/** Whether the duplicate check finds this customer's external_id in the index (always, but under the fault after a PATCH). */
export function externalIdIndexed(world: GateWorld, customer: object): boolean {
  return !(world.faults.has(EXTERNAL_ID_INDEX) && unindexed.has(customer));
}
